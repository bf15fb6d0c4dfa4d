"""Vertiefung: schrittweises Erhöhen der Suchtiefe und Principal-Variation.

Alpha-Beta mit Tiefenschranke; jede Suche liefert neben dem Wert die Zugfolge, auf der er
erreicht wird.  Werte aus Sicht des Spielers, der an der Wurzel am Zug ist (MAX).
"""

from math import inf


def alphabeta_mit_variante(game, state, depth, zuerst=None):
    """(Wert, Zugfolge) bis zur Tiefe depth; an der Wurzel wird der Zug `zuerst` (der beste
    der vorigen Iteration) vor den anderen versucht."""
    max_spieler = game.to_move(state)

    def wert(s, alpha, beta, d, wurzel=False):
        if game.is_terminal(s):
            return game.utility(s, max_spieler), []
        if d == 0:
            return game.evaluate(s, max_spieler), []
        zuege = list(game.actions(s))
        if wurzel and zuerst in zuege:
            zuege.remove(zuerst)
            zuege.insert(0, zuerst)
        if game.to_move(s) == max_spieler:          # Max-Value
            v, variante = -inf, []
            for z in zuege:
                w, rest = wert(game.result(s, z), alpha, beta, d - 1)
                if w > v:
                    v, variante = w, [z] + rest
                alpha = max(alpha, v)
                if beta <= alpha:
                    break
        else:                                        # Min-Value
            v, variante = inf, []
            for z in zuege:
                w, rest = wert(game.result(s, z), alpha, beta, d - 1)
                if w < v:
                    v, variante = w, [z] + rest
                beta = min(beta, v)
                if beta <= alpha:
                    break
        return v, variante

    return wert(state, -inf, inf, depth, wurzel=True)


def iterative_deepening(game, state, depth):
    """Tiefe 1, 2, ..., depth nacheinander; der beste Zug einer Iteration wird in der
    nächsten zuerst versucht."""
    ergebnisse = []
    bester_zug = None
    for d in range(1, depth + 1):
        v, variante = alphabeta_mit_variante(game, state, d, zuerst=bester_zug)
        bester_zug = variante[0] if variante else None
        ergebnisse.append((v, bester_zug))
    return ergebnisse


def principal_variation(game, state, depth):
    return alphabeta_mit_variante(game, state, depth)
