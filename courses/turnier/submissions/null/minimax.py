"""Alpha-Beta mit Tiefenschranke (Blatt 3); am Horizont bewertet game.evaluate, in dieser
Aufgabe die eigene Funktion aus evaluation.py."""

from math import inf


def alphabeta(game, state, depth):
    player = game.to_move(state)

    def wert(knoten, alpha, beta, rest):
        if game.is_terminal(knoten):
            return game.utility(knoten, player), None
        if rest == 0:
            return game.evaluate(knoten, player), None
        maximierend = game.to_move(knoten) == player
        bester, bester_zug = (-inf if maximierend else inf), None
        for zug in game.actions(knoten):
            v, _ = wert(game.result(knoten, zug), alpha, beta, rest - 1)
            if (v > bester) if maximierend else (v < bester):
                bester, bester_zug = v, zug
            if maximierend:
                alpha = max(alpha, bester)
            else:
                beta = min(beta, bester)
            if beta <= alpha:
                break
        return bester, bester_zug

    return wert(state, -inf, inf, depth)
