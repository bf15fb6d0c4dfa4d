"""A correct search that leaves 30 processes spinning from its first call on (they live as
long as its child does) and takes its time over every answer (a tenth of a second of waiting,
so that its spinners run for a while): they may slow only itself.  Its neighbours in the batch
must keep full marks (their limits are their own CPU time, and the cgroup gives this
submission one core at most).  Its spinners use that core for as long as its child lives,
which in the hostile batch (four calls) was 6 CPU-seconds a level with half a second of
waiting, 3.4 alone at the container level against 1.4 with a tenth; the spinners are there
from the first call to the child's end either way."""
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
    time.sleep(0.1)
    return korrekt.minimax(game, state)


alphabeta = korrekt.alphabeta
negamax = korrekt.negamax
