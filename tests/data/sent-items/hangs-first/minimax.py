"""Minimax never answers; alpha-beta, asked next about the same trees, is right: the
restarted child must be sent the trees again (grader.sandbox.launcher.Child.start)."""

from math import inf


def minimax(game, state):
    while True:     # the call times out and the child is restarted
        pass


def alphabeta(game, state, depth=None):
    player = game.to_move(state)

    def max_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        best, move = -inf, None
        for a in game.actions(s):
            v, _ = min_value(game.result(s, a), alpha, beta, None if d is None else d - 1)
            if v > best:
                best, move = v, a
            alpha = max(alpha, best)
            if beta <= alpha:
                break
        return best, move

    def min_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        best, move = inf, None
        for a in game.actions(s):
            v, _ = max_value(game.result(s, a), alpha, beta, None if d is None else d - 1)
            if v < best:
                best, move = v, a
            beta = min(beta, best)
            if beta <= alpha:
                break
        return best, move

    return max_value(state, -inf, inf, depth)
