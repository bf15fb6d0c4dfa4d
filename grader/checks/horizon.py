"""``horizon``: depth discipline of a depth-limited search.

No node below the horizon is visited; ``evaluate`` is called exactly on the visited
non-terminal nodes at the horizon; terminal nodes above the horizon are scored with
``utility``, not ``evaluate``; and the search reached the horizon or a terminal node at all
(an empty search breaks no rule, and earns nothing).

Trees carry their heuristic values; tic-tac-toe gets a table of its task's ``heuristic:``
(``grader.answers.heuristics``), so a depth-limited tic-tac-toe task is checked alike.
"""

from .verdict import failed, passed
from .common import (GAME_ONLY_SEARCHES, SEARCH_FUNCTIONS, VISITS_VARY, PerObject,
                     search_failure, single_search_call, static_nodes)

KIND = "horizon"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {}
# What a self-check kit keeps, sealed, of this kind's answers (grader.answers.sealed.seal_answer).
SEALED_PARTS = ()


def applies_to(function):
    return (function in SEARCH_FUNCTIONS and function not in GAME_ONLY_SEARCHES
            and function not in VISITS_VARY)


def parse_options(item, context, line):
    if not context.depth:
        context.problem(line, "a horizon check needs a depth-limited task (depth: d)")
    if context.game == "none":
        # (the task's depth check refuses games without a heuristic at the horizon)
        context.problem(line, "a horizon check needs a game with heuristic values")
    return {}


calls = single_search_call


def _reference_nodes(answer: dict) -> tuple:
    """The reference's nodes within the horizon, at it, and terminal, as sets."""
    return (set(answer["siblings"]) | {answer["root"]}, set(answer["horizon"]),
            set(answer["terminals"]))


reference_nodes = PerObject(_reference_nodes)   # asked again for every submission


def discipline(log: dict, answer: dict) -> dict | None:
    """What breaks depth discipline in one visit log, or None."""
    within, horizon, terminals = reference_nodes(answer)
    evaluated = list(dict.fromkeys(log.get("evaluate_calls") or ()))
    below = [n for n in log["visits"] if n not in within]
    if below:
        return {"reason": "horizon.below", "nodes": below}
    terminal_evaluated = [n for n in evaluated if n in terminals]
    if terminal_evaluated:
        return {"reason": "horizon.terminal", "nodes": terminal_evaluated}
    elsewhere = [n for n in evaluated if n not in horizon]
    if elsewhere:
        return {"reason": "horizon.early", "nodes": elsewhere}
    evaluated_set = set(evaluated)
    missing = [n for n in log["visits"] if n in horizon and n not in evaluated_set]
    if missing:
        return {"reason": "horizon.not-evaluated", "nodes": missing}
    return None


def judge(check, observations, answers):
    answer = answers[0][0]
    failure = search_failure(check, observations[0], answer)
    if failure:
        return failure
    log = observations[0].items[0].log
    problem = discipline(log, answer)
    if problem:
        return failed(check, problem["reason"], nodes=problem["nodes"])
    if not static_nodes(log, answer):
        return failed(check, "horizon.not-reached")
    return passed(check, horizon=answers[0][0]["horizon"])
