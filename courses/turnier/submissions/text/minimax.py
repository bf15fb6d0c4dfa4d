"""Alpha-Beta mit Tiefenschranke, aber der Zug kommt als Text zurück ("3" statt 3): so, wie
ihn eine Eingabe liefern würde.  Der Schiedsrichter nimmt nur die Spaltennummer selbst an."""

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

    wert_, zug = wert(state, -inf, inf, depth)
    return wert_, str(zug)
