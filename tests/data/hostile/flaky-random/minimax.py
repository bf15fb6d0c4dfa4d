"""Right or wrong at random on larger trees (wrong seven times in eight): a search that cannot
be shrunk reliably, and that fails the course's 8 random trees all but never by chance (all
right with a chance of about 1 in 17 million)."""
import os

import korrekt


def minimax(game, state):
    value, action = korrekt.minimax(game, state)
    if len(game.actions(state)) > 1 and os.urandom(1)[0] < 224:
        return value + 1, action
    return value, action
