"""``quiescence``: the horizon of a quiescence search is extended exactly at noisy positions.

Judged against the reference's tree under the task's rule (``reference/quiescence.py``; the
answer's ``horizon`` holds the nodes the rule evaluates, ``noisy`` the noisy nodes at or
beyond the horizon it searches on, ``extension`` the nodes beyond the horizon):

* no visited node lies outside that tree (below a quiet position at the horizon, or beyond
  the extension's limit);
* ``evaluate`` is called on no noisy position the extension still searches on, on no
  terminal position and on no node above the horizon, and on every visited quiet position at
  or beyond the horizon (and position at the limit);
* the number of nodes visited beyond the horizon equals the reference's: the extension
  nodes, counted from the student's own visits, so a search that does nothing, or returns a
  hard-coded answer, earns nothing.
"""

from .verdict import failed, passed
from .common import PerObject, number_of, search_failure, single_search_call

KIND = "quiescence"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {}
# What a self-check kit keeps, sealed, of this kind's answers (grader.answers.sealed.seal_answer).
SEALED_PARTS = ("extension_visits",)


def applies_to(function):
    return function == "quiescence"


def parse_options(item, context, line):
    if not context.depth:
        context.problem(line, "a quiescence check needs a depth-limited task (depth: d) "
                        "whose noisy: rule extends the horizon")
    return {}


calls = single_search_call


def _reference_sets(answer: dict) -> dict:
    return {"within": set(answer["siblings"]) | {answer["root"]},
            "evaluated": set(answer["horizon"]), "noisy": set(answer["noisy"]),
            "terminals": set(answer["terminals"]), "extension": set(answer["extension"])}


reference_sets = PerObject(_reference_sets)   # asked again for every submission


def extension_problem(log: dict, answer: dict) -> dict | None:
    """What breaks the quiescence rule in one visit log (reason and facts), or None."""
    sets = reference_sets(answer)
    outside = [node for node in log["visits"] if node not in sets["within"]]
    if outside:
        return {"reason": "quiescence.outside", "nodes": outside}
    evaluated = list(dict.fromkeys(log.get("evaluate_calls") or ()))
    for reason, nodes in (
            ("quiescence.terminal", [n for n in evaluated if n in sets["terminals"]]),
            ("quiescence.noisy-evaluated", [n for n in evaluated if n in sets["noisy"]]),
            ("quiescence.early", [n for n in evaluated if n not in sets["evaluated"]
                                  and n not in sets["noisy"] and n not in sets["terminals"]])):
        if nodes:
            return {"reason": reason, "nodes": nodes}
    done = set(evaluated)
    missing = [n for n in log["visits"] if n in sets["evaluated"] and n not in done]
    if missing:
        return {"reason": "quiescence.not-evaluated", "nodes": missing}
    return None


def judge(check, observations, answers):
    answer = answers[0][0]
    failure = search_failure(check, observations[0], answer)
    if failure:
        return failure
    log = observations[0].items[0].log
    if log.get("foreign_states"):
        return failed(check, "visited.foreign", count=log["foreign_states"])
    problem = extension_problem(log, answer)
    if problem:
        return failed(check, problem.pop("reason"), **problem)
    sets = reference_sets(answer)
    observed = sum(1 for node in log["visits"] if node in sets["extension"])
    # how many the reference visits there (sealed in a self-check kit)
    reference = answer["extension_visits"]
    if observed != number_of(reference):
        return failed(check, "quiescence.extension-count", observed=observed,
                      reference=reference)
    return passed(check, extension=observed,
                  evaluated=len(set(log.get("evaluate_calls") or ())))
