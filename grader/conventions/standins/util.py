"""A stand-in for the Pacman projects' ``util`` module: just what multi-agent files use."""

import inspect
import sys


def manhattanDistance(xy1, xy2):
    return abs(xy1[0] - xy2[0]) + abs(xy1[1] - xy2[1])


def raiseNotDefined():
    caller = inspect.stack()[1]
    print(f"*** Method not implemented: {caller[3]} at line {caller[2]} of {caller[1]}")
    sys.exit(1)


def lookup(name, namespace):
    """The object called ``name`` in ``namespace`` (a module's globals), as those projects'
    agents look up their evaluation function."""
    if name in namespace:
        return namespace[name]
    raise Exception(f"{name} is not a function or class in the namespace")


class Counter(dict):
    def __getitem__(self, key):
        self.setdefault(key, 0)
        return dict.__getitem__(self, key)

    def argMax(self):
        return max(self, key=self.get) if self else None
