"""Minimax and alpha-beta that ask whose turn it is (several MIN players in a row)."""
from math import inf


def minimax(game, state):
    me = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me), None
        maximizing = game.to_move(s) == me
        best = (-inf if maximizing else inf, None)
        for a in game.actions(s):
            v, _ = value(game.result(s, a))
            if (maximizing and v > best[0]) or (not maximizing and v < best[0]):
                best = (v, a)
        return best

    return value(state)


def alphabeta(game, state, depth=None):
    me = game.to_move(state)

    def value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, me), None
        maximizing = game.to_move(s) == me
        best = (-inf if maximizing else inf, None)
        for a in game.actions(s):
            v, _ = value(game.result(s, a), alpha, beta)
            if maximizing:
                if v > best[0]:
                    best = (v, a)
                alpha = max(alpha, v)
            else:
                if v < best[0]:
                    best = (v, a)
                beta = min(beta, v)
            if beta <= alpha:
                break
        return best

    return value(state, -inf, inf)
