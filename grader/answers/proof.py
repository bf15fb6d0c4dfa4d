"""What a search's visits prove about the root's value, and the reference facts that needs.

A search that returns the exact value of the root must have looked at enough of the tree to
prove it: for the lower bound, at a MAX node one child at least as good, at a MIN node every
child; for the upper bound the other way round.  ``proven_bounds`` computes the bounds the
visited nodes prove, by the leaves' values the game gives (utility at terminal nodes,
evaluate at the horizon).  A search with a transposition table need not visit a position it
has met before on another path: nodes are grouped by *position*, the state and the plies left
(``transposed`` maps every node to the first node of its group, in action order), and a group
counts as visited if any of its nodes is.

This is how the ``table`` and ``window`` checks tell a search from a guess: a student who
visits little and answers a memorised value proves nothing.

``search_facts`` runs in the parent only (it imports ``reference``); ``position_facts`` and
``proven_bounds`` are pure and run wherever a check is judged (in a self-check kit too).
"""

from __future__ import annotations

import sys
from math import inf

from ..games import make_game, make_rules

# The searches after alpha-beta (reference/transposition.py), judged by what their visits
# prove (alpha-beta with a table cuts by the task's rule: its signature takes it).
PROVEN_SEARCHES = ("alphabeta_tt", "negascout", "mtdf")


def search_facts(spec: dict, depth, prune_on_equality: bool) -> dict:
    """The facts a ``table``/``window`` check judges by, besides the reference's own answer:

    * ``compared``: the nodes plain alpha-beta (the task's cut rule) and minimax visit;
    * ``plain_value``: plain alpha-beta's value (``grader validate`` refuses a task where a
      table's value differs from it, see ``grader.answers.pins``);
    * ``least_saving``: the nodes the most frugal correct transposition table visits
      (``reference.transposition.least_saving_visits``), and ``table_saves``: whether that is
      fewer than plain alpha-beta's (then a table that is used must save nodes);
    * ``position_facts``: ``transposed``, ``min_nodes``.
    """
    from reference.minimax import alphabeta
    from reference.transposition import least_saving_visits
    counts, values = {}, {}
    for name, search in (("alphabeta", alphabeta), ("least", least_saving_visits)):
        game, root = make_game(spec)
        values[name], _ = search(game, root, depth, prune_on_equality=prune_on_equality)
        counts[name] = len(game.visit_log()["visits"])
    facts = position_facts(spec, depth)
    return {**facts,
            "compared": {"alphabeta": counts["alphabeta"], **facts["compared"]},
            "plain_value": values["alphabeta"], "least_saving": counts["least"],
            "table_saves": counts["least"] < counts["alphabeta"]}


def position_facts(spec: dict, depth) -> dict:
    """The facts of the positions within ``depth`` plies, from the input alone (no model
    solution: a self-check kit computes them when it checks):

    * ``compared``: ``{"minimax": n}``, the nodes minimax visits (every node within the depth);
    * ``transposed``: node -> the first node of its position (only nodes that are not first);
    * ``min_nodes``: the inner nodes where a player other than the root's moves.
    """
    rules = make_rules(spec)
    player = rules.to_move(rules.initial_state())
    first_of, transposed, min_nodes = {}, {}, []
    nodes = 0
    stack = [(rules.initial_state(), "root", depth)]
    while stack:
        state, name, remaining = stack.pop()
        nodes += 1
        position = (repr(state), remaining)
        if position in first_of:
            transposed[name] = first_of[position]
        else:
            first_of[position] = name
        if rules.is_terminal(state) or remaining == 0:
            continue
        if rules.to_move(state) != player:
            min_nodes.append(name)
        # pushed in reverse, popped in action order: the first node of a position is the
        # first in the order a search meets it
        for action in reversed(rules.actions(state)):
            child = rules.result(state, action)
            stack.append((child, rules.node_name(name, action, child),
                          None if remaining is None else remaining - 1))
    return {"compared": {"minimax": nodes}, "transposed": transposed,
            "min_nodes": sorted(min_nodes)}


def proven_bounds(visits, answer: dict) -> tuple:
    """``(low, high)``: the bounds on the root's value (the root player's view) that the
    visited nodes prove, with the reference answer's tree facts (``siblings``, ``values``,
    ``terminals``, ``horizon``) and ``search_facts``."""
    transposed = answer.get("transposed", {})
    seen = {transposed.get(node, node) for node in visits}
    leaves = set(answer.get("terminals", ())) | set(answer.get("horizon", ()))
    values, min_nodes = answer.get("values", {}), set(answer.get("min_nodes", ()))
    children: dict = {}
    for node, (parent, position) in answer.get("siblings", {}).items():
        children.setdefault(parent, []).append((position, node))
    memo: dict = {}

    def bounds(node):
        node = transposed.get(node, node)
        if node in memo:
            return memo[node]
        if node not in seen:
            found = (-inf, inf)
        elif node in leaves:
            found = (values[node], values[node])
        else:
            below = [bounds(child) for _, child in sorted(children.get(node, ()))]
            if not below:
                found = (-inf, inf)
            elif node in min_nodes:
                found = (min(low for low, _ in below), min(high for _, high in below))
            else:
                found = (max(low for low, _ in below), max(high for _, high in below))
        memo[node] = found
        return found

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        return bounds(answer.get("root", "root"))
    finally:
        sys.setrecursionlimit(limit)


def proves(value, visits, answer: dict, tolerance: float = 1e-9) -> bool:
    """Whether the visited nodes prove that the root's value is ``value``."""
    low, high = proven_bounds(visits, answer)
    return low >= value - tolerance and high <= value + tolerance
