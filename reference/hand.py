"""Model answers of a hand exercise on an explicit game tree: everything a student writes down
when running minimax and alpha-beta by hand, as the lecture's pseudo-code does it.

The functions take a game object of the default calling convention (``to_move``, ``actions``,
``result``, ``is_terminal``, ``utility``, ``node_of``; for chance nodes ``probability``; for
n-player trees ``players`` and ``utilities``) and the root state.  Node names are the game's
(``game.node_of``), the names a student writes.

**Perspective.** Every number is from the point of view of the player to move at the root
(MAX): a MIN node's value is the smallest of its children's, seen from MAX.  On an n-player
tree (utility vectors) the values are max^n's vectors; with ``paranoid`` the root player's
component, every other player minimising it.

**Alpha-beta** is the lecture's (study notes, "Pseudo-Code-MiniMax mit Alpha Beta Pruning";
the student's solution of sheet 3 runs it the same way)::

    function alphabeta(s, α, β, player):
      if s terminal: return E(s)
      if player = Max:
        v = −∞
        for each move z: v = max(v, alphabeta(s after z, α, β, Min)); α = max(α, v)
                         if β ≤ α: break
        return v
      else: ... v = min(...); β = min(β, v); if β ≤ α: break; return v

* The interval a node is *entered with* is the (α, β) its parent passes in the call; the root
  is entered with (−∞, +∞).
* The value a node *returns* is ``v`` (fail-soft): the best child value seen before the cut,
  which need not be the node's minimax value.  On the sheet's tree D returns 2 (its first
  leaf, after which it cuts), although its minimax value is 1; a fail-hard search, which
  clamps to the window, would return α = 3.
* The cut rule is the task's: ``prune_on_equality`` cuts when β ≤ α (the lecture's), else
  only when β < α.
* A node is *visited* when the search enters it (root and leaves included); the nodes it never
  enters are *pruned*.  A *cut edge* is an edge from a visited node to a child it never enters:
  the edge below which a whole subtree is cut off (``C → G``, with G's leaves pruned with it).

Alpha-beta is refused at the door on trees with chance nodes and on n-player trees that are
not paranoid: the lecture's alpha-beta has neither.  Never imported by code that runs next to
student code.
"""

from __future__ import annotations

import itertools
from math import inf

# The rules a hand alpha-beta can be run with.  ``lecture`` is the model; the others are the
# misconceptions the feedback names when a student's cut edges are exactly theirs.
RULES = ("lecture", "wrong-side", "other-equality")
# The most children a node may have for the best-order question: every ordering is searched.
MAX_ORDERED_CHILDREN = 7


class HandTreeError(ValueError):
    """A tree a hand exercise cannot ask this question about."""


def shape(game, state, vector: bool = False) -> dict:
    """The tree below ``state``: ``root``, ``order`` (every node in preorder), ``children``
    (inner node -> child names in action order), ``actions`` (inner node -> its actions),
    ``player`` (inner node -> who moves there), ``depth``, ``leaves`` (leaf -> its value for
    the root player; its utility vector on an n-player tree, ``vector``) and ``probabilities``
    (chance node -> the probabilities of its edges)."""
    root_player = game.to_move(state)
    tree = {"root": game.node_of(state), "order": [], "children": {}, "actions": {},
            "player": {}, "depth": {}, "leaves": {}, "probabilities": {},
            "root_player": root_player, "vector": vector}
    if vector:
        tree["players"] = list(game.players())
    stack = [(state, 0)]
    while stack:
        node, depth = stack.pop()
        name = game.node_of(node)
        tree["order"].append(name)
        tree["depth"][name] = depth
        if game.is_terminal(node):
            tree["leaves"][name] = (list(game.utilities(node)) if vector
                                    else game.utility(node, root_player))
            continue
        mover = game.to_move(node)
        actions = list(game.actions(node))
        children = [game.result(node, action) for action in actions]
        tree["player"][name] = mover
        tree["actions"][name] = actions
        tree["children"][name] = [game.node_of(child) for child in children]
        if mover == "CHANCE":
            tree["probabilities"][name] = [game.probability(node, a) for a in actions]
        stack += [(child, depth + 1) for child in reversed(children)]
    return tree


def node_values(tree: dict, kind: str = "minimax", ties: str = "first",
                alliances=None) -> dict:
    """Every node's value (leaves included), from the root player's view.

    ``kind``: ``minimax`` (the root player maximises, every other player minimises),
    ``expectimax`` (chance nodes take the mean of their children, weighted by the edges'
    probabilities) or ``maxn`` (n-player trees: each player takes the child whose vector is
    best for it, its coalition's sum with ``alliances``; ties by ``ties``, as
    ``reference.minimax.maxn``)."""
    values = dict(tree["leaves"])
    for name in reversed(tree["order"]):
        if name in values:
            continue
        children = [values[child] for child in tree["children"][name]]
        mover = tree["player"][name]
        if mover == "CHANCE":
            weights = tree["probabilities"][name]
            if kind == "maxn":
                values[name] = [_mean(column, weights) for column in zip(*children)]
            else:
                values[name] = _mean(children, weights)
        elif kind == "maxn":
            values[name] = _maxn_choice(tree, mover, children, ties, alliances)
        elif mover == tree["root_player"]:
            values[name] = max(children)
        else:
            values[name] = min(children)
    return values


def _mean(values, weights):
    if len(set(weights)) <= 1:
        return sum(values) / len(values)
    return sum(w * v for w, v in zip(weights, values))


def _maxn_choice(tree, mover, children, ties, alliances):
    players = tree["players"]
    team = next((group for group in alliances or () if mover in group), [mover])

    def score(vector):
        return sum(vector[players.index(member)] for member in team)

    def others(vector):
        return sum(v for p, v in zip(players, vector) if p not in team)
    best = None
    for vector in children:
        if best is None or score(vector) > score(best):
            best = vector
        elif score(vector) == score(best) and ties != "first":
            if (others(vector) < others(best)) if ties == "spiteful" \
                    else (others(vector) > others(best)):
                best = vector
    return list(best)


def alphabeta_run(tree: dict, prune_on_equality: bool = True, orders: dict | None = None,
                  rule: str = "lecture") -> dict:
    """The lecture's alpha-beta run by hand on ``tree`` (see the module docstring).

    Returns ``intervals`` (visited node -> [α, β] it is entered with), ``returns`` (visited
    node -> the v it returns), ``visits`` (in order), ``pruned`` (the nodes never entered, in
    preorder), ``cut_edges`` ([parent, child] for each child a visited node never enters, in
    preorder of the child) and ``cut_after`` (inner node -> the child after which it cut).

    ``orders`` (node -> its children in another order) tries a node's children in that order.
    ``rule`` other than ``lecture`` runs a misconception: ``wrong-side`` tests the cut against
    the wrong bound (a MAX node cuts when v ≤ α, a MIN node when v ≥ β), ``other-equality``
    cuts by the other of the two rules (β < α where the task cuts at β ≤ α, and the reverse).
    """
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}; known: {', '.join(RULES)}")
    if any(p == "CHANCE" for p in tree["player"].values()):
        raise HandTreeError("the lecture's alpha-beta has no chance nodes")
    on_equality = prune_on_equality if rule != "other-equality" else not prune_on_equality
    root_player = tree["root_player"]
    intervals, returns, visits, cut_after = {}, {}, [], {}

    def cut(low, high):
        return high <= low if on_equality else high < low

    def run(name, alpha, beta):
        intervals[name] = [alpha, beta]
        visits.append(name)
        if name in tree["leaves"]:
            returns[name] = _scalar(tree, tree["leaves"][name])
            return returns[name]
        maximising = tree["player"][name] == root_player
        children = tree["children"][name]
        if orders and name in orders:
            children = list(orders[name])
        best = -inf if maximising else inf
        for index, child in enumerate(children):
            value = run(child, alpha, beta)
            best = max(best, value) if maximising else min(best, value)
            if rule == "wrong-side":
                # Max-Value tests v <= α (Min-Value v >= β) before raising its bound
                stop = cut(alpha, best) if maximising else cut(best, beta)
                if maximising:
                    alpha = max(alpha, best)
                else:
                    beta = min(beta, best)
            else:
                if maximising:
                    alpha = max(alpha, best)
                else:
                    beta = min(beta, best)
                stop = cut(alpha, beta)
            if stop and index < len(children) - 1:
                cut_after[name] = child
                break
        returns[name] = best
        return best

    run(tree["root"], -inf, inf)
    seen = set(visits)
    pruned = [name for name in tree["order"] if name not in seen]
    cut_edges = [[parent, child] for parent in tree["order"] if parent in seen
                 for child in tree["children"].get(parent, ()) if child not in seen]
    order = {name: i for i, name in enumerate(tree["order"])}
    cut_edges.sort(key=lambda edge: order[edge[1]])
    return {"intervals": intervals, "returns": returns, "visits": visits, "pruned": pruned,
            "cut_edges": cut_edges, "cut_after": cut_after}


def _scalar(tree, value):
    """A leaf's number for two-player alpha-beta: the root player's component of a vector."""
    if isinstance(value, list):
        return value[tree["players"].index(tree["root_player"])]
    return value


def best_orders(tree: dict, node: str, prune_on_equality: bool = True) -> dict:
    """The best-order question at ``node``: every ordering of its children (the rest of the
    tree in its own order), with the number of nodes alpha-beta then visits.  ``orders``:
    [[children in that order, visited], ...] in lexicographic order of positions; ``fewest``:
    the smallest count, which every right answer reaches."""
    children = tree["children"].get(node)
    if not children:
        raise HandTreeError(f"{node} has no children to order")
    if len(children) > MAX_ORDERED_CHILDREN:
        raise HandTreeError(f"{node} has {len(children)} children; the best-order question "
                            f"is asked at nodes with at most {MAX_ORDERED_CHILDREN}")
    table = []
    for permutation in itertools.permutations(children):
        run = alphabeta_run(tree, prune_on_equality, {node: list(permutation)})
        table.append([list(permutation), len(run["visits"])])
    return {"orders": table, "fewest": min(count for _, count in table)}


def hand_solution(game, state, prune_on_equality: bool = True, kind: str = "minimax",
                  alphabeta: bool = True, order_nodes=(), ties: str = "first",
                  alliances=None, paranoid: bool = False, vector: bool = False) -> dict:
    """Everything a hand exercise on this tree can ask, answered: the tree's ``shape``, every
    node's ``values`` (``kind``), the root's ``optimal_moves`` (its children whose value is
    the root's), and with ``alphabeta`` the run (``alphabeta_run``), the runs of the
    misconceptions (``variants``) and the best-order table of each node in ``order_nodes``.

    ``paranoid``: an n-player tree searched as two-player minimax on the root player's
    component (its alpha-beta too); ``vector``: the tree's leaves are utility vectors."""
    tree = shape(game, state, vector)
    values = _paranoid_values(tree) if vector and paranoid else \
        node_values(tree, kind, ties, alliances)
    root = tree["root"]
    optimal = [child for child in tree["children"].get(root, ())
               if values[child] == values[root]]
    solution = {**tree, "values": values, "optimal_moves": optimal, "kind": kind,
                "prune_on_equality": prune_on_equality}
    if alphabeta:
        if tree["vector"] and not paranoid:
            raise HandTreeError("alpha-beta on an n-player tree needs paranoid: the root "
                                "player against all others")
        solution["alphabeta"] = alphabeta_run(tree, prune_on_equality)
        solution["variants"] = {rule: _cut_edges(alphabeta_run(tree, prune_on_equality,
                                                               rule=rule))
                                for rule in RULES if rule != "lecture"}
        solution["orders"] = {node: best_orders(tree, node, prune_on_equality)
                              for node in order_nodes}
    return solution


def _cut_edges(run: dict) -> list:
    return run["cut_edges"]


def _paranoid_values(tree: dict) -> dict:
    """An n-player tree as two-player minimax on the root player's component."""
    scalar = {**tree, "leaves": {n: _scalar(tree, v) for n, v in tree["leaves"].items()}}
    return node_values(scalar, "minimax")
