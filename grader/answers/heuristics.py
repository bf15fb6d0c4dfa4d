"""Heuristic tables: a reference evaluation's values at a task's own positions, computed in
the parent and sent to the child instead of the evaluation's code.

A depth-limited task on a game without heuristic values of its own names a reference
evaluation (``heuristic: tictactoe-lines``, a name in ``reference.evaluation.EVALUATIONS``).
``heuristic_table`` walks the game (``grader.games.make_rules``) from the task's position down
to ``depth`` plies and returns the evaluation's value, from the first player's point of view,
of every non-terminal state it meets (at the horizon and above it: a search that evaluates too
early is then judged on the right numbers), keyed by ``games.heuristic.table_key`` and sorted,
so that the same task always gives the same spec.  The rules class looks values up with
``games.heuristic.HeuristicTable``.

Any game whose rules class reads ``spec["heuristic_values"]`` can use it: list it in
``tasks.HEURISTIC_GAMES``.

Runs in the parent only (``tasks.py``); the child never sees this module's evaluation.
"""

from __future__ import annotations

from ..games import make_rules
from ..games.heuristic import table_key

# The searches of a task visit every node of its game tree within the horizon, for every
# check, every student and every variant the catalogue tries: beyond this the task is refused.
MAX_TREE_NODES = 20_000


class TableTooLarge(ValueError):
    """The game tree within the depth has more than ``limit`` nodes."""

    def __init__(self, depth: int, nodes: int, limit: int, largest_depth: int):
        self.depth, self.nodes, self.limit, self.largest_depth = depth, nodes, limit, largest_depth
        super().__init__(f"depth {depth} gives a game tree of more than {limit:,} nodes "
                         f"within the horizon ({nodes:,} and counting)")


def heuristic_table(spec: dict, depth: int, evaluation, limit: int = MAX_TREE_NODES) -> dict:
    """``{printable state: value}`` of ``evaluation(state, first player)`` for every
    non-terminal state within ``depth`` plies of the spec's position, keys sorted.

    States reached by several move orders are one entry (the value depends on the state
    only), but each counts as one node per path towards ``limit``.  Raises ``TableTooLarge``
    (with ``largest_depth``, the deepest depth within the limit) beyond it.
    """
    rules = make_rules(spec)
    first = rules.players[0]
    values: dict = {}
    level = {table_key(rules.initial_state()): (rules.initial_state(), 1)}  # state, paths
    nodes, largest = 1, 0
    for ply in range(depth + 1):
        following: dict = {}
        for key, (state, paths) in level.items():
            if rules.is_terminal(state):
                continue
            values[key] = evaluation(state, first)
            if ply == depth:
                continue
            for action in rules.actions(state):
                child = rules.result(state, action)
                child_key = table_key(child)
                known = following.get(child_key)
                following[child_key] = (child, paths + (known[1] if known else 0))
        nodes += sum(paths for _, paths in following.values())
        if nodes > limit:
            raise TableTooLarge(depth, nodes, limit, largest)
        largest = ply + 1
        level = following
    return dict(sorted(values.items()))
