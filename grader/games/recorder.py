"""The game object a search receives, and the log of what the search visited.

Visits are counted per node of the game tree, not per distinct board: a node is *visited*
the first time any method other than ``result`` receives it, and a board reached by two move
orders is two nodes.  To tell such nodes apart, every state the recorder hands out is a
subclass of the state's natural type (``str`` for boards and tree nodes, ``tuple`` for the
matchstick game) that carries its node name; it compares, hashes and prints exactly like the
plain value.  Generating children (``result``, ``successors``) visits only the parent.

Searches from the root that repeat (iterative deepening: one search per depth) are told apart
as *rounds*: a round ends when a child of the root is generated a second time (``result`` or
``successors`` on the root for an action already generated in the round).  Each round keeps
its own first visits of the nodes below the root, its ``utility`` and ``evaluate`` calls; the
log lists them (``rounds``) only when there were at least two.

Runs next to student code: standard library only, never imports ``reference``.
"""

_TAGGED_TYPES = {}


def _tagged_type(base):
    if base not in _TAGGED_TYPES:
        # Same name as the base type, so a student's print or type check sees what it expects.
        _TAGGED_TYPES[base] = type(base.__name__, (base,), {"__module__": base.__module__})
    return _TAGGED_TYPES[base]


def tag(state, node_name):
    """``state`` as a value of a subclass of its own type that remembers ``node_name``."""
    tagged = (_TAGGED_TYPES.get(type(state)) or _tagged_type(type(state)))(state)
    tagged._grader_node = node_name
    return tagged


class VisitLog:
    """What one search did: nodes in first-visit order, and where it asked for values.

    ``rounds`` stays empty while there is one search from the root (the log itself is that
    round); the second one fills it with the first round, taken from the log, and a new one.
    """

    def __init__(self):
        self.visits = []
        self.seen = set()
        self.utility_calls = []
        self.evaluate_calls = []
        self.foreign_states = 0
        self.root = None
        self.rounds = []

    def visit(self, node_name):
        if node_name not in self.seen:
            self.seen.add(node_name)
            self.visits.append(node_name)
        if self.rounds:
            self.rounds[-1].visit(node_name, self.root)

    def scored(self, calls, node_name):
        """Log a ``utility`` (``calls``: ``"utility_calls"``) or ``evaluate`` call."""
        getattr(self, calls).append(node_name)
        if self.rounds:
            getattr(self.rounds[-1], calls).append(node_name)

    def new_round(self):
        if not self.rounds:
            first = _Round()
            for name in self.visits:
                first.visit(name, self.root)
            first.utility_calls, first.evaluate_calls = (list(self.utility_calls),
                                                         list(self.evaluate_calls))
            self.rounds.append(first)
        self.rounds.append(_Round())

    def as_json(self):
        log = {
            "visits": list(self.visits),
            "utility_calls": list(self.utility_calls),
            "evaluate_calls": list(self.evaluate_calls),
            "foreign_states": self.foreign_states,
        }
        rounds = [r for r in self.rounds if r.visits]
        if len(rounds) > 1:
            log["rounds"] = [r.as_json() for r in rounds]
        return log


class _Round:
    """One search from the root: its first visits of nodes below the root, and the nodes it
    asked ``utility`` and ``evaluate`` of."""

    def __init__(self):
        self.visits, self.seen = [], set()
        self.utility_calls, self.evaluate_calls = [], []

    def visit(self, node_name, root_name):
        if node_name != root_name and node_name not in self.seen:
            self.seen.add(node_name)
            self.visits.append(node_name)

    def as_json(self):
        return {"visits": list(self.visits), "utility_calls": list(self.utility_calls),
                "evaluate_calls": list(self.evaluate_calls)}


class RecordingGame:
    """The interface of the default calling convention, instrumented.

    Methods: ``to_move``, ``actions``, ``result``, ``successors``, ``is_terminal``,
    ``utility`` and ``evaluate``; ``utility`` and ``evaluate`` take the player whose point of
    view the value is from.  For n-player trees (``grader/games/tree.py``) also ``players``,
    ``utilities`` (the leaf's whole vector, logged as a utility call), ``coalition`` and, at
    chance nodes, ``probability``.  With a task's ``noisy:`` rule (quiescence search) also
    ``is_quiet`` and ``noisy_actions``.
    """

    def __init__(self, rules):
        self._rules = rules
        self._log = VisitLog()
        self._root_name = None
        self._generated = set()     # the root's actions whose children this round generated

    # -- bookkeeping -------------------------------------------------------------------
    def root(self):
        state = self._rules.initial_state()
        self._root_name = self._log.root = self._rules.identify(state) or "root"
        return tag(state, self._root_name)

    def node_of(self, state):
        """The node name of a state handed out by this game, or None for a foreign one."""
        name = getattr(state, "_grader_node", None)
        if name is None:
            name = self._rules.identify(state)
        return name

    def _visit(self, state):
        # node_of and VisitLog.visit inlined: this runs at every call a search makes
        name = getattr(state, "_grader_node", None)
        if name is None:
            name = self._rules.identify(state)
            if name is None:
                self._log.foreign_states += 1
                return None
        log = self._log
        if name not in log.seen:
            log.seen.add(name)
            log.visits.append(name)
        if log.rounds:
            log.rounds[-1].visit(name, log.root)
        return name

    def _generating(self, parent, action):
        """A child of the root generated again starts a new round."""
        if parent is None or parent != self._root_name:
            return
        key = repr(action)
        if key in self._generated:
            self._log.new_round()
            self._generated = set()
        self._generated.add(key)

    def visit_log(self):
        return self._log.as_json()

    # -- the game interface ------------------------------------------------------------
    def to_move(self, state):
        self._visit(state)
        return self._rules.to_move(state)

    def actions(self, state):
        self._visit(state)
        return self._rules.actions(state)

    def result(self, state, action):
        parent = getattr(state, "_grader_node", None)
        if parent is None:
            parent = self._rules.identify(state)
        child = self._rules.result(state, action)
        if parent is None:
            return child
        if parent == self._root_name:
            self._generating(parent, action)
        return tag(child, self._rules.node_name(parent, action, child))

    def successors(self, state):
        self._visit(state)
        return [(action, self.result(state, action)) for action in self._rules.actions(state)]

    def is_terminal(self, state):
        self._visit(state)
        return self._rules.is_terminal(state)

    def utility(self, state, player):
        name = self._visit(state)
        self._log.scored("utility_calls", name)
        return self._rules.utility(state, player)

    def evaluate(self, state, player):
        name = self._visit(state)
        self._log.scored("evaluate_calls", name)
        return self._rules.evaluate(state, player)

    # -- quiescence search: the task's noisy positions (grader/games/quiet.py) ----------
    def is_quiet(self, state):
        """Whether ``state`` is quiet by the task's ``noisy:`` rule (no noisy move)."""
        self._visit(state)
        return self._own("is_quiet")(state)

    def noisy_actions(self, state):
        """The noisy moves of ``state`` by the task's ``noisy:`` rule, in action order."""
        self._visit(state)
        return self._own("noisy_actions")(state)

    # -- n-player trees and chance -----------------------------------------------------
    def players(self):
        """The players in the order of a utility vector's components."""
        return tuple(p for p in self._rules.players if p != "CHANCE")

    def utilities(self, state):
        name = self._visit(state)
        self._log.scored("utility_calls", name)
        return self._own("utilities")(state)

    def coalition(self, player):
        return tuple(self._own("coalition")(player))

    def probability(self, state, action):
        self._visit(state)
        own = getattr(self._rules, "probability", None)
        if own is None:  # games without explicit chance: every action equally likely
            return 1 / len(self._rules.actions(state))
        return own(state, action)

    def _own(self, method):
        own = getattr(self._rules, method, None)
        if own is None:
            raise AttributeError(f"this game has no {method}(); "
                                 + ("a task's noisy: rule gives it" if method in
                                    ("is_quiet", "noisy_actions")
                                    else "it is a method of n-player trees"))
        return own
