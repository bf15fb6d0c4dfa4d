"""Right or wrong at random on larger trees: a search that cannot be shrunk reliably."""
import os

import korrekt


def minimax(game, state):
    value, action = korrekt.minimax(game, state)
    if len(game.actions(state)) > 1 and os.urandom(1)[0] < 128:
        return value + 1, action
    return value, action
