"""Eine gewöhnliche tiefenbeschränkte Alpha-Beta-Suche: am Horizont wird jede Stellung
bewertet, ob dort ein Schlagzug ansteht oder nicht (keine Ruhesuche)."""

from math import inf


def quiescence(game, state, depth):
    player = game.to_move(state)

    def value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        maximising = game.to_move(s) == player
        best, move = (-inf if maximising else inf), None
        for a in game.actions(s):
            v, _ = value(game.result(s, a), alpha, beta, d - 1)
            if (v > best) if maximising else (v < best):
                best, move = v, a
            if maximising:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if beta <= alpha:
                break
        return best, move

    return value(state, -inf, inf, depth)
