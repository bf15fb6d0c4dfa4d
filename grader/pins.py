"""Pinned answers: an instructor may write the expected figures into a task file; they are
verified against the reference, never used in its place."""

from __future__ import annotations

from dataclasses import replace

from .answers import AnswerBook
from .checks.common import same_number, search_call
from .yamlsrc import Problem


def pruned_nodes(task, function: str, answers: AnswerBook) -> list[str]:
    """Sorted names of the nodes a full minimax (same depth) visits and ``function`` does not."""
    call = search_call(task, function)
    everything = answers[replace(call, reference="minimax")][0]["visits"]
    visited = set(answers[call][0]["visits"])
    return sorted(n for n in everything if n not in visited)


def verify_pins(course, answers: AnswerBook) -> list[Problem]:
    problems = []
    for task in course.tasks:
        problems += _table_changes_value(task, answers)
        for function, fields, _ in task.pins:
            answer = answers[search_call(task, function)][0]
            for name, pinned, line in fields:
                problem = _compare(task, function, name, pinned, answer, answers)
                if problem:
                    problems.append(Problem(task.file, line, f"{task.id}, {function}: {problem}"))
        for check in task.checks:
            if check.kind == "evaluate" and check.option("expect") is not None:
                from .checks.evaluate import calls
                value = answers[calls(task, check)[0]][0]["value"]
                pinned = check.option("expect")
                if isinstance(pinned, bool) or not isinstance(pinned, (int, float)) \
                        or not same_number(pinned, value):
                    problems.append(Problem(task.file, check.line, f"{task.id}: evaluate("
                                            f"{check.option('board')}, {check.option('player')}) "
                                            f"is pinned to {pinned!r}, the reference gives {value!r}"))
    return problems


def _compare(task, function, name, pinned, answer, answers) -> str | None:
    if name == "value":
        if isinstance(pinned, tuple):    # a utility vector of an n-player tree
            pinned = list(pinned)
        ok = (not isinstance(pinned, bool) and isinstance(pinned, (int, float, list))
              and same_number(pinned, answer["value"]))
        return None if ok else f"value is pinned to {pinned!r}, the reference gives {answer['value']!r}"
    if name == "action":
        if pinned in answer["optimal_actions"]:
            return None
        return (f"action is pinned to {pinned!r}, but the optimal actions are "
                f"{answer['optimal_actions']!r}")
    if name == "visited":
        count = len(answer["visits"])
        return None if pinned == count else f"visited is pinned to {pinned!r}, the reference visits {count}"
    if name == "pruned":
        actual = pruned_nodes(task, function, answers)
        pinned_list = sorted(pinned) if isinstance(pinned, (list, tuple)) else pinned
        return None if pinned_list == actual else (f"pruned is pinned to {list(pinned)!r}, the "
                                                   f"reference never visits {actual!r}")
    return f"unknown pin {name!r}"


def _table_changes_value(task, answers) -> list[Problem]:
    """A search with a table must find plain alpha-beta's value; where a position recurs with
    fewer plies left than when it was stored (Kalah's extra turns), the entry of the deeper
    search is used and may change it: such a task is refused."""
    problems = []
    for function in task.functions:
        if task.reference_of(function) not in ("alphabeta_tt", "mtdf") or task.game_spec is None:
            continue
        answer = answers[search_call(task, function)][0]
        if "plain_value" in answer and not same_number(answer["value"], answer["plain_value"]):
            problems.append(Problem(task.file, task.line, (
                f"{task.id}, {function}: with its table the reference finds "
                f"{answer['value']!r}, plain alpha-beta {answer['plain_value']!r}: a position "
                "recurs with fewer plies left than when it was stored, and the entry of the "
                "deeper search is used; choose another position or depth "
                "(bench/transposition_positions.py finds fair ones)")))
    return problems
