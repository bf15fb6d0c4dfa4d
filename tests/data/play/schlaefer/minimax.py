"""A player that sleeps 5 seconds before every move, then takes the first legal one: it
hardly computes, so a limit of CPU time alone would never stop it (issue 23)."""

import time


def alphabeta(game, state, depth=None):
    time.sleep(5)
    return 0, game.actions(state)[0]
