"""Helpers shared by the check kinds: the standard search call, reading a student's answer
from plain JSON, comparing numbers, and turning failed runs into verdicts."""

from __future__ import annotations

import operator

from ..calls import Call
from ..games.moves import is_move_of, move_index, same_move, type_mismatch
from ..answers.sealed import WITHHELD, Sealed, SealedCount, SealedVisits
from ..answers.numbers import is_number, is_vector, same_number
from .verdict import failed

SEARCH_FUNCTIONS = ("minimax", "alphabeta", "negamax", "expectimax", "maxn",
                    "alphabeta_killer", "quiescence",
                    "alphabeta_tt", "negascout", "mtdf")  # reference/transposition.py
# Searches whose value is a utility vector (n-player trees): no random two-player trees.
VECTOR_SEARCHES = ("maxn",)
# Searches that need their task's own game (quiescence: the task's noisy positions): no
# random trees or hygiene trees, which have no such rule, and no plain horizon check (its
# horizon is the task's depth; quiescence's own check judges the extended one).
GAME_ONLY_SEARCHES = ("quiescence",)
# Searches whose visits rightly differ from their reference's (a table looked up before or
# after is_terminal, leaves kept or not, re-searches with other windows): no check of exact
# visits (visited, count, horizon, random-trees); the table and window checks bound them.
VISITS_VARY = ("alphabeta_tt", "negascout", "mtdf")


def search_call(task, function: str) -> Call:
    """The one run of ``function`` on the task's game that value/action/visited/count share."""
    return Call(module=task.module_of(function), function=function, convention=task.convention,
                items=(task.game_spec,), args=(task.depth,) if task.depth else (),
                time_limit=task.limits.call_seconds,
                prune_on_equality=task.prune_on_equality,
                reference=task.reference_of(function))


def single_search_call(task, check) -> list[Call]:
    """``calls`` of the kinds that judge the one standard run of a task's search."""
    return [search_call(task, check.function)]


class PerObject:
    """``compute(*objects)``, computed once per combination of objects and reused.

    A reference answer, and a check, is the same object for every submission of a batch
    (``AnswerBook``, the plan), and what a check derives from them alone (the reference's
    node sets, its own sibling order, the check's options) is asked again for every
    submission.  Entries are keyed by the objects' identities and hold the objects
    themselves, so that an id cannot be reused by another object while its entry is kept;
    an object that is not the cached one is simply computed again.  At most ``size``
    entries: the cache starts over when full.
    """

    def __init__(self, compute, size: int = 4096):
        self.compute = compute
        self.size = size
        self.entries: dict = {}

    def __call__(self, *objects):
        key = tuple(map(id, objects))
        entry = self.entries.get(key)
        if entry is not None and all(map(operator.is_, entry[0], objects)):
            return entry[1]
        if len(self.entries) >= self.size:
            self.entries.clear()
        value = self.compute(*objects)
        self.entries[key] = (objects, value)
        return value


def read_search_result(returned):
    """``(value, action, shape_ok)`` from what a search returned.

    The convention is ``(value, action)``; a bare number still lets the value be judged.
    Values that are not finite plain numbers (NaN, infinities, objects) or utility vectors
    of such numbers count as no value.
    """
    if is_number(returned):
        return returned, None, False
    if isinstance(returned, list) and len(returned) == 2:
        value, action = returned
        return (value if is_number(value) or is_vector(value) else None), action, True
    return None, None, False


def expected_shape(answer: dict) -> str:
    """What a convention's search returns: ``pair`` (value, action), ``value`` or ``action``."""
    returns_value = answer.get("returns_value", True)
    returns_action = answer.get("returns_action", True)
    if returns_value and returns_action:
        return "pair"
    return "value" if returns_value else "action"


def root_actions(answer: dict) -> list:
    return [a for a, _ in answer.get("action_values", ())]


def value_of_move(action, action_values) -> float | None:
    """The value that ``action_values`` (``[action, value]`` pairs) gives ``action``, compared
    as moves are (``grader.games.moves``: ``8.0`` is not 8); None for none of them."""
    return next((value for candidate, value in action_values
                 if same_move(action, candidate)), None)


def wrong_move_facts(action, legal: list) -> dict:
    """The facts a message needs about a returned move that is none of ``legal``: the move
    as returned and, when its type is the reason, its type and the game's
    (``observed_type``, ``expected_type``)."""
    mismatch = type_mismatch(action, legal)
    return {"observed_move": describe(action), **mismatch} if mismatch else {}


def vector_length(value) -> int | None:
    """The number of components of a reference value that is a utility vector (a sealed
    one's too), None for a number."""
    if isinstance(value, (list, tuple)):
        return len(value)
    return getattr(value, "length", None)


def visit_count(answer: dict):
    """How many nodes the reference visits: a number, or in a self-check kit a
    ``SealedCount`` (``WITHHELD`` where the kit holds none: ``number_of`` refuses it)."""
    visits = answer["visits"]
    if isinstance(visits, SealedVisits):
        return visits.count if visits.count is not None else WITHHELD
    return WITHHELD if isinstance(visits, Sealed) else len(visits)


def number_of(count) -> int:
    """A count as a number to compare with: a sealed one is found by trying the numbers up to
    its bound (a count is only not written down in a kit, it is no secret)."""
    return count.number() if isinstance(count, SealedCount) else count


def within_tree(node, answer: dict) -> bool:
    """Whether ``node`` lies in the reference's tree within the depth limit."""
    return node == answer.get("root") or node in answer.get("siblings", {})


def read_answer(returned, answer: dict):
    """``(value, action, problem)`` from what a search returned, judged against its shape.

    ``problem`` is None for a well-formed answer, else the facts of a ``result.shape``
    failure: a reply of the wrong shape (a bare number where a pair is due, a triple), a value
    that is not a finite number (NaN, an infinity, an object), or an action that is not one
    of the root's actions (``None`` only where the root has none), as a value of the game's
    own type (``grader.games.moves``: ``8.0`` is not the action 8, ``True`` not 1).  Such a
    reply earns nothing for its call.
    """
    shape = expected_shape(answer)
    legal = root_actions(answer)
    facts = {"observed": describe(returned), "shape": shape, "legal": legal}
    if shape == "value":
        if not is_number(returned):
            return None, None, {**facts, "problem": "value" if not isinstance(returned, list)
                                else "not-value"}
        return returned, None, None
    if not (isinstance(returned, list) and len(returned) == 2):
        return None, None, {**facts, "problem": "not-pair"}
    value, action = returned
    players = vector_length(answer.get("value"))
    if players is not None:   # a utility vector, one number per player
        if shape == "pair" and not (is_vector(value) and len(value) == players):
            return None, None, {**facts, "problem": "vector", "players": players}
    elif shape == "pair" and not is_number(value):
        return None, None, {**facts, "problem": "value"}
    if not is_move_of(action, legal) and not (action is None and not legal):
        return None, None, {**facts, "problem": "action", **wrong_move_facts(action, legal)}
    return (value if shape == "pair" else None), action, None


def searched(log: dict, answer: dict) -> bool:
    """Whether a search did any work: below a root that is not terminal it reached at least
    one node whose value the game gives (a terminal or horizon node).  An empty or root-only
    search, or one that only looks at the root's children, proves nothing."""
    root = answer.get("root")
    if root in set(answer.get("terminals", ())):
        return True
    return any(node != root for node in static_nodes(log, answer))


def static_nodes(log: dict, answer: dict) -> list:
    """The visited nodes whose value the game itself gives: terminal nodes (utility) and the
    nodes at the horizon (evaluate), within the reference's tree."""
    static = set(answer.get("terminals", ())) | set(answer.get("horizon", ()))
    return [node for node in log.get("visits", ()) if node in static]


def value_justified(value, log: dict, answer: dict, chance: bool = False) -> bool:
    """Whether the student's own visits justify ``value``: up to sign it is the value of a
    terminal or horizon node it visited, or (with chance nodes, whose values are means of
    such values) it lies within the range of those values."""
    values = answer.get("values", {})
    found = [values[node] for node in static_nodes(log, answer) if node in values]
    if not found:
        return False
    if isinstance(value, list):
        # a vector is some visited leaf's vector; under chance nodes each component lies
        # within the range of the visited leaves' components
        if chance:
            return all(min(v[i] for v in found) - 1e-9 <= x <= max(v[i] for v in found) + 1e-9
                       for i, x in enumerate(value))
        return any(same_number(value, v) for v in found)
    if chance:
        return min(found) - 1e-9 <= value <= max(found) + 1e-9 \
            or -max(found) - 1e-9 <= value <= -min(found) + 1e-9
    return any(same_number(value, v) or same_number(value, -v) for v in found)


def action_justified(action, log: dict, answer: dict) -> bool:
    """Whether the student's visits justify choosing ``action``: its child was searched down
    to a node whose value the game gives (the child itself, if that is terminal)."""
    legal = root_actions(answer)
    position = move_index(action, legal)
    if position is None:
        return action is None and not legal
    siblings, root = answer.get("siblings", {}), answer.get("root")
    child = next((node for node, (parent, index) in siblings.items()
                  if parent == root and index == position), None)
    if child is None:
        return False
    for node in static_nodes(log, answer):
        while node is not None and node != child:
            node = siblings.get(node, (None, None))[0]
        if node == child:
            return True
    return False


def search_failure(check, observation, answer: dict, need_search: bool = True, index: int = 0):
    """The verdict for a search call whose answer (of item ``index``) earns nothing (a failed
    run, a reply of the wrong shape, no search at all), or None if the checks may judge it."""
    failure = run_failure(check, observation, index)
    if failure:
        return failure
    item = observation.items[index]
    _, _, problem = read_answer(item.returned, answer)
    if problem:
        return failed(check, "result.shape", **problem)
    if need_search and not searched(item.log or {}, answer):
        early = [node for node in (item.log or {}).get("evaluate_calls", ())
                 if within_tree(node, answer) and node not in answer.get("horizon", ())]
        if early:
            # it searched, but stopped above the horizon: say where, not "nothing searched"
            return failed(check, "search.above-horizon", nodes=list(dict.fromkeys(early)))
        return failed(check, "search.none", root=answer.get("root"))
    return None


def describe(value) -> str:
    """A short, exact rendering of a returned value for messages."""
    if isinstance(value, dict) and "__unsupported__" in value:
        return f"<{value['__unsupported__']}: {value.get('repr', '')}>"
    if isinstance(value, dict) and "__float__" in value:
        return value["__float__"]
    if isinstance(value, list):
        return "(" + ", ".join(describe(v) for v in value) + ")"
    return repr(value)


def run_failure(check, observation, index: int = 0):
    """The verdict for a run that did not produce an answer, or None if it did."""
    if observation.status != "ok":
        return failed(check, f"call.{observation.status}", **(observation.error or {}))
    item = observation.items[index]
    if item.status != "ok":
        return failed(check, "item.error", **(item.error or {}))
    return None


def first_difference(expected: list, observed: list):
    """The first position where two visit sequences differ, or None if they are equal."""
    for index, (want, got) in enumerate(zip(expected, observed)):
        if want != got:
            return {"index": index + 1, "expected": want, "observed": got,
                    "common": expected[:index]}
    if len(expected) != len(observed):
        index = min(len(expected), len(observed))
        return {"index": index + 1,
                "expected": expected[index] if index < len(expected) else None,
                "observed": observed[index] if index < len(observed) else None,
                "common": expected[:index]}
    return None
