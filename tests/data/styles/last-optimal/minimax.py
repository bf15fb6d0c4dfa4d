"""Correct style: minimax and negamax keep the *last* optimal action (>=, like the lecture's
`if (val <= v)` at the root); alpha-beta compares with > (a tie there may be a bound)."""

import math


def minimax(game, state):
    player = game.to_move(state)

    def max_value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a)))
        return v

    def min_value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a)))
        return v

    if game.is_terminal(state):
        return game.utility(state, player), None
    val, action = -math.inf, None
    for a in game.actions(state):
        v = min_value(game.result(state, a))
        if val <= v:
            val, action = v, a
    return val, action


def negamax(game, state):
    player = game.to_move(state)

    def value(s, sign):
        if game.is_terminal(s):
            return sign * game.utility(s, player)
        return max(-value(game.result(s, a), -sign) for a in game.actions(s))

    if game.is_terminal(state):
        return game.utility(state, player), None
    best, move = -math.inf, None
    for a in game.actions(state):
        v = -value(game.result(state, a), -1)
        if v >= best:
            best, move = v, a
    return best, move


def alphabeta(game, state, depth=None):
    player = game.to_move(state)

    def max_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player)
        if d == 0:
            return game.evaluate(s, player)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a), alpha, beta, None if d is None else d - 1))
            alpha = max(alpha, v)
            if beta <= alpha:
                break
        return v

    def min_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player)
        if d == 0:
            return game.evaluate(s, player)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a), alpha, beta, None if d is None else d - 1))
            beta = min(beta, v)
            if beta <= alpha:
                break
        return v

    if game.is_terminal(state):
        return game.utility(state, player), None
    alpha, action = -math.inf, None
    for a in game.actions(state):
        v = min_value(game.result(state, a), alpha, math.inf, None if depth is None else depth - 1)
        if v > alpha:
            alpha, action = v, a
    return alpha, action
