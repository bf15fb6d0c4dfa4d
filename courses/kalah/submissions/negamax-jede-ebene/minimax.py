"""Kalah: Minimax, Alpha-Beta und Negamax (eine fehlerhafte Lösung: Negamax negiert auf jeder
Ebene, als zögen die Spieler immer abwechselnd; die Zusatzzüge übersieht es)."""

from math import inf


def minimax(game, state, depth=None):
    player = game.to_move(state)

    def value(s, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        if game.to_move(s) == player:
            best, move = -inf, None
            for a in game.actions(s):
                v, _ = value(game.result(s, a), None if d is None else d - 1)
                if v > best:
                    best, move = v, a
        else:
            best, move = inf, None
            for a in game.actions(s):
                v, _ = value(game.result(s, a), None if d is None else d - 1)
                if v < best:
                    best, move = v, a
        return best, move

    return value(state, depth)


def alphabeta(game, state, depth=None):
    player = game.to_move(state)

    def value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        maximising = game.to_move(s) == player
        best, move = (-inf if maximising else inf), None
        for a in game.actions(s):
            v, _ = value(game.result(s, a), alpha, beta, None if d is None else d - 1)
            if maximising and v > best or not maximising and v < best:
                best, move = v, a
            if maximising:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if beta <= alpha:
                break
        return best, move

    return value(state, -inf, inf, depth)


def negamax(game, state, depth=None):
    player = game.to_move(state)

    def value(s, sign, d):
        if game.is_terminal(s):
            return sign * game.utility(s, player), None
        if d == 0:
            return sign * game.evaluate(s, player), None
        best, move = -inf, None
        for a in game.actions(s):
            v, _ = value(game.result(s, a), -sign, None if d is None else d - 1)
            if -v > best:
                best, move = -v, a
        return best, move

    return value(state, 1, depth)
