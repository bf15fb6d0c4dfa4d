"""Connect Four ("Vier gewinnt") on a board of any size, as in the lecture's wiki article.

Discs are dropped into columns and fall to the lowest empty cell; whoever first has
``connect`` discs in a row (horizontally, vertically or diagonally) wins, and a full board
without such a line is a draw.

* **Players** are ``"X"`` and ``"O"``; ``first`` (default ``"X"``) moves first, so the side to
  move follows from the counts: the first player moves when both have as many discs.
  ``players`` lists the first player first.
* **States** are immutable strings: the rows from top to bottom, separated by ``/``, with
  ``.`` for an empty cell, e.g. ``"......./......./......./......./......./...X..."``.  The
  string is its own printable one-line form; ``show(state)`` gives the board as lines with
  the columns numbered underneath.
* **Actions** are column numbers, 0-based from the left, of the columns that are not full,
  in increasing order; a terminal state (a line of ``connect``, or a full board) has none.
* **Node names** are action paths like the other games': ``"3-3-4"`` drops into column 3,
  then 3, then 4 (``"root"`` is the task's position).
* ``utility(state, player)`` is +1 if ``player`` has a line, -1 if the opponent has one,
  0 for a draw.
* ``evaluate(state, player)`` is the game's **reference heuristic** for depth-limited search,
  the window count of the wiki article (after Kang et al. 2019, cited there): every window of
  ``connect`` consecutive cells in a row, column or diagonal that holds discs of one player
  only is worth ``4 ** (k - 1)`` to that player, k being how many discs it holds (for
  Connect Four: 1, 4 and 16 for one, two and three discs); the opponent's windows count
  negatively.  The sum is divided by ``scale``, the smallest power of ten above the largest
  sum the board allows (10000 on 7x6), so that every heuristic value lies strictly between
  -1 and +1 and a won game is worth more than any position at the horizon.  Because the
  weights are the same for both players, ``evaluate(s, "X") == -evaluate(s, "O")``, and
  minimax and negamax agree.  The heuristic is part of the game, like the rules, not an
  exercise's model solution, which is why it may run next to student code.

Spec: ``{"kind": "connect4", "columns": 7, "rows": 6, "connect": 4, "board": "..."}``, with
``"first": "O"`` when O moves first; ``board`` is a normalised state (``read_board``).
Noisy positions (quiescence search, ``grader/games/quiet.py``), by the spec's ``"noisy"``:
``threats`` (the mover can complete a line at once).

>>> rules = Connect4Rules({"kind": "connect4", "columns": 4, "rows": 3, "connect": 3})
>>> state = rules.result(rules.result(rules.initial_state(), 1), 1)
>>> state, rules.to_move(state), rules.actions(state)
('..../.O../.X..', 'X', [0, 1, 2, 3])
>>> print(show(state))
. . . .
. O . .
. X . .
0 1 2 3

Runs next to student code: standard library only, never imports ``reference``.
"""

from functools import lru_cache
from operator import itemgetter

from .paths import PathNames
from .quiet import NoisyRules

PLAYERS = ("X", "O")
DEFAULT_SIZE = {"columns": 7, "rows": 6, "connect": 4}
MAX_SIDE = 20        # columns and rows a board may have at most


class BoardError(ValueError):
    """A board that cannot be read or cannot occur in play.  ``line`` is the index of the
    text's line the problem is in (counting from 0), or None when it concerns the whole
    board."""

    def __init__(self, message, line=None):
        super().__init__(message)
        self.line = line


def other(player):
    return "O" if player == "X" else "X"


def size_problem(columns, rows, connect):
    """What is wrong with a board size, or None."""
    for name, value in (("columns", columns), ("rows", rows)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SIDE:
            return f"{name} must be a whole number from 1 to {MAX_SIDE}, not {value!r}"
    if (isinstance(connect, bool) or not isinstance(connect, int)
            or not 2 <= connect <= max(columns, rows)):
        return (f"connect (the length of a winning line) must be a whole number from 2 to "
                f"{max(columns, rows)} on a {columns}x{rows} board, not {connect!r}")
    return None


@lru_cache(maxsize=None)
def windows(columns, rows, connect):
    """Every line of ``connect`` cells (as string indices of a state): rows, columns, and
    both diagonals."""
    width = columns + 1                      # each row is followed by its "/"
    found = []
    for row in range(rows):
        for column in range(columns):
            for d_row, d_column in ((0, 1), (1, 0), (1, 1), (1, -1)):
                last_row = row + d_row * (connect - 1)
                last_column = column + d_column * (connect - 1)
                if 0 <= last_row < rows and 0 <= last_column < columns:
                    found.append(tuple((row + d_row * k) * width + column + d_column * k
                                       for k in range(connect)))
    return tuple(found)


def scale_of(columns, rows, connect):
    """The power of ten every heuristic sum stays below (see the module docstring)."""
    bound = len(windows(columns, rows, connect)) * 4 ** (connect - 1)
    scale = 10
    while scale <= bound:
        scale *= 10
    return scale


def winners(state, columns, rows, connect):
    """The players who have a line of ``connect`` (a set: a valid position has at most one)."""
    return _winners(str(state), columns, rows, connect)


@lru_cache(maxsize=1 << 16)
def _winners(board, columns, rows, connect):
    found = set()
    for window in windows(columns, rows, connect):
        first = board[window[0]]
        if first != "." and all(board[i] == first for i in window):
            found.add(first)
    return frozenset(found)


def show(state):
    """The board as lines, top row first, with the column numbers underneath.

    Columns are separated by spaces so that numbers from 10 on still line up under their
    column (the last digit is shown for columns 10 and above).
    """
    rows = str(state).split("/")
    numbers = " ".join(str(column % 10) for column in range(len(rows[0])))
    return "\n".join([" ".join(row) for row in rows] + [numbers])


def read_board(text, columns=7, rows=6, connect=4, first="X"):
    """A board as written in a task file -> a state; raises ``BoardError`` for a board that is
    unreadable or that cannot occur in play.

    ``text`` holds the rows from top to bottom, one a line or separated by ``/``; spaces
    between the cells are allowed and blank lines around the board ignored.

    >>> read_board("....\\n.O..\\n.XX.", columns=4, rows=3, connect=3)
    '..../.O../.XX.'
    """
    problem = size_problem(columns, rows, connect)
    if problem:
        raise BoardError(problem)
    if first not in PLAYERS:
        raise BoardError(f"first must be X or O, not {first!r}")
    found = []                                   # (line index, row text)
    for index, line in enumerate(str(text).split("\n")):
        for part in line.split("/"):
            row = "".join(part.split())
            if row:
                found.append((index, row))
    for index, row in found:
        strange = sorted(set(row) - set("XO."))
        if strange:
            raise BoardError(f"row {row!r} holds {', '.join(map(repr, strange))}; a cell is "
                             "X, O or '.' (empty)", index)
    if len(found) != rows:
        raise BoardError(f"the board has {len(found)} rows, but the task says rows: {rows}; "
                         "write every row from the top, empty ones as dots", None)
    for index, row in found:
        if len(row) != columns:
            raise BoardError(f"row {row!r} has {len(row)} cells, but the task says columns: "
                             f"{columns}", index)
    grid = [row for _, row in found]
    for number, (index, row) in enumerate(found[:-1]):
        for column, cell in enumerate(row):
            if cell != "." and grid[number + 1][column] == ".":
                raise BoardError(f"the disc {cell} in column {column} floats: the cell below "
                                 "it is empty, and discs fall to the lowest empty cell", index)
    state = "/".join(grid)
    second = other(first)
    firsts, seconds = state.count(first), state.count(second)
    if firsts not in (seconds, seconds + 1):
        raise BoardError(f"{first} moves first, so {first} has as many discs as {second} or "
                         f"one more; here {first} has {firsts} and {second} has {seconds}"
                         + ("" if first == "O" else " (write first: O if O began)"))
    won = winners(state, columns, rows, connect)
    if len(won) == 2:
        raise BoardError(f"both X and O have a line of {connect}; the game ends with the "
                         "first line, so this position cannot occur")
    mover = first if firsts == seconds else second
    if won and mover in won:
        raise BoardError(f"{mover} has a line of {connect} but is to move, so "
                         f"{other(mover)} moved after the game had ended")
    return state


class Connect4Rules(PathNames, NoisyRules):
    noisy_rules = ("threats",)

    def __init__(self, spec):
        self.columns = spec.get("columns", DEFAULT_SIZE["columns"])
        self.rows = spec.get("rows", DEFAULT_SIZE["rows"])
        self.connect = spec.get("connect", DEFAULT_SIZE["connect"])
        self.first = spec.get("first", "X")
        board = spec.get("board")
        if board is None:
            board = "/".join(["." * self.columns] * self.rows)
        self.board = read_board(board, self.columns, self.rows, self.connect, self.first)
        self.players = (self.first, other(self.first))
        self.scale = scale_of(self.columns, self.rows, self.connect)
        # One getter per window: the heuristic reads thousands of boards per search.
        self._window_cells = [itemgetter(*window) for window in
                              windows(self.columns, self.rows, self.connect)]
        self._width = self.columns + 1
        self.read_noisy(spec)

    def noisy_move(self, state, action, rule):
        """``threats``: the move wins at once (the mover completes a line)."""
        return self.to_move(state) in self._winners(self.result(state, action))

    def initial_state(self):
        return self.board

    def to_move(self, state):
        first, second = self.players
        return first if state.count(first) == state.count(second) else second

    def _winners(self, state):
        return winners(state, self.columns, self.rows, self.connect)

    def actions(self, state):
        if self.is_terminal(state):
            return []
        return [column for column in range(self.columns) if state[column] == "."]

    def result(self, state, action):
        if action not in self.actions(state):
            raise ValueError(f"{action!r} is not a legal move in {state!r}; "
                             f"legal moves (columns): {self.actions(state)!r}")
        for row in range(self.rows - 1, -1, -1):
            cell = row * self._width + action
            if state[cell] == ".":
                return state[:cell] + self.to_move(state) + state[cell + 1:]
        raise AssertionError("a legal column has an empty cell")

    def is_terminal(self, state):
        return bool(self._winners(state)) or "." not in state

    def utility(self, state, player):
        self._check_player(player)
        if not self.is_terminal(state):
            raise ValueError(f"utility() asked of {state!r}, which is not a terminal state")
        won = self._winners(state)
        if not won:
            return 0
        return 1 if player in won else -1

    def evaluate(self, state, player):
        """The window count (module docstring), from ``player``'s view, in (-1, 1)."""
        self._check_player(player)
        return self.window_score(state, player) / self.scale

    def window_score(self, state, player):
        """The heuristic's whole-number sum before scaling."""
        opponent = other(player)
        score = 0
        for cells_of in self._window_cells:
            cells = cells_of(state)
            own, theirs = cells.count(player), cells.count(opponent)
            if own and not theirs:
                score += 4 ** (own - 1)
            elif theirs and not own:
                score -= 4 ** (theirs - 1)
        return score

    def _check_player(self, player):
        if player not in PLAYERS:
            raise ValueError(f"unknown player {player!r}; the players are 'X' and 'O'")
