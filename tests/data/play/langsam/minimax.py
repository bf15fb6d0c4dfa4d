"""A player that thinks for 0.4 seconds of CPU time before every move (it counts in a loop),
then takes the first legal one: within a limit of one second per move, but three such moves
spend more than a game budget of one second."""

import time


def alphabeta(game, state, depth=None):
    started = time.process_time()
    while time.process_time() - started < 0.4:
        pass
    return 0, game.actions(state)[0]
