"""Alpha-Beta mit Killerzügen: ein Killerzug je Ebene.

Ebene = Abstand zur Wurzel in Zügen (die Wurzel hat Ebene 0).  Der Killerzug einer Ebene wird
dort zuerst versucht, wenn er in der Stellung erlaubt ist; löst ein Zug einen Schnitt aus
(beta <= alpha), wird er der neue Killerzug seiner Ebene.
"""

import math


def alphabeta_killer(game, state, depth):
    spieler = game.to_move(state)
    killer = {}

    def wert(s, alpha, beta, d, ebene):
        if game.is_terminal(s):
            return game.utility(s, spieler), None
        if d == 0:
            return game.evaluate(s, spieler), None
        max_knoten = game.to_move(s) == spieler
        zuege = list(game.actions(s))
        if killer.get(ebene) in zuege:
            zuege.remove(killer[ebene])
            zuege.insert(0, killer[ebene])
        v, bester = (-math.inf if max_knoten else math.inf), None
        for z in zuege:
            w, _ = wert(game.result(s, z), alpha, beta, d - 1, ebene + 1)
            if max_knoten and w > v:
                v, bester = w, z
            if not max_knoten and w < v:
                v, bester = w, z
            if max_knoten:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
            if beta <= alpha:
                killer[ebene] = z
                break
        return v, bester

    return wert(state, -math.inf, math.inf, depth, 0)
