"""A stand-in for the ``util`` module of the UC Berkeley Pacman projects (multi-agent search).

It defines every public name of the original, so that a student's ``import util`` or
``from util import ...`` loads, used or not.  The data structures and pure helpers work for
real (``Stack``, ``Queue``, ``PriorityQueue``, ``PriorityQueueWithFunction``, ``Counter``,
``manhattanDistance``, the sampling helpers, ``nearestPoint``, ``lookup``, muting output ...);
``TimeoutFunction``, which the game engine wraps agents in with SIGALRM, is a stub that raises
``StandInUnavailable`` when used (the grader limits time itself).  ``pause`` does not wait
(there is nobody to press Enter during grading).

Written for this grader; not a copy of the original.  Runs in the child, next to student code.
"""

import heapq
import inspect
import io
import random
import signal
import sys
import time

from grader.conventions.stubs import stub_class as _stub_class


class FixedRandom:
    """A random generator whose sequence is the same in every run (``self.random``)."""

    def __init__(self):
        self.random = random.Random(0)


class Stack:
    """Last in, first out."""

    def __init__(self):
        self.list = []

    def push(self, item):
        self.list.append(item)

    def pop(self):
        return self.list.pop()

    def isEmpty(self):
        return len(self.list) == 0


class Queue:
    """First in, first out."""

    def __init__(self):
        self.list = []

    def push(self, item):
        self.list.insert(0, item)

    def pop(self):
        return self.list.pop()

    def isEmpty(self):
        return len(self.list) == 0


class PriorityQueue:
    """Items with priorities; ``pop`` returns an item of the lowest priority.  Among equal
    priorities, the item pushed first comes first."""

    def __init__(self):
        self.heap = []
        self.count = 0

    def push(self, item, priority):
        heapq.heappush(self.heap, (priority, self.count, item))
        self.count += 1

    def pop(self):
        return heapq.heappop(self.heap)[2]

    def isEmpty(self):
        return len(self.heap) == 0

    def update(self, item, priority):
        """Lower ``item``'s priority to ``priority`` (push it if it is not queued); a higher
        priority leaves it as it is."""
        for index, (queued_priority, count, queued) in enumerate(self.heap):
            if queued == item:
                if queued_priority <= priority:
                    return
                del self.heap[index]
                self.heap.append((priority, count, item))
                heapq.heapify(self.heap)
                return
        self.push(item, priority)


class PriorityQueueWithFunction(PriorityQueue):
    """A priority queue that computes each item's priority with ``priorityFunction``."""

    def __init__(self, priorityFunction):
        self.priorityFunction = priorityFunction
        PriorityQueue.__init__(self)

    def push(self, item):
        PriorityQueue.push(self, item, self.priorityFunction(item))


def manhattanDistance(xy1, xy2):
    return abs(xy1[0] - xy2[0]) + abs(xy1[1] - xy2[1])


class Counter(dict):
    """A dict whose missing keys count as 0, with a little vector arithmetic."""

    def __getitem__(self, key):
        self.setdefault(key, 0)
        return dict.__getitem__(self, key)

    def incrementAll(self, keys, count):
        for key in keys:
            self[key] += count

    def argMax(self):
        if len(self) == 0:
            return None
        return max(self.items(), key=lambda pair: pair[1])[0]

    def sortedKeys(self):
        return [key for key, _ in sorted(self.items(), key=lambda pair: -pair[1])]

    def totalCount(self):
        return sum(self.values())

    def normalize(self):
        total = float(self.totalCount())
        if total == 0:
            return
        for key in list(self.keys()):
            self[key] = self[key] / total

    def divideAll(self, divisor):
        divisor = float(divisor)
        for key in self:
            self[key] /= divisor

    def copy(self):
        return Counter(dict.copy(self))

    def __mul__(self, other):
        """The dot product of two counters."""
        smaller, larger = (self, other) if len(self) <= len(other) else (other, self)
        return sum(smaller[key] * larger[key] for key in smaller if key in larger)

    def __radd__(self, other):
        for key, value in other.items():
            self[key] += value

    def __add__(self, other):
        result = Counter()
        for key in set(self) | set(other):
            result[key] = (self[key] if key in self else 0) + (other[key] if key in other else 0)
        return result

    def __sub__(self, other):
        result = Counter()
        for key in set(self) | set(other):
            result[key] = (self[key] if key in self else 0) - (other[key] if key in other else 0)
        return result


def raiseNotDefined():
    caller = inspect.stack()[1]
    print(f"*** Method not implemented: {caller[3]} at line {caller[2]} of {caller[1]}")
    sys.exit(1)


def normalize(vectorOrCounter):
    """A normalised copy of a Counter or a list of numbers."""
    if isinstance(vectorOrCounter, Counter):
        result = Counter()
        total = float(vectorOrCounter.totalCount())
        if total == 0:
            return vectorOrCounter
        for key, value in vectorOrCounter.items():
            result[key] = value / total
        return result
    total = float(sum(vectorOrCounter))
    if total == 0:
        return vectorOrCounter
    return [value / total for value in vectorOrCounter]


def nSample(distribution, values, n):
    if sum(distribution) != 1:
        distribution = normalize(distribution)
    points = sorted(random.random() for _ in range(n))
    samples, index, cumulative = [], 0, distribution[0]
    for point in points:
        while point >= cumulative:
            index += 1
            cumulative += distribution[index]
        samples.append(values[index])
    return samples


def sample(distribution, values=None):
    if isinstance(distribution, Counter):
        pairs = sorted(distribution.items())
        distribution = [pair[1] for pair in pairs]
        values = [pair[0] for pair in pairs]
    if sum(distribution) != 1:
        distribution = normalize(distribution)
    choice = random.random()
    index, total = 0, distribution[0]
    while choice > total:
        index += 1
        total += distribution[index]
    return values[index]


def sampleFromCounter(counter):
    pairs = sorted(counter.items())
    return sample([value for _, value in pairs], [key for key, _ in pairs])


def getProbability(value, distribution, values):
    """The total probability of ``value`` in the distribution given as two lists."""
    return sum(probability for probability, candidate in zip(distribution, values)
               if candidate == value)


def flipCoin(p):
    return random.random() < p


def chooseFromDistribution(distribution):
    """An element of a distribution given as a dict or as a list of (probability, element)."""
    if isinstance(distribution, (dict, Counter)):
        return sample(distribution)
    choice = random.random()
    total = 0.0
    for probability, element in distribution:
        total += probability
        if choice <= total:
            return element


def nearestPoint(pos):
    """The grid point nearest to ``pos``."""
    x, y = pos
    return (int(x + 0.5), int(y + 0.5))


def sign(x):
    return 1 if x >= 0 else -1


def arrayInvert(array):
    """The transpose of a list of lists."""
    result = [[] for _ in array]
    for row in array:
        for column in range(len(row)):
            result[column].append(row[column])
    return result


def matrixAsList(matrix, value=True):
    """The (x, y) cells of ``matrix`` that hold ``value``."""
    return [(x, y) for x in range(len(matrix)) for y in range(len(matrix[0]))
            if matrix[x][y] == value]


def lookup(name, namespace):
    """The object called ``name`` in ``namespace`` (a module's globals), as the projects'
    agents look up their evaluation function; ``module.name`` also searches loaded modules."""
    dots = name.count(".")
    if dots > 0:
        module_name, object_name = ".".join(name.split(".")[:-1]), name.split(".")[-1]
        module = __import__(module_name)
        return getattr(module, object_name)
    if name in namespace:
        return namespace[name]
    modules = [value for value in namespace.values() if inspect.ismodule(value)]
    options = [getattr(module, name) for module in modules if name in dir(module)]
    if len(options) == 1:
        return options[0]
    if len(options) > 1:
        raise Exception("Name conflict for %s" % name)
    raise Exception("%s not found as a method or class" % name)


def pause():
    """The original waits for Enter; during grading nobody can press it, so it returns."""


class TimeoutFunctionException(Exception):
    """Raised by the original's TimeoutFunction when a call takes too long."""


TimeoutFunction = _stub_class(
    "util", "TimeoutFunction", methods=("handle_timeout", "__call__"),
    doc="The game engine's SIGALRM time limit around agents; the grader limits time itself.")


_ORIGINAL_STDOUT = None
_ORIGINAL_STDERR = None
_MUTED = False


class WritableNull:
    def write(self, string):
        pass


def mutePrint():
    global _ORIGINAL_STDOUT, _ORIGINAL_STDERR, _MUTED
    if _MUTED:
        return
    _MUTED = True
    _ORIGINAL_STDOUT = sys.stdout
    sys.stdout = WritableNull()


def unmutePrint():
    global _ORIGINAL_STDOUT, _ORIGINAL_STDERR, _MUTED
    if not _MUTED:
        return
    _MUTED = False
    sys.stdout = _ORIGINAL_STDOUT
