"""``random-trees``: a few hundred seeded random trees, each searched by the student and the
reference; value, action (any optimal) and visited nodes must all agree on every tree.

Options: ``seed``, ``trees`` (how many), ``branching``/``depth``/``values`` (``[low, high]``),
``ties`` (share of small values, 0-1), ``leaf_share`` (share of terminal nodes above the bottom),
``chains`` (share of single-child inner nodes), ``floats``, ``search_depth`` (pass a depth limit
to the search: a number, or ``[low, high]`` to draw one per tree, so that odd and even
horizons meet the same search), ``time_limit`` (seconds for all trees together), ``partial``
(points in proportion to the trees passed instead of all or nothing).  The same seed gives
the same trees and horizons everywhere, so a failure can be reproduced; the feedback shows
the smallest tree that fails, with its horizon.

Trees fit the task's calling convention: for ``multi-agent`` each tree has the task's number
of MIN agents (its ``players``; without them, or with ``agents: [1, 3]``, a number drawn per
tree: ``validate`` warns where that differs from the task's players), its depth counts rounds of all agents, its leaves are win or
lose states at any depth, and the search depth (rounds, as the agents' ``depth``) is
``search_depth`` or, without it, enough rounds to reach every leaf; alpha-beta agents are
judged, as the Pacman project's autograder does, by their action and the set of states they
generate.  The ``helpers`` and ``negamax-sign`` functions take no depth, so they get trees
searched to the end.  Trees with different horizons are run as separate calls, one per
horizon.
"""

from dataclasses import replace

from ..calls import Call
from ..games.moves import is_move_of, type_mismatch
from ..random_tree_generator import (Shape, generate, generated_texts, horizons, rounds_to_leaves,
                                     size, to_pacman, to_yaml)
from ..yamlsrc import parse_number
from .verdict import failed, passed
from .common import (GAME_ONLY_SEARCHES, SEARCH_FUNCTIONS, VECTOR_SEARCHES, VISITS_VARY,
                     PerObject, read_search_result)
from ..answers.numbers import same_number
from .horizon import discipline
from .visited import compare_visits, reference_disorder

KIND = "random-trees"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
# A two-player tree's shape defaults to Shape()'s; the multi-agent convention draws smaller trees.
_RANGE = {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": ["number", "string"]},
          "x-words": "a range [low, high]"}
_SHARE = {"type": "number", "minimum": 0, "maximum": 1}
_TWO_PLAYER = Shape()
OPTIONS = {
    "seed": {"type": "integer", "default": 1,
             "description": "the seed: the same seed gives the same trees and horizons"},
    "trees": {"type": "integer", "minimum": 1, "maximum": 5000, "default": 200,
              "description": "how many trees"},
    "branching": {**_RANGE, "default": list(_TWO_PLAYER.branching),
                  "description": "children per inner node, [low, high] (from 1 to 8)"},
    "depth": {**_RANGE, "default": list(_TWO_PLAYER.depth),
              "description": "the trees' depth, [low, high] (from 1 to 8; multi-agent: "
                             "rounds of all agents)"},
    "values": {**_RANGE, "default": list(_TWO_PLAYER.values),
               "description": "leaf and heuristic values, [low, high]"},
    "ties": {**_SHARE, "default": _TWO_PLAYER.ties,
             "description": "share of values drawn from a small range, so that values tie"},
    "leaf_share": {**_SHARE, "default": _TWO_PLAYER.leaf_share,
                   "description": "chance that a node above the bottom is a leaf"},
    "chains": {**_SHARE, "default": _TWO_PLAYER.chains,
               "description": "chance that an inner node below the root has a single child"},
    "floats": {"type": "boolean", "default": _TWO_PLAYER.floats,
               "description": "leaf values with fractions"},
    "search_depth": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 12},
                               {"type": "array", "minItems": 2, "maxItems": 2,
                                "items": {"type": "integer", "minimum": 1, "maximum": 12}}],
                     "description": "a depth limit passed to the search: a number, or [low, "
                                    "high] to draw one per tree (default: to the end)"},
    "time_limit": {"type": "number", "exclusiveMinimum": 0, "default": 20,
                   "description": "CPU seconds for all trees together"},
    "partial": {"type": "boolean", "default": False,
                "description": "points in proportion to the trees passed, instead of all or "
                               "nothing"},
    "agents": {**_RANGE,
               "description": "multi-agent convention: the range of MIN agents drawn per tree "
                              "(default: the task's players)"},
}
# What a self-check kit keeps, sealed, of this kind's answers (grader.answers.sealed.seal_answer).
SEALED_PARTS = ("optimal_actions", "visits:full", "visits:set", "visits:chain")
# Their functions take no depth argument: helpers' alphabeta(state, player, alpha, beta) would
# read a depth as alpha.
NO_DEPTH = ("helpers", "negamax-sign")
MULTI_AGENT = "multi-agent"


def applies_to(function):
    # two-player trees of its own: not for max^n, whose trees have utility vectors
    return (function in SEARCH_FUNCTIONS and function not in VECTOR_SEARCHES
            and function not in GAME_ONLY_SEARCHES and function not in VISITS_VARY)


def _range(item, key, default, context, low, high):
    value = item.get(key, list(default))
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
    multi_agent = context.convention == MULTI_AGENT
    # the task's own number of agents after MAX (its players: [MAX, MIN, MIN] has two)
    players = tuple(context.players or ())
    opponents = len(players) - 1 if players else None
    if multi_agent:  # depth counts rounds of up to four agents: smaller defaults
        shape = Shape(branching=(1, 3), depth=(1, 2),
                      agents=(opponents, opponents) if opponents else (1, 3))
    elif "agents" in item:
        context.problem(item.line_of("agents"), "agents is the range of MIN agents of "
                        "multi-agent trees; this task's convention is "
                        f"{context.convention}")
    elif players and players != ("MAX", "MIN"):
        context.warn(line, f"random trees are two-player trees (MAX, MIN, alternating), but "
                     f"this task's players are {', '.join(players)}: the trees do not judge "
                     "that cycle of players")
    branching = _range(item, "branching", shape.branching, context, 1, 8)
    depth = _range(item, "depth", shape.depth, context, 1, 8)
    agents = _range(item, "agents", shape.agents, context, 1, 5) if multi_agent else None
    if multi_agent and opponents and "agents" in item and agents != (opponents, opponents):
        context.warn(item.line_of("agents"), f"agents {list(agents)} draws trees with "
                     f"{agents[0] + 1} to {agents[1] + 1} agents, but this task's players "
                     f"({', '.join(players)}) are {opponents + 1}; leave agents out to draw "
                     f"only {opponents + 1}-agent trees")
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
    search_depth = _search_depth(item, context)
    time_limit = item.get("time_limit", 20)
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or time_limit <= 0:
        context.problem(item.line_of("time_limit"), "time_limit must be a positive number of "
                        "seconds")
        time_limit = 20
    return {"seed": seed, "trees": trees, "branching": list(branching), "depth": list(depth),
            "values": list(values), "ties": ties, "leaf_share": leaf_share, "chains": chains,
            "floats": floats, "search_depth": search_depth, "time_limit": time_limit,
            "partial": partial, "convention": context.convention,
            **({"agents": list(agents)} if multi_agent else {})}


def _search_depth(item, context):
    """``search_depth``: None, a whole number >= 1, or a range ``[low, high]`` of them."""
    if "search_depth" not in item:
        return None
    value, line = item["search_depth"], item.line_of("search_depth")
    if context.convention in NO_DEPTH:
        context.problem(line, f"search_depth cannot be used with the {context.convention} "
                        "convention: its functions take no depth; leave search_depth out")
        return None

    def whole(number):
        return not isinstance(number, bool) and isinstance(number, int) and 1 <= number <= 12

    if isinstance(value, list):
        if len(value) != 2 or not all(whole(v) for v in value) or value[0] > value[1]:
            context.problem(line, "search_depth must be a whole number from 1 to 12 or a range "
                            "[low, high] of them with low <= high, e.g. search_depth: [1, 4] "
                            "(horizons of both parities)")
            return None
        return list(value) if value[0] < value[1] else value[0]
    if not whole(value):
        context.problem(line, "search_depth must be a whole number from 1 to 12 or a range "
                        "[low, high], e.g. search_depth: 2 or search_depth: [1, 4]")
        return None
    return value


def shape_of(check) -> Shape:
    agents = check.option("agents")
    return Shape(branching=tuple(check.option("branching")), depth=tuple(check.option("depth")),
                 values=tuple(check.option("values")), ties=check.option("ties"),
                 leaf_share=check.option("leaf_share"), chains=check.option("chains", 0.0),
                 floats=check.option("floats"), agents=tuple(agents) if agents else None)


def trees_of(check) -> list[dict]:
    return generate(check.option("seed"), check.option("trees"), shape_of(check))


def horizons_of(check, specs=None) -> list:
    """The depth passed to the search on each tree (None: to the end of the game).  Agents
    of the multi-agent convention always get a depth: without ``search_depth``, enough
    rounds to reach every leaf."""
    specs = specs if specs is not None else trees_of(check)
    drawn = horizons(check.option("seed"), len(specs), check.option("search_depth"))
    if check.option("convention") == MULTI_AGENT:
        return [h if h is not None else rounds_to_leaves(s) for h, s in zip(drawn, specs)]
    return drawn


def groups_of(check) -> list[tuple]:
    """``(horizon, [tree indices])`` per distinct horizon, in a fixed order: one call each."""
    specs = trees_of(check)
    by_horizon: dict = {}
    for index, horizon in enumerate(horizons_of(check, specs)):
        by_horizon.setdefault(horizon, []).append(index)
    return sorted(by_horizon.items(), key=lambda group: (group[0] is not None, group[0] or 0))


def calls(task, check):
    specs = trees_of(check)
    # the trees' texts are made once per process (and kept with the trees): the calls of
    # a check's functions (minimax, alpha-beta and negamax on the same trees) share them
    texts = generated_texts(check.option("seed"), check.option("trees"), shape_of(check))
    total_time = float(check.option("time_limit"))
    result = []
    for horizon, indices in groups_of(check):
        # The time limit is for all trees together; each call gets its share of it.
        result.append(Call(module=task.module_of(check.function), function=check.function,
                           convention=task.convention,
                           items=tuple(texts[i] for i in indices),
                           args=(horizon,) if horizon is not None else (),
                           time_limit=max(total_time * len(indices) / len(specs), 1.0),
                           prune_on_equality=task.prune_on_equality,
                           reference=task.reference_of(check.function)))
    return result


def call_for_horizon(check, calls_of_check, horizon):
    """The call of ``calls_of_check`` that searches with ``horizon``."""
    for call in calls_of_check:
        if (call.args[0] if call.args else None) == horizon:
            return call
    return calls_of_check[0]


def _tree_rules(check) -> tuple:
    """How a check compares each tree's visits: ``(order, depth discipline judged)``."""
    multi_agent = check.option("convention") == MULTI_AGENT
    # Pacman's autograder compares the set of generated states, not their order; and the
    # agents' evaluation function reads every state's score, terminal or not: depth
    # discipline is the game object's rule, not the multi-agent project's.
    return ("set" if multi_agent else "siblings",
            bool(check.option("search_depth")) and not multi_agent)


tree_rules = PerObject(_tree_rules)   # asked for each of a check's trees, in every submission


def compare_tree(check, outcome, answer):
    """None if the student's run on one tree agrees with the reference, else what differs."""
    if outcome.status != "ok":
        return {"aspect": "error", "error": outcome.error}
    value, action, _ = read_search_result(outcome.returned)
    log = outcome.log
    if answer.get("returns_value", True) and (value is None
                                               or not same_number(value, answer["value"])):
        return {"aspect": "value", "observed": _observed(value, action, log)}
    if answer.get("returns_action", True) and not is_move_of(action, answer["optimal_actions"]):
        mismatch = type_mismatch(action, [a for a, _ in answer["action_values"]])
        return {"aspect": "action", "observed": _observed(value, action, log),
                **({"move_type": mismatch} if mismatch else {})}
    order, depth_discipline = tree_rules(check)
    if not _same_visits(check, answer, log, order):
        return {"aspect": "visits", "observed": _observed(value, action, log)}
    if depth_discipline:
        broken = discipline(log, answer)
        if broken:
            return {"aspect": "horizon", "observed": _observed(value, action, log),
                    "horizon": broken}
    return None


def _observed(value, action, log) -> dict:
    return {"value": value, "action": action, "visits": log["visits"]}


def _same_visits(check, answer, log, order) -> bool:
    """Whether ``compare_visits`` passes the log: decided here, without making its verdict,
    for the common case of a correct search (the reference's very sequence, no foreign
    state), as ``compare_visits`` decides it; every other case is asked of it."""
    expected, siblings = answer["visits"], answer["siblings"]
    if type(expected) is list and not log.get("foreign_states") and log["visits"] == expected:
        return not (order == "siblings" and siblings and reference_disorder(expected, siblings))
    return compare_visits(check, expected, log, order, siblings).passed


def example(check, spec, difference, answer, horizon=None) -> dict:
    """The facts shown for one failing tree: the tree, its horizon (the depth the search was
    given, if any) and both sides' value, action, visits."""
    multi_agent = check.option("convention") == MULTI_AGENT
    tree = (to_pacman(spec, horizon) if multi_agent
            else to_yaml(spec, with_eval=bool(check.option("search_depth"))))
    facts = {"tree": tree, "horizon": horizon, "pacman": multi_agent,
             "returns_value": answer.get("returns_value", True),
             "returns_action": answer.get("returns_action", True),
             "spec": spec, "values": answer.get("values", {}),
             "nodes": size(spec), "aspect": difference["aspect"],
             "expected": {"value": answer["value"], "action": answer["action"],
                          "optimal": answer["optimal_actions"], "visits": answer["visits"]},
             "observed": difference.get("observed"), "error": difference.get("error")}
    if difference.get("move_type"):     # the action's type is not the tree's actions'
        facts["move_type"] = difference["move_type"]
    if difference.get("observed") is not None:
        facts["visits"] = compare_visits(check, answer["visits"],
                                         {"visits": difference["observed"]["visits"]}).facts
    return facts


def judge(check, observations, answers):
    for observation in observations:
        if observation.status != "ok":
            return failed(check, f"call.{observation.status}", **(observation.error or {}))
    specs = trees_of(check)
    groups = groups_of(check)
    failures = []
    for (horizon, indices), observation, group_answers in zip(groups, observations, answers):
        for index, outcome, answer in zip(indices, observation.items, group_answers):
            difference = compare_tree(check, outcome, answer)
            if difference is not None:
                failures.append((size(specs[index]), index, difference, answer, horizon))
    total = len(specs)
    if not failures:
        return passed(check, total=total, seed=check.option("seed"))
    nodes, index, difference, answer, horizon = min(failures, key=lambda f: (f[0], f[1]))
    verdict = failed(check, f"random.{difference['aspect']}", total=total,
                     failures=len(failures), seed=check.option("seed"), tree_number=index + 1,
                     horizon=horizon,
                     example=example(check, specs[index], difference, answer, horizon),
                     shrunk=False)
    if check.option("partial"):
        verdict = replace(verdict, score=round(check.points * (total - len(failures)) / total, 2))
    return verdict
