"""``count``: the number of nodes the search visits, against the reference's count.

``bound: equal`` (default), ``at_most`` or ``at_least``; ``slack: n`` widens the bound by n
nodes.  Like every check on a search call, it passes only on a reply of the right shape
from a search that visited something below a non-terminal root (so ``at_most`` is never
earned by doing nothing).
"""

from .verdict import failed, passed
from .common import (SEARCH_FUNCTIONS, VISITS_VARY, number_of, search_failure,
                     single_search_call, visit_count)

KIND = "count"
# What a self-check kit keeps, sealed, of this kind's answers (grader.answers.sealed.seal_answer).
SEALED_PARTS = ("visits:count",)
BOUNDS = ("equal", "at_most", "at_least")
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {
    "bound": {"enum": list(BOUNDS), "default": "equal",
              "description": "how the student's count compares with the reference's: equal, "
                             "at_most (no more nodes) or at_least"},
    "slack": {"type": "integer", "minimum": 0, "default": 0,
              "description": "nodes the count may be off by and still pass"},
}


def applies_to(function):
    return function in SEARCH_FUNCTIONS and function not in VISITS_VARY


def parse_options(item, context, line):
    bound = item.get("bound", "equal")
    if bound not in BOUNDS:
        context.problem(item.line_of("bound"), f"bound must be one of {', '.join(BOUNDS)}")
    slack = item.get("slack", 0)
    if isinstance(slack, bool) or not isinstance(slack, int) or slack < 0:
        context.problem(item.line_of("slack"), "slack must be a whole number of nodes >= 0")
        slack = 0
    if context.game == "none":
        context.problem(line, "a count check needs the task's game")
    return {"bound": bound, "slack": slack}


calls = single_search_call


def judge(check, observations, answers):
    failure = search_failure(check, observations[0], answers[0][0])
    if failure:
        return failure
    log = observations[0].items[0].log
    if log.get("foreign_states"):
        return failed(check, "visited.foreign", count=log["foreign_states"])
    observed = len(log["visits"])
    reference = visit_count(answers[0][0])   # sealed in a self-check kit: not in the words
    bound, slack = check.option("bound", "equal"), check.option("slack", 0)
    facts = {"observed": observed, "reference": reference, "slack": slack, "bound": bound}
    if bound in ("equal", "at_most") and observed > number_of(reference) + slack:
        return failed(check, "count.too-many", **facts)
    if bound in ("equal", "at_least") and observed < number_of(reference) - slack:
        return failed(check, "count.too-few", **facts)
    return passed(check, **facts)
