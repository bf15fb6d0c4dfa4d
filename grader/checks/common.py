"""Helpers shared by the check kinds: the standard search call, reading a student's answer
from plain JSON, comparing numbers, and turning failed runs into verdicts."""

from __future__ import annotations

import math

from ..calls import Call
from . import failed

SEARCH_FUNCTIONS = ("minimax", "alphabeta", "negamax", "expectimax")


def search_call(task, function: str) -> Call:
    """The one run of ``function`` on the task's game that value/action/visited/count share."""
    return Call(module=task.module_of(function), function=function, convention=task.convention,
                items=(task.game_spec,), args=(task.depth,) if task.depth else (),
                time_limit=task.limits.call_seconds,
                prune_on_equality=task.prune_on_equality,
                reference=task.reference_of(function))


def single_search_call(task, check) -> list[Call]:
    """``calls`` of the kinds that judge the one standard run of a task's search."""
    return [search_call(task, check.function)]


def is_number(value) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


def same_number(a, b) -> bool:
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def read_search_result(returned):
    """``(value, action, shape_ok)`` from what a search returned.

    The convention is ``(value, action)``; a bare number still lets the value be judged.
    Values that are not finite plain numbers (NaN, infinities, objects) count as no value.
    """
    if is_number(returned):
        return returned, None, False
    if isinstance(returned, list) and len(returned) == 2:
        value, action = returned
        return (value if is_number(value) else None), action, True
    return None, None, False


def describe(value) -> str:
    """A short, exact rendering of a returned value for messages."""
    if isinstance(value, dict) and "__unsupported__" in value:
        return f"<{value['__unsupported__']}: {value.get('repr', '')}>"
    if isinstance(value, dict) and "__float__" in value:
        return value["__float__"]
    if isinstance(value, list):
        return "(" + ", ".join(describe(v) for v in value) + ")"
    return repr(value)


def run_failure(check, observation, index: int = 0):
    """The verdict for a run that did not produce an answer, or None if it did."""
    if observation.status != "ok":
        return failed(check, f"call.{observation.status}", **(observation.error or {}))
    item = observation.items[index]
    if item.status != "ok":
        return failed(check, "item.error", **(item.error or {}))
    return None


def first_difference(expected: list, observed: list):
    """The first position where two visit sequences differ, or None if they are equal."""
    for index, (want, got) in enumerate(zip(expected, observed)):
        if want != got:
            return {"index": index + 1, "expected": want, "observed": got,
                    "common": expected[:index]}
    if len(expected) != len(observed):
        index = min(len(expected), len(observed))
        return {"index": index + 1,
                "expected": expected[index] if index < len(expected) else None,
                "observed": observed[index] if index < len(observed) else None,
                "common": expected[:index]}
    return None
