"""``visited``: the student's search visits the same nodes as the reference, under the same
action order (``order: set``, the default), or also in the same order (``order: sequence``).

A node the reference visits and the student does not was pruned by the student; a node the
student visits and the reference does not was searched although the reference cuts it.
"""

from . import failed, passed
from .common import SEARCH_FUNCTIONS, first_difference, run_failure, search_call

KIND = "visited"
OPTIONS = ("order",)


def applies_to(function):
    return function in SEARCH_FUNCTIONS


def parse_options(item, context, line):
    order = item.get("order", "set")
    if order not in ("set", "sequence"):
        context.problem(item.line_of("order"), "order must be 'set' or 'sequence'")
    if context.game == "none":
        context.problem(line, "a visited check needs the task's game")
    return {"order": order}


def calls(task, check):
    return [search_call(task, check.function)]


def compare_visits(check, expected: list, log: dict, order: str = "set"):
    """The verdict on one visit log; shared with the random-tree check."""
    observed = log["visits"]
    if log.get("foreign_states"):
        return failed(check, "visited.foreign", count=log["foreign_states"])
    expected_set, observed_set = set(expected), set(observed)
    difference = first_difference(expected, observed)
    facts = {"expected_count": len(expected), "observed_count": len(observed),
             "first_difference": difference}
    if expected_set != observed_set:
        return failed(check, "visited.differs",
                      extra=[n for n in observed if n not in expected_set],
                      missing=[n for n in expected if n not in observed_set], **facts)
    if order == "sequence" and difference is not None:
        return failed(check, "visited.order", **facts)
    return passed(check, **facts)


def judge(check, observations, answers):
    failure = run_failure(check, observations[0])
    if failure:
        return failure
    return compare_visits(check, answers[0][0]["visits"], observations[0].items[0].log,
                          check.option("order", "set"))
