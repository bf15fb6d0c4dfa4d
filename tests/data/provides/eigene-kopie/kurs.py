"""A student's own copy of the course's helpers, changed: the children come last first."""

NEG_INF = float("-inf")
POS_INF = float("inf")


def kinder(game, state):
    return [(action, game.result(state, action)) for action in reversed(game.actions(state))]
