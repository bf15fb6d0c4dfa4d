"""Correct style: fail-hard alpha-beta (values clamped to the window), minimax with an
explicit MAX/MIN flag, negamax after the sheet's Value(state, sign)."""

import math


def minimax(game, state):
    me = game.to_move(state)

    def value(s, maximizing):
        if game.is_terminal(s):
            return game.utility(s, me), None
        results = []
        for a in game.actions(s):
            results.append((value(game.result(s, a), not maximizing)[0], a))
        best = results[0]
        for v, a in results[1:]:
            if (maximizing and v > best[0]) or (not maximizing and v < best[0]):
                best = (v, a)
        return best

    return value(state, True)


def alphabeta(game, state, depth=None):
    me = game.to_move(state)

    def max_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, me)
        if d is not None and d <= 0:
            return game.evaluate(s, me)
        for a in game.actions(s):
            v = min_value(game.result(s, a), alpha, beta, None if d is None else d - 1)
            if v >= beta:
                return beta
            alpha = max(alpha, v)
        return alpha

    def min_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, me)
        if d is not None and d <= 0:
            return game.evaluate(s, me)
        for a in game.actions(s):
            v = max_value(game.result(s, a), alpha, beta, None if d is None else d - 1)
            if v <= alpha:
                return alpha
            beta = min(beta, v)
        return beta

    if game.is_terminal(state):
        return game.utility(state, me), None
    alpha, best_action = -math.inf, None
    for a in game.actions(state):
        v = min_value(game.result(state, a), alpha, math.inf, None if depth is None else depth - 1)
        if v > alpha:
            alpha, best_action = v, a
    return alpha, best_action


def negamax(game, state):
    me = game.to_move(state)

    def Value(s, sign):
        if game.is_terminal(s):
            return sign * game.utility(s, me)
        v = -math.inf
        for (a, child) in game.successors(s):
            v = max(v, -Value(child, -sign))
        return v

    if game.is_terminal(state):
        return game.utility(state, me), None
    best, best_action = -math.inf, None
    for a, child in game.successors(state):
        v = -Value(child, -1)
        if v > best:
            best, best_action = v, a
    return best, best_action
