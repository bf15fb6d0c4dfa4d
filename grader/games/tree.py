"""Explicit game trees, as drawn on the board and written in a task file.

States are the node names (strings such as ``"A"`` or ``"D1"``); the actions of a node are its
children's names in file order, so ``result(state, action)`` is simply the child named
``action``.  Players alternate by depth: the root is ``"MAX"``, its children ``"MIN"``, and so
on.  Leaf values and heuristic estimates (0 where a node has none) are from MAX's point of view;
``utility(leaf, "MIN")`` is the negated leaf value (zero-sum).

Spec::

    {"kind": "tree", "root": "A",
     "nodes": {"A": {"children": ["B", "C"]},               # inner node
               "B": {"children": ["B1"], "eval": 4},        # inner node with a heuristic value
               "B1": {"value": 8}, ...}}                    # leaf
"""

MAX = "MAX"
MIN = "MIN"


class TreeRules:
    players = (MAX, MIN)

    def __init__(self, spec):
        self.root_name = spec["root"]
        self.nodes = spec["nodes"]
        self.depth = {}
        stack = [(self.root_name, 0)]
        while stack:
            name, depth = stack.pop()
            self.depth[name] = depth
            for child in self.nodes[name].get("children", ()):
                stack.append((child, depth + 1))

    def initial_state(self):
        return self.root_name

    def node_name(self, parent_name, action, child_state):
        return child_state

    def identify(self, state):
        """Node names are unique, so even an untagged state names its node."""
        return state if isinstance(state, str) and state in self.depth else None

    def to_move(self, state):
        return MAX if self.depth[state] % 2 == 0 else MIN

    def actions(self, state):
        return list(self.nodes[state].get("children", ()))

    def result(self, state, action):
        if action not in self.nodes[state].get("children", ()):
            raise ValueError(f"{action!r} is not an action in node {state!r}; "
                             f"its actions are {self.actions(state)!r}")
        return action

    def is_terminal(self, state):
        return not self.nodes[state].get("children")

    def utility(self, state, player):
        node = self.nodes[state]
        if node.get("children"):
            raise ValueError(f"utility() asked of {state!r}, which is not a terminal node")
        return _signed(node["value"], player)

    def evaluate(self, state, player):
        node = self.nodes[state]
        if not node.get("children"):
            return _signed(node["value"], player)
        # Without a heuristic value a node is neutral (0), as in the other games; a
        # depth-limited task must give every node at its horizon a value (tasks.py checks).
        return _signed(node.get("eval") or 0, player)


def _signed(value, player):
    if player == MAX:
        return value
    if player == MIN:
        return -value
    raise ValueError(f"unknown player {player!r}; the players are 'MAX' and 'MIN'")
