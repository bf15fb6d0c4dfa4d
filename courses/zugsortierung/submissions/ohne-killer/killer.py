"""Alpha-Beta (Lernnotizen, Abschnitt 3); die Killerzüge kommen noch."""

import math


def alphabeta_killer(game, state, depth):
    spieler = game.to_move(state)

    def wert(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, spieler), None
        if d == 0:
            return game.evaluate(s, spieler), None
        max_knoten = game.to_move(s) == spieler
        v, bester = (-math.inf if max_knoten else math.inf), None
        for z in game.actions(s):
            w, _ = wert(game.result(s, z), alpha, beta, d - 1)
            if max_knoten and w > v:
                v, bester = w, z
            if not max_knoten and w < v:
                v, bester = w, z
            if max_knoten:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
            if beta <= alpha:
                break
        return v, bester

    return wert(state, -math.inf, math.inf, depth)
