"""Alpha-Beta mit Tiefenschranke (korrekt), die bei jedem Zug 80 Debug-Zeilen ausgibt
(16.400 Bytes): über ein ganzes Turnier weit mehr als 1 MiB, ohne dass ein Zug daran
scheitern darf."""

from math import inf


def alphabeta(game, state, depth):
    for zeile in range(80):
        print(f"[debug] Zug aus {state!r}, Zeile {zeile:2d} ".ljust(204, "."))
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
