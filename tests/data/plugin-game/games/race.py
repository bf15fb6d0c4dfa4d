"""Race to a target: a counter starts at `start`; the players A and B take turns adding 1 to
`step` to it, never going past `target`; whoever makes it reach `target` wins.

A course's own game module (see the README, "A course's own game"): the grader runs it
next to the student's code, so it uses the standard library only.
"""


class Rules:
    players = ("A", "B")

    def __init__(self, options):
        self.target = options.get("target", 10)
        self.step = options.get("step", 2)
        self.start = options.get("start", 0)
        for name, value in (("target", self.target), ("step", self.step),
                            ("start", self.start)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"option {name} must be a whole number >= 0, not {value!r}")
        if self.step < 1 or not self.start <= self.target:
            raise ValueError("need step >= 1 and start <= target")

    def initial_state(self):
        return (self.start, "A")            # (counter, the player to move)

    def to_move(self, state):
        return state[1]

    def actions(self, state):
        if self.is_terminal(state):
            return []
        return list(range(1, min(self.step, self.target - state[0]) + 1))

    def result(self, state, action):
        if action not in self.actions(state):
            raise ValueError(f"{action!r} is not a legal move at {state!r}")
        return (state[0] + action, "B" if state[1] == "A" else "A")

    def is_terminal(self, state):
        return state[0] >= self.target

    def utility(self, state, player):
        # The player who moved last reached the target: the one not to move now.
        winner = "B" if state[1] == "A" else "A"
        return 1 if player == winner else -1

    def evaluate(self, state, player):
        # A guess for a depth-limited search: distance to the target modulo step + 1.
        losing_for_mover = (self.target - state[0]) % (self.step + 1) == 0
        mover_value = -0.5 if losing_for_mover else 0.5
        return mover_value if player == state[1] else -mover_value

    def show(self, state):
        return f"{state[0]} of {self.target}, {state[1]} to move"
