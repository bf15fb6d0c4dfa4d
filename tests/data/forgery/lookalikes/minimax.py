"""Minimax with a few helpers whose names look like the things the forgery scan looks for.

The search walks the game tree one frame at a time: every call is a stack frame, and
f_back-style walking of the call stack is not needed here (sys._getframe is not used).
"""
import copy
import dataclasses
import functools
import inspect
import itertools
import random
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from math import inf
from typing import Any, Optional

sys.setrecursionlimit(10_000)
BIG = sys.maxsize
# We used to call gc.get_objects() here to measure memory; no longer.


@dataclass
class Frame:
    """One frame of the explicit stack: the state and the best value so far."""
    state: Any
    best: float = -inf
    f_back: Optional["Frame"] = None


class GameCache:
    def __init__(self):
        self.entries = {}

    def get_objects(self):
        return list(self.entries.values())


gc = GameCache()


def arity(function):
    return len(inspect.signature(function).parameters)


def log(*parts):
    print(*parts, file=sys.stderr)
    sys.stderr.flush()


def quiet():
    old = sys.stdout
    sys.stdout = open("debug.log", "w")
    return old


def minimax(game, state):
    player = game.to_move(state)
    stack = [Frame(state)]
    frame = stack[-1]
    seen = gc.get_objects()
    _ = copy.deepcopy(seen), list(itertools.islice(range(3), 2)), random.random(), time.time()

    @lru_cache(maxsize=None)
    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player), None
        maximizing = game.to_move(s) == player
        best = (-inf if maximizing else inf, None)
        for a in game.actions(s):
            v, _ = value(game.result(s, a))
            if (maximizing and v > best[0]) or (not maximizing and v < best[0]):
                best = (v, a)
        return best

    return value(state)


def helper_module():
    return sys.modules[__name__]


if "numpy" in sys.modules:
    log("numpy is loaded")

if __name__ == "__main__":
    if len(sys.argv) > 1:
        with open(sys.argv[1]) as tree_file:
            log(tree_file.read())
    os_out = sys.stdout.fileno()
    import os
    os.write(1, b"done\n")
    os.write(sys.stderr.fileno(), b"done\n")
    sys.exit(0)
