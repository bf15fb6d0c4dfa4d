"""``visited``: the student's search visits the same nodes as the reference, under the same
action order.  ``order: siblings`` (the default) also asks that the children of every node
are first visited in action order (so iterative deepening passes and reversed children do
not); ``order: set`` compares the sets only; ``order: sequence`` the whole visit sequence.

A node the reference visits and the student does not was pruned by the student; a node the
student visits and the reference does not was searched although the reference cuts it.
"""

from ..answers.sealed import SealedVisits
from .verdict import failed, passed
from .common import (SEARCH_FUNCTIONS, VISITS_VARY, PerObject, first_difference, search_failure,
                     single_search_call)

KIND = "visited"
# What a self-check kit keeps, sealed, of this kind's answers (grader.answers.sealed.seal_answer).
SEALED_PARTS = ("visits:full", "visits:set", "visits:chain", "visits:members")
ORDERS = ("siblings", "set", "sequence")
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {
    "order": {"enum": list(ORDERS),
              "description": "how the visits are compared: siblings (the same nodes, every "
                             "node's children first visited in action order; the default), set "
                             "(the same nodes), sequence (the same visit sequence; the default "
                             "for searches that try a killer move first)"},
}
# Searches that try children against action order by design (killer moves first): their
# visits are compared as a sequence unless the task says otherwise, never by sibling order.
REORDERING = ("alphabeta_killer",)


def applies_to(function):
    return function in SEARCH_FUNCTIONS and function not in VISITS_VARY


def parse_options(item, context, line):
    functions = [item["function"]] if "function" in item else context.functions
    reorders = any(context.references.get(f, f) in REORDERING for f in functions)
    order = item.get("order", "sequence" if reorders else "siblings")
    if order not in ORDERS:
        context.problem(item.line_of("order"), f"order must be one of {', '.join(ORDERS)}")
    elif order == "siblings" and reorders:
        context.problem(item.line_of("order"), "order: siblings cannot judge a search that "
                        "tries a killer move first; use order: sequence (the default here)")
    if context.game == "none":
        context.problem(line, "a visited check needs the task's game")
    return {"order": order}


calls = single_search_call


def sibling_disorder(observed: list, siblings: dict):
    """The first pair of siblings visited against action order, or None."""
    last_seen: dict = {}
    for name in observed:
        parent, position = siblings.get(name, (None, None))
        if parent is None:
            continue
        previous = last_seen.get(parent)
        if previous is not None and previous[1] > position:
            return {"parent": parent, "earlier": previous[0], "later": name}
        if previous is None or previous[1] < position:
            last_seen[parent] = (name, position)
    return None


# Every correct submission visits exactly the reference's sequence: the sibling order of
# that sequence is worked out once per reference answer.
reference_disorder = PerObject(sibling_disorder)


def compare_visits(check, expected: list, log: dict, order: str = "siblings",
                   siblings: dict | None = None):
    """The verdict on one visit log; shared with the random-tree check."""
    observed = log["visits"]
    if log.get("foreign_states"):
        return failed(check, "visited.foreign", count=log["foreign_states"])
    if isinstance(expected, SealedVisits):
        return compare_sealed_visits(check, expected, observed, order, siblings)
    if observed == expected:
        # The common case, a correct search, decided without walking the sequence: no first
        # difference, the same sets, and the sibling order is the reference's own.
        facts = {"expected_count": len(expected), "observed_count": len(observed),
                 "first_difference": None}
        if order == "siblings" and siblings:
            disorder = reference_disorder(expected, siblings)
            if disorder:
                return failed(check, "visited.siblings", **disorder, **facts)
        return passed(check, **facts)
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
    if order == "siblings" and siblings:
        disorder = sibling_disorder(observed, siblings)
        if disorder:
            return failed(check, "visited.siblings", **disorder, **facts)
    return passed(check, **facts)


def compare_sealed_visits(check, expected: SealedVisits, observed: list, order: str,
                          siblings: dict | None):
    """``compare_visits`` against a self-check kit's sealed sequence: the same verdicts, with
    facts of the student's side only.  ``first_difference``: where the student's visits first
    leave the reference's (``index`` from 1, the student's node there, ``ended``: the
    reference visits no more); ``extra``: the student's nodes the reference does not visit;
    ``missing``: whether the student leaves out some the reference visits (not which, nor
    how many); ``reference``: the sealed sequence (the report then uses the kit's words)."""
    facts = {"observed_count": len(observed), "reference": expected}
    if expected == observed:
        # the reference's own sequence: its sibling order is the reference's
        disorder = sibling_disorder(observed, siblings) if order == "siblings" and siblings \
            else None
        if disorder:
            return failed(check, "visited.siblings", **disorder, **facts)
        return passed(check, observed_count=len(observed), first_difference=None)
    if expected.chain is not None:
        facts["first_difference"] = expected.first_difference(observed)
    if not expected.same_set(observed):
        if expected.members is None:
            return failed(check, "visited.differs", extra=[], missing=False, **facts)
        common = [node for node in observed if expected.contains(node)]
        extra = [node for node in observed if not expected.contains(node)]
        return failed(check, "visited.differs", extra=extra,
                      missing=not expected.same_set(common), **facts)
    if order == "sequence":
        return failed(check, "visited.order", **facts)
    if order == "siblings" and siblings:
        disorder = sibling_disorder(observed, siblings)
        if disorder:
            return failed(check, "visited.siblings", **disorder, **facts)
    return passed(check, observed_count=len(observed),
                  first_difference=facts.get("first_difference"))


def judge(check, observations, answers):
    answer = answers[0][0]
    failure = search_failure(check, observations[0], answer)
    if failure:
        return failure
    return compare_visits(check, answer["visits"], observations[0].items[0].log,
                          check.option("order", "siblings"), answer["siblings"])
