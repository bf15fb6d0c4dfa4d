"""The matchstick game from the lecture: take 1..k sticks; whoever takes the last one loses
(``last_loses: true``, the lecture's rule) or wins.

States are pairs ``(sticks_left, player_to_move)`` with players ``"MAX"`` (who moves first)
and ``"MIN"``; the actions are the numbers of sticks one may take, in increasing order.

Spec: ``{"kind": "nim", "sticks": 5, "max_take": 2, "last_loses": true}``
"""

from .paths import PathNames

MAX = "MAX"
MIN = "MIN"


class NimRules(PathNames):
    players = (MAX, MIN)

    def __init__(self, spec):
        self.sticks = int(spec["sticks"])
        self.max_take = int(spec.get("max_take", 2))
        self.last_loses = bool(spec.get("last_loses", True))

    def initial_state(self):
        return (self.sticks, MAX)

    def to_move(self, state):
        return state[1]

    def actions(self, state):
        return list(range(1, min(self.max_take, state[0]) + 1))

    def result(self, state, action):
        if action not in self.actions(state):
            raise ValueError(f"taking {action!r} is not allowed with {state[0]} sticks left; "
                             f"allowed: {self.actions(state)!r}")
        return (state[0] - action, MIN if state[1] == MAX else MAX)

    def is_terminal(self, state):
        return state[0] == 0

    def utility(self, state, player):
        if player not in self.players:
            raise ValueError(f"unknown player {player!r}; the players are 'MAX' and 'MIN'")
        if state[0] != 0:
            raise ValueError(f"utility() asked of {state!r}, which is not a terminal state")
        # The player to move now did not take the last stick.
        mover_won = self.last_loses
        return 1 if (player == state[1]) == mover_won else -1

    def evaluate(self, state, player):
        """Neutral: without a heuristic every position is worth 0."""
        if player not in self.players:
            raise ValueError(f"unknown player {player!r}; the players are 'MAX' and 'MIN'")
        return 0
