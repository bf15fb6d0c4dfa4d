"""Minimax that tries the actions last to first: the right value, the nodes in another order."""

from math import inf


def minimax(game, state):
    player = game.to_move(state)

    def value(s, maximising):
        if game.is_terminal(s):
            return game.utility(s, player), None
        best, move = (-inf if maximising else inf), None
        for a in reversed(game.actions(s)):
            v, _ = value(game.result(s, a), not maximising)
            if (maximising and v > best) or (not maximising and v < best):
                best, move = v, a
        return best, move

    return value(state, True)
