"""``hygiene``: the search behaves like a function, not like a stateful object.

* ``repeat``: the same call twice in one process gives the same value, action and visits
  (catches module-level caches and other state leaking between calls);
* ``terminal-root``: a root that is already terminal gives its utility and no action;
* ``single-child``: single-child nodes (chains) are searched like any other node.

States handed out are immutable, so a search cannot change a state passed to it.
"""

from ..calls import Call, canonical
from . import failed, passed
from .common import SEARCH_FUNCTIONS, read_search_result, same_number
from .visited import compare_visits

KIND = "hygiene"
OPTIONS = ("aspects",)
ASPECTS = ("repeat", "terminal-root", "single-child")
TERMINAL_ROOT = {"kind": "tree", "root": "A", "nodes": {"A": {"value": 7}}}
CHAIN = {"kind": "tree", "root": "A", "nodes": {
    "A": {"children": ["A1"], "eval": 1},
    "A1": {"children": ["A1.1", "A1.2"], "eval": 2},
    "A1.1": {"children": ["A1.1.1"], "eval": -3},
    "A1.1.1": {"value": -5},
    "A1.2": {"value": 4}}}


def applies_to(function):
    return function in SEARCH_FUNCTIONS


def parse_options(item, context, line):
    aspects = item.get("aspects", list(ASPECTS))
    if not isinstance(aspects, list) or not aspects or any(a not in ASPECTS for a in aspects):
        context.problem(item.line_of("aspects"), f"aspects must be a list of {', '.join(ASPECTS)}")
        aspects = list(ASPECTS)
    if "repeat" in aspects and context.game == "none":
        context.problem(line, "the repeat aspect needs the task's game")
    return {"aspects": list(aspects)}


def calls(task, check):
    items = []
    if task.game_spec is not None:
        items += [task.game_spec, task.game_spec]
    items += [canonical(TERMINAL_ROOT), canonical(CHAIN)]
    return [Call(module=task.module_of(check.function), function=check.function,
                 convention=task.convention, items=tuple(items),
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
    value, action, _ = read_search_result(outcome.returned)
    return (value is not None and same_number(value, answer["value"])
            and action == answer["action"]
            and compare_visits(check, answer["visits"], outcome.log, "siblings",
                               answer["siblings"]).passed)


def judge(check, observations, answers):
    observation = observations[0]
    if observation.status != "ok":
        return failed(check, f"call.{observation.status}", **(observation.error or {}))
    items, reference = observation.items, answers[0]
    offset = 2 if len(items) == 4 else 0
    aspects = check.option("aspects", list(ASPECTS))
    if "repeat" in aspects and offset:
        first, second = items[0], items[1]
        if first.status == "ok" and (first.returned != second.returned or second.status != "ok"
                                     or first.log["visits"] != second.log["visits"]):
            return failed(check, "hygiene.repeat", first=_summary(first), second=_summary(second))
    if "terminal-root" in aspects and not _agrees(check, items[offset], reference[offset]):
        return failed(check, "hygiene.terminal-root", observed=_summary(items[offset]),
                      expected=reference[offset]["value"])
    if "single-child" in aspects and not _agrees(check, items[offset + 1], reference[offset + 1]):
        return failed(check, "hygiene.single-child", observed=_summary(items[offset + 1]),
                      expected={"value": reference[offset + 1]["value"],
                                "action": reference[offset + 1]["action"],
                                "count": len(reference[offset + 1]["visits"])})
    return passed(check, aspects=aspects)
