"""A player whose process dies in the middle of its first search (exit status 3)."""

import os


def alphabeta(game, state, depth=None):
    os._exit(3)
