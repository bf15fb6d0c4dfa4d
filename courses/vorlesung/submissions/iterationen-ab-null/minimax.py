"""Kalah: Minimax, Alpha-Beta und Negamax mit Zusatzzügen (eine korrekte Lösung).

Wer am Zug ist, fragt die Suche in jedem Knoten mit game.to_move: nach einem Zug, der in
der eigenen Kalah endet, zieht derselbe Spieler noch einmal, die Spieler wechseln sich
also nicht einfach ab.
"""

from math import inf


def minimax(game, state, depth=None):
    player = game.to_move(state)

    def value(s, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        maximising = game.to_move(s) == player
        best, move = (-inf if maximising else inf), None
        for a in game.actions(s):
            v, _ = value(game.result(s, a), None if d is None else d - 1)
            if (v > best) if maximising else (v < best):
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
        rest = None if d is None else d - 1
        if game.to_move(s) == player:
            best, move = -inf, None
            for a in game.actions(s):
                v, _ = value(game.result(s, a), alpha, beta, rest)
                if v > best:
                    best, move = v, a
                alpha = max(alpha, best)
                if beta <= alpha:
                    break
        else:
            best, move = inf, None
            for a in game.actions(s):
                v, _ = value(game.result(s, a), alpha, beta, rest)
                if v < best:
                    best, move = v, a
                beta = min(beta, best)
                if beta <= alpha:
                    break
        return best, move

    return value(state, -inf, inf, depth)


def negamax(game, state, depth=None):
    """Der Wert eines Knotens aus Sicht des Spielers, der dort am Zug ist: negiert wird nur,
    wo der Spieler wechselt (nach einem Zusatzzug zieht derselbe Spieler weiter)."""
    player = game.to_move(state)

    def value(s, sign, d):
        if game.is_terminal(s):
            return sign * game.utility(s, player), None
        if d == 0:
            return sign * game.evaluate(s, player), None
        mover = game.to_move(s)
        best, move = -inf, None
        for a, child in game.successors(s):
            if game.to_move(child) == mover:
                v, _ = value(child, sign, None if d is None else d - 1)
            else:
                v, _ = value(child, -sign, None if d is None else d - 1)
                v = -v
            if v > best:
                best, move = v, a
        return best, move

    return value(state, 1, depth)
