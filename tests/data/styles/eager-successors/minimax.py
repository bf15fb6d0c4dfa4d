"""Correct style: children generated eagerly with game.successors (the lecture's
Successors(state)), values kept as floats."""


def minimax(game, state):
    player = game.to_move(state)

    def max_value(s):
        if game.is_terminal(s):
            return float(game.utility(s, player))
        v = float("-inf")
        for (a, child) in game.successors(s):
            v = max(v, min_value(child))
        return v

    def min_value(s):
        if game.is_terminal(s):
            return float(game.utility(s, player))
        v = float("inf")
        for (a, child) in game.successors(s):
            v = min(v, max_value(child))
        return v

    if game.is_terminal(state):
        return game.utility(state, player), None
    val, action = float("-inf"), None
    for (a, child) in game.successors(state):
        v = min_value(child)
        if v > val:
            val, action = v, a
    return val, action


def alphabeta(game, state, depth=None):
    player = game.to_move(state)

    def value(s, alpha, beta, d, maximizing):
        if game.is_terminal(s):
            return float(game.utility(s, player))
        if d == 0:
            return float(game.evaluate(s, player))
        children = game.successors(s)
        if maximizing:
            v = float("-inf")
            for (a, child) in children:
                v = max(v, value(child, alpha, beta, None if d is None else d - 1, False))
                alpha = max(alpha, v)
                if beta <= alpha:
                    break
            return v
        v = float("inf")
        for (a, child) in children:
            v = min(v, value(child, alpha, beta, None if d is None else d - 1, True))
            beta = min(beta, v)
            if beta <= alpha:
                break
        return v

    if game.is_terminal(state):
        return game.utility(state, player), None
    alpha, action = float("-inf"), None
    for (a, child) in game.successors(state):
        v = value(child, alpha, float("inf"), None if depth is None else depth - 1, False)
        if v > alpha:
            alpha, action = v, a
    return alpha, action


def negamax(game, state):
    player = game.to_move(state)

    def neg(s, sign):
        if game.is_terminal(s):
            return sign * game.utility(s, player)
        return max(-neg(child, -sign) for (a, child) in game.successors(s))

    if game.is_terminal(state):
        return game.utility(state, player), None
    scored = [(-neg(child, -1), a) for (a, child) in game.successors(state)]
    best = max(v for v, _ in scored)
    return best, next(a for v, a in scored if v == best)
