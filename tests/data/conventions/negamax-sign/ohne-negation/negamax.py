"""Sheet 3, exercise 3: Value(state, sign), sign = +1 where the root player moves."""


def Value(state, sign):
    if Terminal_Test(state):
        return sign * Utility(state)
    v = -INF
    for (a, s) in Successors(state):
        v = MAX(v, Value(s, -sign))
    return v
