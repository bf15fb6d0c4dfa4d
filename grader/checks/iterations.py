"""``iterations``: iterative deepening's answers, one ``(value, action)`` per iteration.

``iterative_deepening(game, state, depth)`` returns a list with one entry per depth 1 ..
depth, in that order.  Entry k must hold the depth-k minimax value and an action that is
optimal at depth k; the last entry is the move to play, optimal at the full depth.  Any
optimal action is accepted, so an iteration that tries the previous iteration's best move
first (and keeps it on a tie) passes as well as one that keeps the game's order.

Every entry must be earned: its value is, up to sign, the value of a node the search scored
(``evaluate`` at depth k's horizon, ``utility`` at a terminal node within depth k), and its
action's child was searched down to such a node.  A hard-coded list earns nothing.  How the
search splits into iterations, and what each visits, is the ``iteration-visits`` check.
"""

from ..games.moves import is_move_of, move_index
from .verdict import failed, passed
from .common import (PerObject, describe, run_failure, single_search_call, value_of_move,
                     wrong_move_facts)
from ..answers.numbers import is_number, same_number

KIND = "iterations"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {}
# What a self-check kit keeps, sealed, of this kind's answers (grader.answers.sealed.seal_answer).
SEALED_PARTS = ("iterations",)
REFERENCES = ("iterative_deepening",)


def applies_to(function):
    return function in REFERENCES


def parse_options(item, context, line):
    if not context.depth:
        context.problem(line, f"an {KIND} check needs a depth-limited task (depth: d): "
                        "iterative deepening searches to depth 1, 2, ..., d")
    if context.game == "none":
        context.problem(line, f"an {KIND} check needs the task's game")
    return {}


calls = single_search_call


# -- shared with iteration-visits and line -------------------------------------------------

def _plies(siblings: dict, root) -> dict:
    """Every node's distance from the root, from the reference's ``siblings``."""
    plies = {root: 0}

    def ply(node):
        if node not in plies:
            plies[node] = ply(siblings[node][0]) + 1
        return plies[node]
    for node in siblings:
        ply(node)
    return plies


plies_of = PerObject(_plies)


def _static_sets(answer: dict) -> list:
    """Per iteration, the nodes whose value the game gives: depth k's horizon and terminals."""
    return [(set(facts["horizon"]), set(facts["terminals"])) for facts in answer["iterations"]]


static_sets = PerObject(_static_sets)


def scored(log: dict, horizon: set, terminals: set) -> list:
    """The nodes of ``log`` scored as the game gives their value: ``evaluate`` at a horizon
    node, ``utility`` at a terminal node."""
    return list(dict.fromkeys([n for n in log.get("evaluate_calls") or () if n in horizon]
                              + [n for n in log.get("utility_calls") or () if n in terminals]))


def below(node, ancestor, siblings: dict) -> bool:
    """Whether ``node`` is ``ancestor`` or lies in its subtree."""
    while node is not None and node != ancestor:
        node = siblings.get(node, (None, None))[0]
    return node == ancestor


def read_iterations(returned, legal: list):
    """``(entries, problem)``: the list of ``(value, action)`` pairs a search returned, or the
    facts of an ``iterations.shape`` failure."""
    facts = {"observed": describe(returned), "legal": legal}
    if not isinstance(returned, list):
        return None, {**facts, "problem": "not-list"}
    entries = []
    for index, entry in enumerate(returned, start=1):
        if not (isinstance(entry, list) and len(entry) == 2):
            return None, {**facts, "problem": "not-pair", "iteration": index}
        value, action = entry
        if not is_number(value):
            return None, {**facts, "problem": "value", "iteration": index}
        if not is_move_of(action, legal) and action is not None:   # None: a wrong move
            return None, {**facts, "problem": "action", "iteration": index,
                          **wrong_move_facts(action, legal)}
        entries.append((value, action))
    return entries, None


def root_actions(answer: dict) -> list:
    return [a for a, _ in answer["iterations"][0]["action_values"]]


# -- the verdict ----------------------------------------------------------------------------

def judge(check, observations, answers):
    answer = answers[0][0]
    failure = run_failure(check, observations[0])
    if failure:
        return failure
    item = observations[0].items[0]
    entries, problem = read_iterations(item.returned, root_actions(answer))
    if problem:
        return failed(check, "iterations.shape", **problem)
    expected = answer["iterations"]
    expected_values = [facts["value"] for facts in expected]
    observed_values = [value for value, _ in entries]
    facts = {"expected_values": expected_values, "observed_values": observed_values,
             "depth": len(expected)}
    if len(entries) != len(expected):
        return failed(check, "iterations.count", observed=len(entries), **facts)
    for number, ((value, action), wanted) in enumerate(zip(entries, expected), start=1):
        if not same_number(value, wanted["value"]):
            return failed(check, "iterations.value", iteration=number, observed=value,
                          expected=wanted["value"], **facts)
        if not is_move_of(action, wanted["optimal_actions"]):
            return failed(check, "iterations.action", iteration=number, observed=action,
                          observed_value=value_of_move(action, wanted["action_values"]),
                          value=wanted["value"],
                          optimal=wanted["optimal_actions"], last=number == len(expected),
                          **facts)
    log = item.log or {}
    siblings, root = answer["siblings"], answer["root"]
    child_at = {position: node for node, (parent, position) in siblings.items()
                if parent == root}
    for number, ((value, action), wanted, (horizon, terminals)) in enumerate(
            zip(entries, expected, static_sets(answer)), start=1):
        nodes = scored(log, horizon, terminals)
        if not any(same_number(value, wanted["static_values"][n])
                   or same_number(value, -wanted["static_values"][n]) for n in nodes):
            return failed(check, "iterations.no-evidence", iteration=number, observed=value,
                          **facts)
        child = child_at.get(move_index(action, root_actions(answer)))
        if child is None or not any(below(n, child, siblings) for n in nodes):
            return failed(check, "iterations.action-no-evidence", iteration=number,
                          observed=action, **facts)
    return passed(check, values=observed_values, actions=[a for _, a in entries],
                  depth=len(expected))
