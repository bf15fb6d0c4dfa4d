"""``hygiene``: the search behaves like a function, not like a stateful object.

* ``repeat``: the same call twice in one process gives the same value, action and visits
  (catches module-level caches and other state leaking between calls);
* ``single-child``: single-child nodes (chains) are searched like any other node;
* ``terminal-root`` (only when a task asks for it, ``aspects: [..., terminal-root]``, and
  its statement then says so): a root that is already terminal gives its utility and no
  action.  No exercise of the sheet asks for it, and correct textbook searches (the AIMA
  ``argmax`` root loop among them) do not handle it, so it is not a default.

The repeated call earns nothing unless it is a real answer: the right shape, from a search
that visited something.  States handed out are immutable, so a search cannot change a state
passed to it.
"""

from ..calls import Call, canonical
from ..games.moves import same_move
from .verdict import failed, passed
from .common import (GAME_ONLY_SEARCHES, SEARCH_FUNCTIONS, VECTOR_SEARCHES, read_answer,
                     read_search_result, search_failure, visit_count)
from ..answers.numbers import same_number
from .visited import compare_visits

KIND = "hygiene"
# What a self-check kit keeps, sealed, of this kind's answers (grader.answers.sealed.seal_answer).
SEALED_PARTS = ("visits:full", "visits:set")
ASPECTS = ("repeat", "terminal-root", "single-child")
DEFAULT_ASPECTS = ("repeat", "single-child")
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {
    "aspects": {"type": "array", "minItems": 1, "items": {"enum": list(ASPECTS)},
                "default": list(DEFAULT_ASPECTS),
                "description": "what is judged: repeat (the same call twice gives the same "
                               "result), single-child (chains are searched like any node), "
                               "terminal-root (a terminal root gives its utility, no action)"},
}
TERMINAL_ROOT = {"kind": "tree", "root": "A", "nodes": {"A": {"value": 7}}}
CHAIN = {"kind": "tree", "root": "A", "nodes": {
    "A": {"children": ["A1"], "eval": 1},
    "A1": {"children": ["A1.1", "A1.2"], "eval": 2},
    "A1.1": {"children": ["A1.1.1"], "eval": -3},
    "A1.1.1": {"value": -5},
    "A1.2": {"value": 4}}}


def applies_to(function):
    # two-player trees of its own: not for max^n, whose trees have utility vectors
    return (function in SEARCH_FUNCTIONS and function not in VECTOR_SEARCHES
            and function not in GAME_ONLY_SEARCHES)


def parse_options(item, context, line):
    aspects = item.get("aspects", list(DEFAULT_ASPECTS))
    if not isinstance(aspects, list) or not aspects or any(a not in ASPECTS for a in aspects):
        context.problem(item.line_of("aspects"), f"aspects must be a list of {', '.join(ASPECTS)}")
        aspects = list(DEFAULT_ASPECTS)
    if "repeat" in aspects and context.game == "none":
        context.problem(line, "the repeat aspect needs the task's game")
    return {"aspects": list(aspects)}


INPUTS = {"terminal-root": TERMINAL_ROOT, "single-child": CHAIN}


def _aspect_order(check, with_repeat: bool) -> list:
    """The aspect of each item of the call, in the order the call runs them: the repeated
    pair first (only where the task has a game to repeat), then the fixed trees."""
    aspects = check.option("aspects", list(DEFAULT_ASPECTS))
    order = ["repeat", "repeat"] if with_repeat and "repeat" in aspects else []
    return order + [aspect for aspect in INPUTS if aspect in aspects]


def calls(task, check):
    return [Call(module=task.module_of(check.function), function=check.function,
                 convention=task.convention,
                 items=tuple(task.game_spec if aspect == "repeat" else canonical(INPUTS[aspect])
                             for aspect in _aspect_order(check, task.game_spec is not None)),
                 args=(task.depth,) if task.depth else (), time_limit=task.limits.call_seconds,
                 prune_on_equality=task.prune_on_equality,
                 reference=task.reference_of(check.function))]


def _summary(outcome):
    if outcome.status != "ok":
        error = outcome.error or {}
        return {"error": f"{error.get('type')}: {error.get('message')}"}
    value, action, _ = read_search_result(outcome.returned)
    return {"value": value, "action": action, "count": len(outcome.log["visits"])}


def _agrees(check, outcome, answer) -> bool:
    if outcome.status != "ok":
        return False
    value, action, problem = read_answer(outcome.returned, answer)
    return (problem is None and (value is None or same_number(value, answer["value"]))
            and same_move(action, answer["action"])
            and compare_visits(check, answer["visits"], outcome.log, "siblings",
                               answer["siblings"]).passed)


def judge(check, observations, answers):
    observation = observations[0]
    if observation.status != "ok":
        return failed(check, f"call.{observation.status}", **(observation.error or {}))
    items, reference = observation.items, answers[0]
    # the call holds the repeated pair exactly when it has more items than the fixed trees
    aspects = _aspect_order(check, len(items) > len(_aspect_order(check, False)))
    runs = {}
    for aspect, outcome, answer in zip(aspects, items, reference):
        runs.setdefault(aspect, []).append((outcome, answer))
    if "repeat" in runs:
        (first, answer), (second, _) = runs["repeat"]
        failure = search_failure(check, observation, answer, index=aspects.index("repeat"))
        if failure:
            return failure
        if (first.returned != second.returned or second.status != "ok"
                or first.log["visits"] != second.log["visits"]):
            return failed(check, "hygiene.repeat", first=_summary(first), second=_summary(second))
    if "terminal-root" in runs:
        outcome, answer = runs["terminal-root"][0]
        if not _agrees(check, outcome, answer):
            return failed(check, "hygiene.terminal-root", observed=_summary(outcome),
                          expected=answer["value"])
    if "single-child" in runs:
        outcome, answer = runs["single-child"][0]
        if not _agrees(check, outcome, answer):
            return failed(check, "hygiene.single-child", observed=_summary(outcome),
                          expected={"value": answer["value"], "action": answer["action"],
                                    "count": visit_count(answer)})
    return passed(check, aspects=check.option("aspects", list(DEFAULT_ASPECTS)))

