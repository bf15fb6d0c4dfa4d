"""Explicit game trees, as drawn on the board and written in a task file.

States are the node names (strings such as ``"A"`` or ``"D1"``).  The actions of a node are
its children's names in file order, unless the node gives action labels (``"actions"``, as in
imported trees whose edges are named ``Left``/``Right``); ``result(state, action)`` is the
child the action leads to.  Players follow the tree's ``players`` cycle by depth: by default
``["MAX", "MIN"]`` (the root is MAX, its children MIN, ...); ``["MAX", "MIN", "MIN"]`` has two
MIN players, ``["MAX", "CHANCE"]`` chance nodes (children equally likely).  Leaf values and
heuristic estimates (0 where a node has none) are from MAX's point of view;
``utility(leaf, p)`` for any player other than MAX is the negated value (zero-sum: all MIN
players share one opponent, MAX).

Spec::

    {"kind": "tree", "root": "A", "players": ["MAX", "MIN"],
     "nodes": {"A": {"children": ["B", "C"], "actions": ["left", "right"]},  # labels optional
               "B": {"children": ["B1"], "eval": 4},         # inner node with a heuristic
               "B1": {"value": 8}, ...}}                     # leaf
"""

MAX = "MAX"
MIN = "MIN"
CHANCE = "CHANCE"


class TreeRules:
    def __init__(self, spec):
        self.root_name = spec["root"]
        self.nodes = spec["nodes"]
        self.cycle = tuple(spec.get("players") or (MAX, MIN))
        self.players = tuple(dict.fromkeys(self.cycle))
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
        return self.cycle[self.depth[state] % len(self.cycle)]

    def agent_index(self, state):
        return self.depth[state] % len(self.cycle)

    def actions(self, state):
        node = self.nodes[state]
        return list(node.get("actions") or node.get("children", ()))

    def result(self, state, action):
        node = self.nodes[state]
        labels = node.get("actions") or node.get("children", ())
        if action not in labels:
            raise ValueError(f"{action!r} is not an action in node {state!r}; "
                             f"its actions are {self.actions(state)!r}")
        return node["children"][list(labels).index(action)]

    def is_terminal(self, state):
        return not self.nodes[state].get("children")

    def utility(self, state, player):
        node = self.nodes[state]
        if node.get("children"):
            raise ValueError(f"utility() asked of {state!r}, which is not a terminal node")
        return self._signed(node["value"], player)

    def evaluate(self, state, player):
        node = self.nodes[state]
        if not node.get("children"):
            return self._signed(node["value"], player)
        # Without a heuristic value a node is neutral (0), as in the other games; a
        # depth-limited task must give every node at its horizon a value (tasks.py checks).
        return self._signed(node.get("eval") or 0, player)

    def _signed(self, value, player):
        if player == MAX:
            return value
        if player in self.players:
            return -value
        raise ValueError(f"unknown player {player!r}; the players are "
                         f"{', '.join(repr(p) for p in self.players)}")
