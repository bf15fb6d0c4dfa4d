"""Waits instead of computing on the sheet's tree: no CPU time passes, so only the wall-clock
backstop can stop it, and the message must say that it waited rather than computed."""
import time

import korrekt


def minimax(game, state):
    if "B" in game.actions(state):
        time.sleep(600)
    return korrekt.minimax(game, state)
