"""Ruhesuche in Kalah (eine korrekte Lösung): Alpha-Beta bis zur Tiefe, am Horizont nur
ruhige Stellungen bewerten, an unruhigen höchstens VERLAENGERUNG Halbzüge weitersuchen."""

from math import inf

VERLAENGERUNG = 2   # so viele Halbzüge über den Horizont hinaus, wie die Aufgabe erlaubt


def quiescence(game, state, depth):
    player = game.to_move(state)
    grenze = depth + VERLAENGERUNG

    def value(s, alpha, beta, ply):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if ply >= depth and (ply >= grenze or game.is_quiet(s)):
            return game.evaluate(s, player), None
        if game.to_move(s) == player:
            best, move = -inf, None
            for a in game.actions(s):
                v, _ = value(game.result(s, a), alpha, beta, ply + 1)
                if v > best:
                    best, move = v, a
                alpha = max(alpha, best)
                if beta <= alpha:
                    break
        else:
            best, move = inf, None
            for a in game.actions(s):
                v, _ = value(game.result(s, a), alpha, beta, ply + 1)
                if v < best:
                    best, move = v, a
                beta = min(beta, best)
                if beta <= alpha:
                    break
        return best, move

    return value(state, -inf, inf, 0)
