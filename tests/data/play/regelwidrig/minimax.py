"""A player that drops its disc into column 7, one past the right edge of a 7-column board:
never a legal move."""


def alphabeta(game, state, depth=None):
    return 0, 7
