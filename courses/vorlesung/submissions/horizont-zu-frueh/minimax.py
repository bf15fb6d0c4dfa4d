"""Tic-Tac-Toe mit Tiefenschranke: Minimax, Alpha-Beta und Negamax (mit einem Fehler).

Alpha-Beta bewertet eine Ebene zu früh: schon bei d <= 1.

Am Horizont (d == 0) bewertet game.evaluate die Stellung, Endzustände game.utility.
"""

from math import inf


def _less(d):
    return None if d is None else d - 1


def minimax(game, state, depth=None):
    player = game.to_move(state)

    def value(s, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        maximizing = game.to_move(s) == player
        best, move = (-inf if maximizing else inf), None
        for a in game.actions(s):
            v, _ = value(game.result(s, a), _less(d))
            if (v > best) if maximizing else (v < best):
                best, move = v, a
        return best, move

    return value(state, depth)


def alphabeta(game, state, depth=None):
    player = game.to_move(state)

    def max_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d is not None and d <= 1:
            return game.evaluate(s, player), None
        best, move = -inf, None
        for a in game.actions(s):
            v, _ = min_value(game.result(s, a), alpha, beta, _less(d))
            if v > best:
                best, move = v, a
            alpha = max(alpha, best)
            if beta <= alpha:
                break
        return best, move

    def min_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d is not None and d <= 1:
            return game.evaluate(s, player), None
        best, move = inf, None
        for a in game.actions(s):
            v, _ = max_value(game.result(s, a), alpha, beta, _less(d))
            if v < best:
                best, move = v, a
            beta = min(beta, best)
            if beta <= alpha:
                break
        return best, move

    return max_value(state, -inf, inf, depth)


def negamax(game, state, depth=None):
    player = game.to_move(state)

    def value(s, sign, d):
        if game.is_terminal(s):
            return sign * game.utility(s, player), None
        if d == 0:
            return sign * game.evaluate(s, player), None
        best, move = -inf, None
        for a in game.actions(s):
            v, _ = value(game.result(s, a), -sign, _less(d))
            if -v > best:
                best, move = -v, a
        return best, move

    return value(state, 1, depth)
