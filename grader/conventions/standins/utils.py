"""A stand-in for the ``utils`` module of AIMA's Python code (``aimacode/aima-python``), which
the textbook's ``games.py`` imports (``from utils import vector_add``; older versions
``argmax``, ``infinity`` or ``inf``; notebooks ``from utils import *``).

The helpers a game search may use work for real: ``inf``/``infinity``, ``identity``, ``first``,
``is_in``, ``argmin``/``argmax`` and their ``_random_tie`` forms, ``shuffled``, ``vector_add``,
``scalar_vector_product``, ``dot_product``, ``element_wise_product``, ``sequence``,
``remove_all``, ``unique``, ``count``, ``product``, ``mode``, ``histogram``, ``normalize``,
``clip``, ``num_or_str``, ``isnumber``, ``issequence``, ``name``, ``memoize``, the distances,
``PriorityQueue`` and ``Struct``.  Any other name the original defines (its logic
expressions, data files, activation functions ...) can be imported, and stops the function
that uses it with a clear message (``StandInUnavailable``): a game search does not need it.
A course that hands out its own ``utils.py`` lists it under ``provides:``; a student's own
``utils.py`` wins over this one.

Written for this grader from the original's interface; not a copy of it.  Runs in the child,
next to student code: standard library only.
"""

import collections
import collections.abc
import functools
import heapq
import math
import operator
import random

from grader.conventions.stubs import stub_function as _stub_function

inf = infinity = float("inf")


def identity(x):
    return x


def sequence(iterable):
    """``iterable`` as a sequence (a list or tuple stays as it is)."""
    return iterable if isinstance(iterable, (list, tuple, str)) else tuple([iterable])


def remove_all(item, seq):
    """``seq`` without every occurrence of ``item`` (a string without that substring)."""
    if isinstance(seq, str):
        return seq.replace(item, "")
    if isinstance(seq, set):
        return seq - {item}
    return [x for x in seq if x != item]


def unique(seq):
    return list(set(seq))


def count(seq):
    """How many items of ``seq`` are true."""
    return sum(map(bool, seq))


def product(numbers):
    result = 1
    for number in numbers:
        result *= number
    return result


def first(iterable, default=None):
    return next(iter(iterable), default)


def is_in(element, seq):
    """Whether ``element`` is in ``seq``, compared by identity."""
    return any(x is element for x in seq)


def mode(data):
    [(item, _)] = collections.Counter(data).most_common(1)
    return item


def shuffled(iterable):
    items = list(iterable)
    random.shuffle(items)
    return items


def argmin(seq, key=identity):
    return min(seq, key=key)


def argmax(seq, key=identity):
    return max(seq, key=key)


def argmin_random_tie(seq, key=identity):
    return min(shuffled(seq), key=key)


def argmax_random_tie(seq, key=identity):
    return max(shuffled(seq), key=key)


def histogram(values, mode=0, bin_function=None):
    """``(value, count)`` pairs, by value (``mode`` 0) or by count, largest first."""
    if bin_function:
        values = map(bin_function, values)
    counts = collections.Counter(values)
    if mode:
        return sorted(counts.items(), key=lambda pair: (pair[1], pair[0]), reverse=True)
    return sorted(counts.items())


def dot_product(x, y):
    return sum(a * b for a, b in zip(x, y))


def element_wise_product(x, y):
    return [a * b for a, b in zip(x, y)]


def vector_add(a, b):
    """``a + b`` component by component, as a tuple."""
    return tuple(map(operator.add, a, b))


def scalar_vector_product(scalar, vector):
    return [scalar * v for v in vector]


def normalize(dist):
    """Values scaled to sum to 1 (a dict's values, or a list)."""
    if isinstance(dist, dict):
        total = sum(dist.values())
        return {key: value / total for key, value in dist.items()}
    total = sum(dist)
    return [value / total for value in dist]


def clip(x, lowest, highest):
    return max(lowest, min(x, highest))


def num_or_str(text):
    """``text`` as an int, else a float, else the stripped string."""
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return str(text).strip()


def isnumber(x):
    return hasattr(x, "__int__")


def issequence(x):
    return isinstance(x, collections.abc.Sequence)


def name(obj):
    return (getattr(obj, "name", None) or getattr(obj, "__name__", None)
            or getattr(getattr(obj, "__class__", None), "__name__", None) or str(obj))


def memoize(fn, slot=None, maxsize=32):
    """``fn`` with its results kept (on the argument's ``slot`` attribute, if given)."""
    if slot:
        def memoized_fn(obj, *args):
            if hasattr(obj, slot):
                return getattr(obj, slot)
            value = fn(obj, *args)
            setattr(obj, slot, value)
            return value
        return memoized_fn
    return functools.lru_cache(maxsize=maxsize)(fn)


def euclidean_distance(x, y):
    return math.sqrt(sum((a - b) ** 2 for a, b in zip(x, y)))


def manhattan_distance(x, y):
    return sum(abs(a - b) for a, b in zip(x, y))


def hamming_distance(x, y):
    return sum(a != b for a, b in zip(x, y))


def distance(a, b):
    return math.hypot(a[0] - b[0], a[1] - b[1])


def distance_squared(a, b):
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


class Struct:
    """An object whose attributes are the keyword arguments it was made with."""

    def __init__(self, **entries):
        self.__dict__.update(entries)

    def __repr__(self):
        return "Struct({})".format(", ".join(f"{k}={v!r}" for k, v in vars(self).items()))


class PriorityQueue:
    """Items kept in order of ``f(item)``: ``pop`` gives the smallest (``order='min'``) or the
    largest (``order='max'``)."""

    def __init__(self, order="min", f=identity):
        if order not in ("min", "max"):
            raise ValueError("order must be either 'min' or 'max'")
        self.heap = []
        self.f = f if order == "min" else (lambda x: -f(x))
        self._count = 0

    def append(self, item):
        self._count += 1
        heapq.heappush(self.heap, (self.f(item), self._count, item))

    def extend(self, items):
        for item in items:
            self.append(item)

    def pop(self):
        if not self.heap:
            raise Exception("Trying to pop from empty PriorityQueue.")
        return heapq.heappop(self.heap)[2]

    def __len__(self):
        return len(self.heap)

    def __contains__(self, key):
        return any(item == key for _, _, item in self.heap)

    def __getitem__(self, key):
        for value, _, item in self.heap:
            if item == key:
                return value
        raise KeyError(str(key) + " is not in the priority queue")

    def __delitem__(self, key):
        for index, (_, _, item) in enumerate(self.heap):
            if item == key:
                self.heap.pop(index)
                heapq.heapify(self.heap)
                return
        raise KeyError(str(key) + " is not in the priority queue")


def __getattr__(attribute):
    """Any other public name of the original: importable, and unavailable when used."""
    if attribute.startswith("__"):
        raise AttributeError(attribute)
    stub = _stub_function("utils", attribute)
    globals()[attribute] = stub
    return stub
