"""A player whose search never returns: it loops without end, using CPU time."""


def alphabeta(game, state, depth=None):
    count = 0
    while True:
        count += 1
