"""``random-trees``: a few hundred seeded random trees, each searched by the student and the
reference; value, action (any optimal) and visited nodes must all agree on every tree.

Options: ``seed``, ``trees`` (how many), ``branching``/``depth``/``values`` (``[low, high]``),
``ties`` (share of small values, 0-1), ``leaf_share`` (share of terminal nodes above the bottom),
``chains`` (share of single-child inner nodes), ``floats``, ``search_depth`` (pass a depth limit
to the search), ``time_limit`` (seconds for all trees together), ``partial`` (points in
proportion to the trees passed instead of all or nothing).  The same seed gives the
same trees everywhere, so a failure can be reproduced; the feedback shows the smallest tree
that fails.
"""

from dataclasses import replace

from ..calls import Call, canonical
from ..randomtrees import Shape, generate, size, to_yaml
from . import failed, passed
from .common import SEARCH_FUNCTIONS, read_search_result, same_number
from .horizon import discipline
from .visited import compare_visits

KIND = "random-trees"
OPTIONS = ("seed", "trees", "branching", "depth", "values", "ties", "leaf_share", "chains",
           "floats", "search_depth", "time_limit", "partial")


def applies_to(function):
    return function in SEARCH_FUNCTIONS


def _range(item, key, default, context, low, high):
    value = item.get(key, list(default))
    from ..tasks import parse_number
    if (not isinstance(value, list) or len(value) != 2
            or any(parse_number(v) is None for v in value)):
        context.problem(item.line_of(key), f"{key} must be [low, high], e.g. {list(default)}")
        return default
    first, second = (parse_number(v) for v in value)
    if first > second or first < low or second > high:
        context.problem(item.line_of(key), f"{key} must satisfy {low} <= low <= high <= {high}")
        return default
    return (first, second)


def parse_options(item, context, line):
    seed = item.get("seed", 1)
    if isinstance(seed, bool) or not isinstance(seed, int):
        context.problem(item.line_of("seed"), "seed must be a whole number")
        seed = 1
    trees = item.get("trees", 200)
    if isinstance(trees, bool) or not isinstance(trees, int) or not 1 <= trees <= 5000:
        context.problem(item.line_of("trees"), "trees must be a whole number from 1 to 5000")
        trees = 200
    shape = Shape()
    branching = _range(item, "branching", shape.branching, context, 1, 8)
    depth = _range(item, "depth", shape.depth, context, 1, 8)
    values = _range(item, "values", shape.values, context, -10**15, 10**15)
    ties, leaf_share = item.get("ties", shape.ties), item.get("leaf_share", shape.leaf_share)
    chains = item.get("chains", shape.chains)
    for key, share in (("ties", ties), ("leaf_share", leaf_share), ("chains", chains)):
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
            context.problem(item.line_of(key), f"{key} must be a number from 0 to 1")
    floats, partial = item.get("floats", False), item.get("partial", False)
    for key, flag in (("floats", floats), ("partial", partial)):
        if not isinstance(flag, bool):
            context.problem(item.line_of(key), f"{key} must be true or false")
    search_depth = item.get("search_depth")
    if search_depth is not None and (isinstance(search_depth, bool)
                                     or not isinstance(search_depth, int) or search_depth < 1):
        context.problem(item.line_of("search_depth"), "search_depth must be a whole number >= 1")
        search_depth = None
    time_limit = item.get("time_limit", 20)
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or time_limit <= 0:
        context.problem(item.line_of("time_limit"), "time_limit must be a positive number of "
                        "seconds")
        time_limit = 20
    return {"seed": seed, "trees": trees, "branching": list(branching), "depth": list(depth),
            "values": list(values), "ties": ties, "leaf_share": leaf_share, "chains": chains,
            "floats": floats, "search_depth": search_depth, "time_limit": time_limit,
            "partial": partial}


def trees_of(check) -> list[dict]:
    shape = Shape(branching=tuple(check.option("branching")), depth=tuple(check.option("depth")),
                  values=tuple(check.option("values")), ties=check.option("ties"),
                  leaf_share=check.option("leaf_share"), chains=check.option("chains", 0.0),
                  floats=check.option("floats"))
    return generate(check.option("seed"), check.option("trees"), shape)


def calls(task, check):
    depth = check.option("search_depth")
    return [Call(module=task.module_of(check.function), function=check.function,
                 convention=task.convention, items=tuple(canonical(t) for t in trees_of(check)),
                 args=(depth,) if depth else (), time_limit=float(check.option("time_limit")),
                 prune_on_equality=task.prune_on_equality,
                 reference=task.reference_of(check.function))]


def compare_tree(check, outcome, answer):
    """None if the student's run on one tree agrees with the reference, else what differs."""
    if outcome.status != "ok":
        return {"aspect": "error", "error": outcome.error}
    value, action, _ = read_search_result(outcome.returned)
    observed = {"value": value, "action": action, "visits": outcome.log["visits"]}
    if value is None or not same_number(value, answer["value"]):
        return {"aspect": "value", "observed": observed}
    if answer.get("returns_action", True) and action not in answer["optimal_actions"]:
        return {"aspect": "action", "observed": observed}
    if not compare_visits(check, answer["visits"], outcome.log, "siblings",
                          answer["siblings"]).passed:
        return {"aspect": "visits", "observed": observed}
    if check.option("search_depth") and discipline(outcome.log, answer):
        return {"aspect": "horizon", "observed": observed,
                "horizon": discipline(outcome.log, answer)}
    return None


def example(check, spec, difference, answer) -> dict:
    """The facts shown for one failing tree: the tree and both sides' value, action, visits."""
    facts = {"tree": to_yaml(spec, with_eval=bool(check.option("search_depth"))),
             "spec": spec, "values": answer.get("values", {}),
             "nodes": size(spec), "aspect": difference["aspect"],
             "expected": {"value": answer["value"], "action": answer["action"],
                          "optimal": answer["optimal_actions"], "visits": answer["visits"]},
             "observed": difference.get("observed"), "error": difference.get("error")}
    if difference.get("observed") is not None:
        facts["visits"] = compare_visits(check, answer["visits"],
                                         {"visits": difference["observed"]["visits"]}).facts
    return facts


def judge(check, observations, answers):
    observation = observations[0]
    if observation.status != "ok":
        return failed(check, f"call.{observation.status}", **(observation.error or {}))
    specs = trees_of(check)
    failures = []
    for index, (outcome, answer) in enumerate(zip(observation.items, answers[0])):
        difference = compare_tree(check, outcome, answer)
        if difference is not None:
            failures.append((size(specs[index]), index, difference, answer))
    total = len(answers[0])
    if not failures:
        return passed(check, total=total, seed=check.option("seed"))
    nodes, index, difference, answer = min(failures, key=lambda f: (f[0], f[1]))
    verdict = failed(check, f"random.{difference['aspect']}", total=total,
                     failures=len(failures), seed=check.option("seed"), tree_number=index + 1,
                     example=example(check, specs[index], difference, answer), shrunk=False)
    if check.option("partial"):
        verdict = replace(verdict, score=round(check.points * (total - len(failures)) / total, 2))
    return verdict
