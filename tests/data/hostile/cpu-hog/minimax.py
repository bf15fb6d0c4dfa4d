"""A correct search that leaves 30 processes spinning from its first call on (they live as
long as its child does) and takes its time over every answer (half a second of waiting, so
that its spinners run for a while): they may slow only itself.  Its neighbours in the batch must keep
full marks (their limits are their own CPU time, and the cgroup gives this submission one
core at most)."""
import os
import time

import korrekt

started = False


def minimax(game, state):
    global started
    if not started:
        started = True
        for _ in range(30):
            if os.fork() == 0:
                while True:
                    pass
    time.sleep(0.5)
    return korrekt.minimax(game, state)


alphabeta = korrekt.alphabeta
negamax = korrekt.negamax
