"""``ordering``: a student's move ordering ``order(game, state, actions)``, judged by what it
does to alpha-beta.

The student's function runs (``ordering`` convention) on every interior node of the task's
tree within its depth: the non-terminal nodes less than ``depth`` plies below the task's
position, the root first, in depth-first action order (at most ``MAX_POSITIONS``; a task with
more is refused when the task file is read: lower its depth).  The check passes when

1. every reply is a permutation of the position's actions (else the first position where it
   is not is named, with the actions missing, repeated or foreign),
2. the reference alpha-beta, trying the children of each node in the student's order, finds
   the same root value as with the game's own order (fail-soft alpha-beta does with any
   permutation; a difference would be a fault of the grader, and is reported as one), and
3. it visits fewer nodes than with the game's own order, or at most ``at_most`` nodes where
   the task sets that bound (e.g. a little above the model ordering's count, which the
   feedback reports too, so that reversing the actions or sorting them blindly does not
   pass).

The alpha-beta of step 2 is the model solution's (``reference.techniques``, through
``grader.answers.search.search_with_orders``), run on the student's replies: this check's
judge needs the reference, so a self-check kit leaves it out and counts it with the checks run
only at hand-in (``JUDGED_WITH_REFERENCE``).
"""

import json
from collections import Counter
from functools import lru_cache

from ..calls import Call, canonical
from ..games import make_rules
from .verdict import failed, passed
from .common import describe, run_failure, wrong_move_facts
from ..answers.numbers import same_number

KIND = "ordering"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {
    "at_most": {"type": "integer", "minimum": 1,
                "description": "the most nodes the reference alpha-beta may visit with the "
                               "student's ordering"},
}
# The model solutions this check can judge (reference.techniques.MOVE_ORDERINGS).
ORDERINGS = ("order",)
GAMES = ("kalah", "connect4", "tictactoe")
MAX_POSITIONS = 3000
# The judge runs the reference's alpha-beta on the student's replies (see the docstring).
JUDGED_WITH_REFERENCE = True


def applies_to(function):
    return function in ORDERINGS


@lru_cache(maxsize=64)
def positions(game_spec: str, depth) -> tuple:
    """The action paths of the interior nodes of ``game_spec``'s tree within ``depth`` plies
    (all of it for None), root first, depth-first in action order; stops past
    ``MAX_POSITIONS`` (one more, so that a caller sees the cap was exceeded)."""
    rules = make_rules(json.loads(game_spec))
    found = []

    def walk(state, path):
        if len(found) > MAX_POSITIONS or rules.is_terminal(state) \
                or (depth is not None and len(path) >= depth):
            return
        found.append(path)
        for action in rules.actions(state):
            walk(rules.result(state, action), (*path, action))

    walk(rules.initial_state(), ())
    return tuple(found)


def parse_options(item, context, line):
    at_most = item.get("at_most")
    if at_most is not None and (isinstance(at_most, bool) or not isinstance(at_most, int)
                                or at_most < 1):
        context.problem(item.line_of("at_most"), "at_most must be a whole number of nodes "
                        ">= 1 (the most alpha-beta may visit with the student's ordering)")
        at_most = None
    if context.game not in GAMES:
        context.problem(line, f"an ordering check needs a game whose positions have a "
                        f"heuristic: {', '.join(GAMES)}")
    elif context.game == "tictactoe" and context.depth is None:
        context.problem(line, "an ordering check on tictactoe needs a depth and a heuristic "
                        "(the model ordering evaluates the positions after each move)")
    elif context.game_spec is not None \
            and len(positions(context.game_spec, context.depth)) > MAX_POSITIONS:
        context.problem(line, f"the tree has more than {MAX_POSITIONS} interior nodes within "
                        "the task's depth, each one a call of the student's order(); lower "
                        "the depth")
    if context.convention != "game":
        context.problem(line, "an ordering check calls order(game, state, actions) with the "
                        "game object: leave the task's convention at game")
    return {"at_most": at_most}


def calls(task, check):
    items = tuple(canonical({"game": json.loads(task.game_spec), "moves": list(path)})
                  for path in positions(task.game_spec, task.depth))
    return [Call(module=task.module_of(check.function), function=check.function,
                 convention="ordering", items=items,
                 args=(task.depth,) if task.depth else (),
                 time_limit=task.limits.call_seconds,
                 prune_on_equality=task.prune_on_equality,
                 reference=task.reference_of(check.function))]


def permutation_problem(returned, actions: list):
    """What keeps ``returned`` from being a permutation of ``actions``, as facts, or None."""
    if not isinstance(returned, list):
        return {"problem": "not-list", "observed": describe(returned)}
    try:
        counts = Counter(json.dumps(a, sort_keys=True) for a in returned)
    except TypeError:
        return {"problem": "not-list", "observed": describe(returned)}
    wanted = Counter(json.dumps(a, sort_keys=True) for a in actions)
    if counts == wanted:
        return None
    # Compared as JSON text, moves keep their type: 3.0, true and "3" are not the action 3
    # (grader.games.moves); the message says so when a foreign move's type is the reason.
    foreign = [json.loads(k) for k in counts if k not in wanted]
    return {"problem": "not-permutation", "observed": describe(returned),
            "missing": [a for a in actions if json.dumps(a, sort_keys=True) not in counts],
            "repeated": [json.loads(k) for k, n in counts.items() if n > 1 and k in wanted],
            "foreign": foreign,
            **(wrong_move_facts(foreign[0], actions) if foreign else {})}


def judge(check, observations, answers):
    observation, answer = observations[0], answers[0]
    failure = run_failure(check, observation)
    if failure:
        return failure
    orders, bad = {}, []
    for index, (item, position) in enumerate(zip(observation.items, answer)):
        if item.status != "ok":
            verdict = run_failure(check, observation, index)
            return failed(check, verdict.reason, **{**verdict.facts, "node": position["node"]})
        problem = permutation_problem(item.returned, position["actions"])
        if problem:
            bad.append((position, problem))
        else:
            orders[position["node"]] = item.returned
    if bad:
        position, problem = bad[0]
        return failed(check, "ordering.not-permutation", node=position["node"],
                      actions=position["actions"], positions=len(answer), bad=len(bad),
                      **problem)
    search = answer[0]["search"]
    from ..answers.search import search_with_orders  # needs the reference: not in a kit
    mine = search_with_orders(search["spec"], search["depth"], orders,
                              search["prune_on_equality"])
    plain, model = search["plain"], search["model"]
    at_most = check.option("at_most")
    facts = {"observed": mine["count"], "plain": plain["count"], "model": model["count"],
             "at_most": at_most, "value": mine["value"], "expected_value": plain["value"],
             "positions": len(answer)}
    if not same_number(mine["value"], plain["value"]):
        return failed(check, "ordering.value-changed", **facts)
    bound = at_most if at_most is not None else plain["count"] - 1
    if mine["count"] > bound:
        return failed(check, "ordering.too-many" if at_most is not None
                      else "ordering.not-fewer", **facts)
    return passed(check, **facts)
