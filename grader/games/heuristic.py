"""Heuristic values a game looks up instead of computing: the child's half of a *heuristic
table*.

A heuristic that is itself an exercise's model solution (the sheet's evaluation of
tic-tac-toe, ``reference.evaluation.tictactoe_lines``) must never reach the child, where
student code could read it.  So the parent (``grader.answers.heuristics``) computes its values at the
task's own positions only, and sends them in the game spec as ``"heuristic_values"``: a table
from a state's printable form (``table_key``) to its value from the first player's point of
view.  A rules class that supports tables builds a ``HeuristicTable`` from its spec and asks it
in ``evaluate``.

A state the table does not hold is worth 0, as a tree node without a heuristic value is: the
table holds every non-terminal state within the task's depth, so only a search that goes past
the horizon asks for another one, and the ``horizon`` check (``grader.checks.horizon``) says
so; a neutral value lets the catalogue's faulty variants (``depth-off-by-one``) run the same
search and be named.

Runs next to student code: standard library only, never imports ``reference``.
"""


def table_key(state):
    """The printable form a table is keyed by: ``"X.O.X...."`` for a board."""
    return str(state)


class HeuristicTable:
    """``values``: printable state -> value for the first player (``spec["heuristic_values"]``).

    >>> table = HeuristicTable({"X.O.X....": 4})
    >>> table.value("X.O.X....", first_player=True), table.value("X.O.X....", first_player=False)
    (4, -4)
    >>> table.value("XXO......", first_player=True)
    0
    """

    def __init__(self, values):
        self.values = dict(values or {})

    def __len__(self):
        return len(self.values)

    def value(self, state, first_player):
        value = self.values.get(table_key(state), 0)
        return value if first_player else -value
