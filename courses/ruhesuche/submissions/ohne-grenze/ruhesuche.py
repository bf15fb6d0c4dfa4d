"""Ruhesuche, die an unruhigen Stellungen weitersucht, solange sie unruhig sind: die Grenze
der Verlängerung fehlt."""

from math import inf


def quiescence(game, state, depth):
    player = game.to_move(state)

    def value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d <= 0 and game.is_quiet(s):
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
