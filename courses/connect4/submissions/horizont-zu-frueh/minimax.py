"""Vier gewinnt: Minimax, Alpha-Beta und Negamax mit Tiefenschranke, aber Alpha-Beta bewertet
eine Ebene zu früh: es prüft `d <= 1` statt `d == 0` (ein typischer Fehler beim Zählen).

Der Code kennt kein Spiel: er fragt nur das Spielobjekt (to_move, actions, result,
is_terminal, utility, evaluate) und funktioniert daher auf jedem Brett.  Ohne Tiefe
(depth=None) wird bis zum Spielende gesucht.
"""

from math import inf


def _less(d):
    return None if d is None else d - 1


def minimax(game, state, depth=None):
    player = game.to_move(state)

    def max_value(s, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        best, move = -inf, None
        for a in game.actions(s):
            v, _ = min_value(game.result(s, a), _less(d))
            if v > best:
                best, move = v, a
        return best, move

    def min_value(s, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        best, move = inf, None
        for a in game.actions(s):
            v, _ = max_value(game.result(s, a), _less(d))
            if v < best:
                best, move = v, a
        return best, move

    return max_value(state, depth)


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
        for a, child in game.successors(s):
            v, _ = value(child, -sign, _less(d))
            if -v > best:
                best, move = -v, a
        return best, move

    return value(state, 1, depth)
