"""A minimax that tries the actions in the order of a set: wrong, but it must be graded the
same way every time (the child's hash seed is fixed)."""
from math import inf


def minimax(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player), None
        maximizing = game.to_move(s) == player
        best = (-inf if maximizing else inf, None)
        for a in set(game.actions(s)):
            v, _ = value(game.result(s, a))
            if (maximizing and v > best[0]) or (not maximizing and v < best[0]):
                best = (v, a)
        return best

    return value(state)
