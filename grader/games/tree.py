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

**n-player trees** (max^n): leaves hold utility *vectors*, one component per player, the
players named by the ``players`` cycle (any names; ``CHANCE`` is no player) in order of first
appearance, e.g. ``["A", "B", "C"]``.  There ``utility(leaf, p)`` is player ``p``'s component,
``utilities(leaf)`` the whole vector (a tuple, in the order of ``players()``), and
``coalition(p)`` the players ``p`` is allied with (``p`` alone unless the task sets
``alliances``).  A student's max^n calls ``utilities`` at the leaves and compares the
component ``players().index(to_move(node))`` (the sum over ``coalition`` with alliances).

Chance nodes: ``probability(node, action)`` is the probability of the edge, ``1/n`` unless
the task writes ``p=`` on its edges (``"probabilities"`` in the spec).

Spec::

    {"kind": "tree", "root": "A", "players": ["MAX", "MIN"],
     "nodes": {"A": {"children": ["B", "C"], "actions": ["left", "right"]},  # labels optional
               "B": {"children": ["B1"], "eval": 4},         # inner node with a heuristic
               "B1": {"value": 8}, ...}}                     # leaf

An n-player tree: ``"players": ["A", "B", "C"]``, leaves ``{"value": [1, 2, 6]}``, optional
``"alliances": [["A", "B"], ["C"]]``; a chance node ``{"children": [...], "probabilities":
[0.25, 0.75]}``.
"""

MAX = "MAX"
MIN = "MIN"
CHANCE = "CHANCE"


class TreeRules:
    def __init__(self, spec):
        self.root_name = spec["root"]
        self.nodes = spec["nodes"]
        self.cycle = tuple(spec.get("players") or (MAX, MIN))
        self.vector = any(isinstance(node.get("value"), list) for node in self.nodes.values())
        if self.vector:
            self.players = tuple(p for p in dict.fromkeys(self.cycle) if p != CHANCE)
        else:
            self.players = tuple(dict.fromkeys(self.cycle))
        self.alliances = {member: tuple(group) for group in spec.get("alliances") or ()
                          for member in group}
        self.depth = depths = {}
        nodes = self.nodes
        stack = [(self.root_name, 0)]
        while stack:
            name, depth = stack.pop()
            depths[name] = depth
            children = nodes[name].get("children")
            if children:
                depth += 1
                stack.extend([(child, depth) for child in children])

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
        return node["children"][labels.index(action)]

    def is_terminal(self, state):
        return not self.nodes[state].get("children")

    def utility(self, state, player):
        node = self.nodes[state]
        if node.get("children"):
            raise ValueError(f"utility() asked of {state!r}, which is not a terminal node")
        if self.vector:
            return node["value"][self._index(player)]
        return self._signed(node["value"], player)

    def utilities(self, state):
        """The utility vector of a terminal node, one component per player of ``players``."""
        node = self.nodes[state]
        if node.get("children"):
            raise ValueError(f"utilities() asked of {state!r}, which is not a terminal node")
        if self.vector:
            return tuple(node["value"])
        return tuple(self._signed(node["value"], p) for p in self.players if p != CHANCE)

    def probability(self, state, action):
        """The probability that chance takes ``action`` at ``state`` (1/n unless given)."""
        node = self.nodes[state]
        labels = list(node.get("actions") or node.get("children", ()))
        if action not in labels:
            raise ValueError(f"{action!r} is not an action in node {state!r}; "
                             f"its actions are {labels!r}")
        given = node.get("probabilities")
        return given[labels.index(action)] if given else 1 / len(labels)

    def coalition(self, player):
        """The players ``player`` is allied with, itself included (itself alone by default)."""
        if self.vector:
            self._index(player)
        return self.alliances.get(player, (player,))

    def _index(self, player):
        if player not in self.players:
            raise ValueError(f"unknown player {player!r}; the players are "
                             f"{', '.join(repr(p) for p in self.players)}")
        return self.players.index(player)

    def evaluate(self, state, player):
        node = self.nodes[state]
        if not node.get("children"):
            return self._signed(node["value"], player)
        # Without a heuristic value a node is neutral (0), as in the other games; a
        # depth-limited task must give every node at its horizon a value (checked by
        # grader/tasks/game.py).
        return self._signed(node.get("eval") or 0, player)

    def _signed(self, value, player):
        if player == MAX:
            return value
        if player in self.players:
            return -value
        raise ValueError(f"unknown player {player!r}; the players are "
                         f"{', '.join(repr(p) for p in self.players)}")
