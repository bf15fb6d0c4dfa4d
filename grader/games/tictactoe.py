"""Tic-tac-toe as on the exercise sheet.

States are 9-character strings of ``X``, ``O`` and ``.``, row by row (cells 0-8).  X moves
first, so the side to move follows from the counts.  The actions of a state are its empty
cells in increasing order (the order the search must try them); a terminal state (a line of
three, or a full board) has none.  ``utility(state, player)`` is +1 if ``player`` has a line,
-1 if the opponent has one, 0 otherwise.  The built-in heuristic is neutral (every position
is worth 0, so iterative deepening to the end of the game works): the sheet's evaluation
function is a model solution and lives in ``reference``.  A depth-limited task that names it
(``heuristic: tictactoe-lines``) gets its values at the task's own positions as a table
(``"heuristic_values"``, X's view, computed by the parent: ``grader.answers.heuristics``), and
``evaluate`` looks them up (``games.heuristic``); a board the table does not hold, below the
task's horizon, is worth 0.

Spec: ``{"kind": "tictactoe", "board": "X.O.X...."}``, with a table
``{"kind": "tictactoe", "board": "X.O.X....", "heuristic": "tictactoe-lines",
"heuristic_values": {"X.O.X....": 4, "XXO.X....": 6, ...}}``
"""

from .heuristic import HeuristicTable
from .paths import PathNames

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8),
         (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6))


def normalise_board(text):
    """``"X.O/.X./..O"`` (rows separated by ``/``, ``|`` or spaces) -> ``"X.O.X...O"``."""
    board = "".join(ch for ch in text if ch not in "/| \n")
    if len(board) != 9 or set(board) - set("XO."):
        raise ValueError(f"{text!r} is not a tic-tac-toe board: need 9 cells of X, O or '.'")
    x, o = board.count("X"), board.count("O")
    if not (x == o or x == o + 1):
        raise ValueError(f"{text!r} cannot occur in play: X moves first, so X must have as "
                         f"many marks as O or one more (X has {x}, O has {o})")
    return board


def winner(board):
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


class TicTacToeRules(PathNames):
    players = ("X", "O")

    def __init__(self, spec):
        self.board = normalise_board(spec["board"])
        self.heuristic = HeuristicTable(spec.get("heuristic_values"))

    def initial_state(self):
        return self.board

    def to_move(self, state):
        return "X" if state.count("X") == state.count("O") else "O"

    def actions(self, state):
        if self.is_terminal(state):
            return []
        return [cell for cell in range(9) if state[cell] == "."]

    def result(self, state, action):
        if action not in self.actions(state):
            raise ValueError(f"{action!r} is not a legal move in {state!r}; "
                             f"legal moves: {self.actions(state)!r}")
        return state[:action] + self.to_move(state) + state[action + 1:]

    def is_terminal(self, state):
        return winner(state) is not None or "." not in state

    def utility(self, state, player):
        if player not in self.players:
            raise ValueError(f"unknown player {player!r}; the players are 'X' and 'O'")
        if not self.is_terminal(state):
            raise ValueError(f"utility() asked of {state!r}, which is not a terminal state")
        won = winner(state)
        if won is None:
            return 0
        return 1 if won == player else -1

    def evaluate(self, state, player):
        if player not in self.players:
            raise ValueError(f"unknown player {player!r}; the players are 'X' and 'O'")
        return self.heuristic.value(state, first_player=player == "X")
