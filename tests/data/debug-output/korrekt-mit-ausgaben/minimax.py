"""Die korrekte Lösung von Blatt 3 (submissions/korrekt), mit einer Debug-Zeile pro besuchtem
Knoten, wie sie beim Fehlersuchen entsteht (etwa 200 Bytes je Zeile).  Sie druckt weit mehr
als 1 MiB: die Ausgabe darf gekürzt werden, kosten darf sie nichts."""

import sys
from math import inf


def spur(funktion, s, *rest):
    zeile = f"[debug] {funktion:<10} Zustand={s!r} {' '.join(map(str, rest))}"
    print(zeile.ljust(199, "."))


def minimax(game, state):
    player = game.to_move(state)

    def max_value(s):
        spur("max_value", s, "Spieler", player)
        if game.is_terminal(s):
            return game.utility(s, player), None
        best, move = -inf, None
        for a in game.actions(s):
            v, _ = min_value(game.result(s, a))
            if v > best:
                best, move = v, a
        return best, move

    def min_value(s):
        spur("min_value", s, "Spieler", player)
        if game.is_terminal(s):
            return game.utility(s, player), None
        best, move = inf, None
        for a in game.actions(s):
            v, _ = max_value(game.result(s, a))
            if v < best:
                best, move = v, a
        return best, move

    return max_value(state)


def alphabeta(game, state, depth=None):
    player = game.to_move(state)

    def max_value(s, alpha, beta, d):
        spur("ab-max", s, "alpha", alpha, "beta", beta, "Tiefe", d)
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        best, move = -inf, None
        for a in game.actions(s):
            v, _ = min_value(game.result(s, a), alpha, beta, None if d is None else d - 1)
            if v > best:
                best, move = v, a
            alpha = max(alpha, best)
            if beta <= alpha:
                break
        return best, move

    def min_value(s, alpha, beta, d):
        spur("ab-min", s, "alpha", alpha, "beta", beta, "Tiefe", d)
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        best, move = inf, None
        for a in game.actions(s):
            v, _ = max_value(game.result(s, a), alpha, beta, None if d is None else d - 1)
            if v < best:
                best, move = v, a
            beta = min(beta, best)
            if beta <= alpha:
                break
        return best, move

    return max_value(state, -inf, inf, depth)


def negamax(game, state):
    player = game.to_move(state)

    def value(s, sign):
        # auf stderr, wie es manche tun
        print(f"[debug] negamax Zustand={s!r} Vorzeichen={sign}".ljust(199, "."),
              file=sys.stderr)
        if game.is_terminal(s):
            return sign * game.utility(s, player), None
        best, move = -inf, None
        for a, child in game.successors(s):
            v, _ = value(child, -sign)
            if -v > best:
                best, move = -v, a
        return best, move

    return value(state, 1)
