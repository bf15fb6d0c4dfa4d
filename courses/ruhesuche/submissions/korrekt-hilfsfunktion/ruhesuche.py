"""Ruhesuche, anders aufgeschrieben (ebenfalls korrekt): die Hauptsuche zählt die Resttiefe
herunter und übergibt am Horizont an eine eigene Funktion `ruhig_weiter`, die ihr eigenes
Restbudget für die Verlängerung hat.  Beide fragen mit game.to_move, wer am Zug ist."""

import math


def quiescence(game, state, depth, extension=2):
    root_player = game.to_move(state)

    def expand(s, alpha, beta, weiter):
        """Alpha-Beta über alle Züge von s; weiter(kind, alpha, beta) bewertet ein Kind."""
        am_zug_max = game.to_move(s) == root_player
        bester_wert = -math.inf if am_zug_max else math.inf
        bester_zug = None
        for zug, kind in game.successors(s):
            wert = weiter(kind, alpha, beta)
            if am_zug_max and wert > bester_wert:
                bester_wert, bester_zug = wert, zug
            if not am_zug_max and wert < bester_wert:
                bester_wert, bester_zug = wert, zug
            if am_zug_max:
                alpha = max(alpha, wert)
            else:
                beta = min(beta, wert)
            if alpha >= beta:
                break
        return bester_wert, bester_zug

    def ruhig_weiter(s, alpha, beta, budget):
        if game.is_terminal(s):
            return game.utility(s, root_player)
        if budget == 0 or not game.noisy_actions(s):
            return game.evaluate(s, root_player)
        return expand(s, alpha, beta,
                      lambda kind, a, b: ruhig_weiter(kind, a, b, budget - 1))[0]

    def suche(s, alpha, beta, rest):
        if rest == 0:
            return ruhig_weiter(s, alpha, beta, extension), None
        if game.is_terminal(s):
            return game.utility(s, root_player), None
        return expand(s, alpha, beta, lambda kind, a, b: suche(kind, a, b, rest - 1)[0])

    return suche(state, -math.inf, math.inf, depth)
