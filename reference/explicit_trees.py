"""Minimax, alpha-beta and negamax of ``minimax.py``, specialised to explicit game trees: the
trees a task file or the random-tree check writes down (``grader/games/tree.py``'s specs),
searched on their nodes directly instead of through a game object.

The same searches, not other ones: each function takes the same decisions in the same order
as its general model (``minimax``, ``alphabeta``, ``negamax`` of ``minimax.py`` given the
recording game of the spec), and returns what the general search returns and what the
recording game logs of it: the root value from the root player's view, the first optimal
action, the nodes in first-visit order, and where ``utility`` and ``evaluate`` were asked.
``tests/test_explicit_trees.py`` checks that on thousands of drawn trees; ``minimax.py``
stays the definition, and these are only faster (they make no game object and no tagged
state per node: a random-tree check's 600 reference searches took three times as long).

They take only trees they search exactly as the game object would, which the caller makes
sure of (``grader.answers.facts.explicit_tree``): one or more players taking turns by depth,
none of them ``CHANCE``; scalar values; every node reached by one path (a tree, not a
graph); action labels, where given, one per child and all different.  Anything else is for
the general searches.

Perspective: the player to move at the root maximises (values are that player's, as
``utility(node, root player)`` gives them: MAX's values as written, negated for any other
root player); every other player minimises.  Pruning: alpha-beta cuts when ``beta <=
alpha`` (``prune_on_equality``) or only when ``beta < alpha``.
"""

from math import inf

from . import minimax as general

MAX, MIN = "MAX", "MIN"
SEARCHES = ("minimax", "alphabeta", "negamax")
# The general search each one specialises: a caller takes the specialised one only for these.
GENERAL = {"minimax": general.minimax, "alphabeta": general.alphabeta,
           "negamax": general.negamax}


class ExplicitTree:
    """One search of one explicit tree: its nodes, whose turn each depth is, and the log the
    recording game would keep (``visits`` may be a list that refuses a node past a limit)."""

    __slots__ = ("nodes", "root", "cycle", "max_view", "visits", "utility_calls",
                 "evaluate_calls")

    def __init__(self, spec: dict, visits: list | None = None):
        self.nodes, self.root = spec["nodes"], spec["root"]
        self.cycle = tuple(spec.get("players") or (MAX, MIN))
        # utility(node, root player): MAX's values as written, any other player's negated
        self.max_view = self.cycle[0] == MAX
        self.visits = [] if visits is None else visits
        self.utility_calls, self.evaluate_calls = [], []

    def edges(self, node: dict):
        """``(action, child name)`` in action order (``TreeRules.actions`` and ``result``)."""
        children = node["children"]
        labels = node.get("actions")
        return zip(labels, children) if labels else zip(children, children)

    def ended(self, name, node: dict) -> float:
        """The value of a node the search stops at, from the root player's view, logged as
        the recording game logs it: ``utility`` at a leaf, ``evaluate`` (its ``eval``, 0 if
        none) at the horizon."""
        if node.get("children"):
            self.evaluate_calls.append(name)
            value = node.get("eval") or 0
        else:
            self.utility_calls.append(name)
            value = node["value"]
        return value if self.max_view else -value

    def log(self) -> dict:
        """The log as ``RecordingGame.visit_log`` gives it for a single search from the root."""
        return {"visits": list(self.visits), "utility_calls": list(self.utility_calls),
                "evaluate_calls": list(self.evaluate_calls), "foreign_states": 0}


def minimax(tree: ExplicitTree, depth=None):
    """``minimax.minimax`` on ``tree``: ``(value, action)``, the log in ``tree``."""
    nodes, cycle, turns, visit, ended = (tree.nodes, tree.cycle, len(tree.cycle),
                                         tree.visits.append, tree.ended)
    player = cycle[0]

    def value_of(name, ply, remaining):
        visit(name)
        node = nodes[name]
        if remaining == 0 or not node.get("children"):
            return ended(name, node), None
        maximising = cycle[ply % turns] == player
        best, best_action = (-inf if maximising else inf), None
        less = None if remaining is None else remaining - 1
        for action, child in tree.edges(node):
            value, _ = value_of(child, ply + 1, less)
            if (value > best) if maximising else (value < best):
                best, best_action = value, action
        return best, best_action

    return value_of(tree.root, 0, depth)


def alphabeta(tree: ExplicitTree, depth=None, prune_on_equality=True):
    """``minimax.alphabeta`` (fail-soft, no move orders, the depth as horizon) on ``tree``."""
    nodes, cycle, turns, visit, ended = (tree.nodes, tree.cycle, len(tree.cycle),
                                         tree.visits.append, tree.ended)
    player = cycle[0]

    def value_of(name, alpha, beta, ply):
        visit(name)
        node = nodes[name]
        if (depth is not None and ply >= depth) or not node.get("children"):
            return ended(name, node), None
        maximising = cycle[ply % turns] == player
        best, best_action = (-inf if maximising else inf), None
        for action, child in tree.edges(node):
            value, _ = value_of(child, alpha, beta, ply + 1)
            if maximising:
                if value > best:
                    best, best_action = value, action
                alpha = max(alpha, best)
            else:
                if value < best:
                    best, best_action = value, action
                beta = min(beta, best)
            if (beta <= alpha) if prune_on_equality else (beta < alpha):
                break
        return best, best_action

    return value_of(tree.root, -inf, inf, 0)


def negamax(tree: ExplicitTree, depth=None):
    """``minimax.negamax`` on ``tree``: the sign flips where the player to move changes."""
    nodes, cycle, turns, visit, ended = (tree.nodes, tree.cycle, len(tree.cycle),
                                         tree.visits.append, tree.ended)

    def value_of(name, ply, sign, remaining):
        visit(name)
        node = nodes[name]
        if remaining == 0 or not node.get("children"):
            return sign * ended(name, node), None
        mover = cycle[ply % turns]
        best, best_action = -inf, None
        less = None if remaining is None else remaining - 1
        for action, child in tree.edges(node):
            same = cycle[(ply + 1) % turns] == mover
            value, _ = value_of(child, ply + 1, sign if same else -sign, less)
            value = value if same else -value
            if value > best:
                best, best_action = value, action
        return best, best_action

    return value_of(tree.root, 0, 1, depth)


def search(reference: str, spec: dict, depth=None, prune_on_equality=True,
           visits: list | None = None) -> tuple:
    """``(value, action, log)`` of the search named ``reference`` (one of ``SEARCHES``) on an
    explicit tree's spec (see the module docstring); ``visits``: the list the visited nodes
    are appended to (a list that refuses a node past a limit bounds the search)."""
    tree = ExplicitTree(spec, visits)
    if reference == "alphabeta":
        value, action = alphabeta(tree, depth, prune_on_equality)
    elif reference == "minimax":
        value, action = minimax(tree, depth)
    elif reference == "negamax":
        value, action = negamax(tree, depth)
    else:
        raise ValueError(f"no explicit-tree search {reference!r}; known: {', '.join(SEARCHES)}")
    return value, action, tree.log()
