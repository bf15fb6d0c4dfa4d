"""How the grader compares values: numbers (ints exactly, floats to 1e-9), utility vectors
element by element, and a self-check kit's sealed values by digesting the plain one.

Below the answers and the check kinds alike: both compare with the same rule.
"""

from __future__ import annotations

import math

from .sealed import Sealed


def is_number(value) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def is_vector(value) -> bool:
    """A utility vector of an n-player tree: a list of at least two finite numbers."""
    return (isinstance(value, (list, tuple)) and len(value) >= 2
            and all(is_number(v) for v in value))


def same_number(a, b) -> bool:
    """Equal numbers (ints exactly, floats to 1e-9); for utility vectors, equal element by
    element (a number never equals a vector).  A self-check kit's sealed value
    (``grader.answers.sealed``) is compared by digesting the plain one."""
    if isinstance(b, Sealed):
        return b.matches(a)
    if isinstance(a, Sealed):
        return a.matches(b)
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return (is_vector(a) and is_vector(b) and len(a) == len(b)
                and all(same_number(x, y) for x, y in zip(a, b)))
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
