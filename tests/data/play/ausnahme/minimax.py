"""A player whose search raises an exception on its first move."""


def alphabeta(game, state, depth=None):
    moves = game.actions(state)
    return moves[len(moves)]  # IndexError: one past the end
