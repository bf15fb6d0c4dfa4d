"""Pinned answers: an instructor may write the expected figures into a task file; they are
verified against the reference, never used in its place."""

from __future__ import annotations

from dataclasses import replace

from .book import AnswerBook
from .numbers import same_number
from ..checks.common import search_call
from ..yamlsrc import Problem

# What may be pinned of the search techniques that return more than (value, action):
# iterative deepening's values per depth, the deepest iteration's move and the nodes each
# iteration visits (the root included); the principal variation's value, a line (any line of
# optimal play of full length passes, as any optimal action does) and its visited count.
TECHNIQUE_PINS = {"iterative_deepening": ("values", "action", "visited"),
                  "principal_variation": ("value", "line", "visited")}


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
                from ..checks.evaluate import calls
                value = answers[calls(task, check)[0]][0]["value"]
                pinned = check.option("expect")
                if isinstance(pinned, bool) or not isinstance(pinned, (int, float)) \
                        or not same_number(pinned, value):
                    problems.append(Problem(task.file, check.line, f"{task.id}: evaluate("
                                            f"{check.option('board')}, {check.option('player')}) "
                                            f"is pinned to {pinned!r}, the reference gives {value!r}"))
    return problems


def _compare(task, function, name, pinned, answer, answers) -> str | None:
    if task.reference_of(function) in TECHNIQUE_PINS:
        return _compare_technique(name, pinned, answer)
    if name == "value":
        if isinstance(pinned, tuple):    # a utility vector of an n-player tree
            pinned = list(pinned)
        ok = (not isinstance(pinned, bool) and isinstance(pinned, (int, float, list))
              and same_number(pinned, answer["value"]))
        return None if ok else (f"value is pinned to {pinned!r}, the reference gives "
                                f"{answer['value']!r}")
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


def _compare_technique(name, pinned, answer) -> str | None:
    """A pin of iterative deepening or the principal variation against the reference."""
    from ..checks.iteration_visits import rounds_of
    from ..checks.line import follow
    if "iterations" in answer:
        values = [facts["value"] for facts in answer["iterations"]]
        if name == "values":
            ok = (isinstance(pinned, tuple) and len(pinned) == len(values)
                  and all(not isinstance(p, bool) and isinstance(p, (int, float))
                          and same_number(p, v) for p, v in zip(pinned, values)))
            shown = list(pinned) if isinstance(pinned, tuple) else pinned
            return None if ok else (f"values are pinned to {shown!r}, minimax per depth "
                                    f"gives {values!r}")
        if name == "action":
            optimal = answer["iterations"][-1]["optimal_actions"]
            return None if pinned in optimal else (f"action is pinned to {pinned!r}, but the "
                                                   f"optimal actions are {optimal!r}")
        counts = [len(r["visits"]) + 1 for r in rounds_of(answer, answer["root"])]
        return None if pinned == tuple(counts) else (f"visited is pinned to {list(pinned)!r}, the "
                                                     f"reference's iterations visit {counts!r}")
    if name == "value":
        ok = not isinstance(pinned, bool) and isinstance(pinned, (int, float)) \
            and same_number(pinned, answer["value"])
        return None if ok else (f"value is pinned to {pinned!r}, the reference gives "
                                f"{answer['value']!r}")
    if name == "line":
        line = list(pinned) if isinstance(pinned, tuple) else pinned
        _, problem = follow(line if isinstance(line, list) else [], answer)
        return None if isinstance(line, list) and problem is None else (
            f"line is pinned to {line!r}, which is no line of optimal play of full length "
            f"(the reference's: {answer['returned'][1]!r})")
    count = len(answer["visits"])
    return None if pinned == count else (f"visited is pinned to {pinned!r}, the reference "
                                         f"visits {count}")
