"""Reference answers of iterative deepening and the principal variation
(``reference/deepening.py``): what the checks ``iterations``, ``iteration-visits`` and
``line`` judge a student's reply against, computed in the parent once per call.

Both functions return something other than ``(value, action)``, so their answers carry what
they returned as plain JSON (``returned``), with the visit log (``visits``; ``rounds``: one
entry per search from the root, see ``grader/games/recorder.py``) and the shape of the game
tree within the task's depth (``answers.facts.tree_facts``: ``root``, ``siblings``, ``horizon``,
``terminals``, ``values`` from the root player's view).

* iterative deepening: ``iterations``, one per depth d = 1 .. depth: the depth-limited
  minimax value, every root action's exact value and the optimal ones, the horizon and
  terminal nodes within d with their values (``static_values``), and how many nodes minimax
  visits to depth d (the root included);
* principal variation: ``value``, and ``children``: every inner node's ``[action, child]``
  pairs in action order, to follow a student's line through the tree.

Everything a judge needs is in the answer, so a self-check kit (no ``reference``) judges
these checks from its precomputed answers like any other.
"""

from __future__ import annotations

import json

from .bounded import make_game  # bounded, as every reference search in the parent
from .facts import tree_facts
from .numbers import same_number


def answer_deepening(reference: str, spec: dict, depth, prune_on_equality: bool) -> dict:
    from reference.deepening import TECHNIQUES
    game, root = make_game(spec)
    returned = TECHNIQUES[reference](game, root, depth, prune_on_equality)
    log = game.visit_log()
    answer = {"returned": as_json(returned), "visits": log["visits"],
              "rounds": log.get("rounds"), "depth": depth, **tree_facts(spec, depth)}
    if reference == "principal_variation":
        answer["value"] = as_json(returned[0])
        answer["children"] = children_within(spec, depth)
    else:
        answer["iterations"] = [iteration_facts(spec, limit) for limit in range(1, depth + 1)]
    return answer


def as_json(value):
    """What the child would send for ``value``: tuples become lists."""
    return json.loads(json.dumps(value))


def iteration_facts(spec: dict, depth: int) -> dict:
    """What one iteration to ``depth`` plies must find, and what it may visit."""
    from reference.minimax import action_values, minimax
    facts = tree_facts(spec, depth)
    values_game, values_root = make_game(spec)
    exact = action_values(values_game, values_root, depth)
    value = facts["values"][facts["root"]]
    counting_game, counting_root = make_game(spec)
    minimax(counting_game, counting_root, depth)
    static = {node: facts["values"][node] for node in facts["horizon"] + facts["terminals"]}
    return {"depth": depth, "value": value,
            "action_values": [[a, v] for a, v in exact.items()],
            "optimal_actions": [a for a, v in exact.items() if same_number(v, value)],
            "horizon": facts["horizon"], "terminals": facts["terminals"],
            "static_values": static,
            "minimax_visits": len(counting_game.visit_log()["visits"])}


def children_within(spec: dict, depth: int) -> dict:
    """``{node: [[action, child], ...]}`` for every inner node less than ``depth`` plies
    below the root, children in action order."""
    game, root = make_game(spec)
    children: dict = {}

    def walk(state, level):
        if game.is_terminal(state) or level >= depth:
            return
        pairs = []
        for action, child in game.successors(state):
            pairs.append([action, game.node_of(child)])
            walk(child, level + 1)
        children[game.node_of(state)] = as_json(pairs)

    walk(root, 0)
    return children


def deepening_public_facts(reference: str, spec: dict, depth: int) -> dict:
    """The facts of a deepening answer that follow from the input alone (``answers.
    public_facts``): the tree's shape, the values the game gives, the principal variation's
    ``children``, and per iteration its horizon, those values and how many nodes minimax
    visits to its depth (every node within it); the root's actions, their values left out."""
    facts = {"depth": depth, **tree_facts(spec, depth, inner=False)}
    if reference == "principal_variation":
        facts["children"] = children_within(spec, depth)
    else:
        facts["iterations"] = [iteration_public_facts(spec, limit)
                               for limit in range(1, depth + 1)]
    return facts


def iteration_public_facts(spec: dict, depth: int) -> dict:
    from ..games import make_rules
    from .sealed import WITHHELD
    facts = tree_facts(spec, depth, inner=False)
    rules = make_rules(spec)
    start = rules.initial_state()
    actions = [] if rules.is_terminal(start) else rules.actions(start)
    return {"depth": depth, "action_values": [[a, WITHHELD] for a in actions],
            "horizon": facts["horizon"], "terminals": facts["terminals"],
            "static_values": facts["values"], "minimax_visits": 1 + len(facts["siblings"])}
