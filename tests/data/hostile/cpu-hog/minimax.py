"""A correct search whose import leaves 30 processes spinning: they may slow only itself.
Its neighbours in the batch must keep full marks (their limits are their own CPU time, and
the cgroup gives this submission one core at most)."""
import os

import korrekt

for _ in range(30):
    if os.fork() == 0:
        while True:
            pass


def minimax(game, state):
    return korrekt.minimax(game, state)
