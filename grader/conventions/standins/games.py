"""A stand-in for the ``games`` module of AIMA's Python code (``aimacode/aima-python``), for a
student's file that imports from it (``from games import Game, GameState``) while the searches
it is graded on live elsewhere.  Where the student's own file is ``games.py`` (the textbook's
exercise), that file is imported and this one is never seen.

Working for real: ``GameState`` and ``StochasticGameState`` (the named tuples), ``Game`` and
``StochasticGame`` (the base classes, with their default ``terminal_test``, ``to_move``,
``display`` and ``play_game``), ``Fig52Game`` (the tree of the textbook's Figure 5.2),
``TicTacToe``, ``ConnectFour`` and ``Gomoku`` (``k`` in a row on an ``h`` x ``v`` board, moves
``(x, y)`` from 1), ``random_player``.  Stubs, which stop the function that uses them with a
clear message: the searches and the players built on them (``minmax_decision``,
``alpha_beta_search``, ``alpha_beta_cutoff_search``, ``expect_minmax`` ...: they are the
exercise), ``query_player`` (nobody answers input during grading), ``Fig52Extended`` and
``Backgammon``; and any other name the original defines.

Written for this grader from the original's interface; not a copy of it.  Runs in the child,
next to student code: standard library only.
"""

import random
from collections import namedtuple

from grader.conventions.stubs import (stub_class as _stub_class,
                                      stub_function as _stub_function)

GameState = namedtuple("GameState", "to_move, utility, board, moves")
StochasticGameState = namedtuple("StochasticGameState", "to_move, utility, board, moves, chance")

_EXERCISE = "the searches are the exercise: write them in your own file"
for _name in ("minmax_decision", "expect_minmax", "alpha_beta_search",
              "alpha_beta_cutoff_search", "alpha_beta_player", "minmax_player",
              "expect_minmax_player", "monte_carlo_tree_search", "mcts_player",
              "alphabeta_player", "minimax_decision", "alphabeta_search",
              "alphabeta_full_search"):
    globals()[_name] = _stub_function("games", _name, _EXERCISE)
query_player = _stub_function("games", "query_player", "Nobody answers input during grading.")


def random_player(game, state):
    """A legal move of ``state`` at random (None where there is none)."""
    moves = game.actions(state)
    return random.choice(moves) if moves else None


class Game:
    """A game: subclasses give ``actions``, ``result``, ``utility`` and ``initial``; the
    terminal test defaults to "no actions", the player to move to ``state.to_move``."""

    def actions(self, state):
        raise NotImplementedError

    def result(self, state, move):
        raise NotImplementedError

    def utility(self, state, player):
        raise NotImplementedError

    def terminal_test(self, state):
        return not self.actions(state)

    def to_move(self, state):
        return state.to_move

    def display(self, state):
        print(state)

    def __repr__(self):
        return f"<{type(self).__name__}>"

    def play_game(self, *players):
        """The players move in turn from ``initial``; the first mover's utility at the end."""
        state = self.initial
        while True:
            for player in players:
                state = self.result(state, player(self, state))
                if self.terminal_test(state):
                    self.display(state)
                    return self.utility(state, self.to_move(self.initial))


class StochasticGame(Game):
    """A game with chance events before each move: ``chances``, ``outcome``, ``probability``."""

    def chances(self, state):
        raise NotImplementedError

    def outcome(self, state, chance):
        raise NotImplementedError

    def probability(self, chance):
        raise NotImplementedError

    def play_game(self, *players):
        state = self.initial
        while True:
            for player in players:
                state = self.outcome(state, random.choice(self.chances(state)))
                state = self.result(state, player(self, state))
                if self.terminal_test(state):
                    self.display(state)
                    return self.utility(state, self.to_move(self.initial))


class Fig52Game(Game):
    """The two-ply tree of the textbook's Figure 5.2: MAX at A, MIN at B, C and D."""

    succs = {"A": {"a1": "B", "a2": "C", "a3": "D"},
             "B": {"b1": "B1", "b2": "B2", "b3": "B3"},
             "C": {"c1": "C1", "c2": "C2", "c3": "C3"},
             "D": {"d1": "D1", "d2": "D2", "d3": "D3"}}
    utils = {"B1": 3, "B2": 12, "B3": 8, "C1": 2, "C2": 4, "C3": 6, "D1": 14, "D2": 5, "D3": 2}
    initial = "A"

    def actions(self, state):
        return list(self.succs.get(state, {}))

    def result(self, state, move):
        return self.succs[state][move]

    def utility(self, state, player):
        return self.utils[state] if player == "MAX" else -self.utils[state]

    def terminal_test(self, state):
        return state not in self.succs

    def to_move(self, state):
        return "MIN" if state in ("B", "C", "D") else "MAX"


class TicTacToe(Game):
    """``k`` in a row on an ``h`` x ``v`` board; X moves first.  A state is a ``GameState``:
    the player to move, the utility for X so far (1, -1 or 0), the board as a dict
    ``{(x, y): player}`` and the free squares ``(x, y)``, counted from 1."""

    def __init__(self, h=3, v=3, k=3):
        self.h, self.v, self.k = h, v, k
        squares = [(x, y) for x in range(1, h + 1) for y in range(1, v + 1)]
        self.initial = GameState(to_move="X", utility=0, board={}, moves=squares)

    def actions(self, state):
        return state.moves

    def result(self, state, move):
        if move not in state.moves:
            return state          # not a free square: nothing happens
        board = dict(state.board)
        board[move] = state.to_move
        return GameState(to_move="O" if state.to_move == "X" else "X",
                         utility=self.compute_utility(board, move, state.to_move),
                         board=board, moves=[m for m in state.moves if m != move])

    def utility(self, state, player):
        return state.utility if player == "X" else -state.utility

    def terminal_test(self, state):
        return state.utility != 0 or not state.moves

    def display(self, state):
        for x in range(1, self.h + 1):
            print(" ".join(state.board.get((x, y), ".") for y in range(1, self.v + 1)))

    def compute_utility(self, board, move, player):
        """+1 if this move makes a line for X, -1 for O, else 0."""
        if any(self.k_in_row(board, move, player, direction)
               for direction in ((0, 1), (1, 0), (1, -1), (1, 1))):
            return 1 if player == "X" else -1
        return 0

    def k_in_row(self, board, move, player, delta_x_y):
        """Whether the line through ``move`` in direction ``delta_x_y`` has ``k`` of
        ``player``'s marks."""
        dx, dy = delta_x_y
        length = -1                   # the move itself is counted from both sides
        for sign in (1, -1):
            x, y = move
            while board.get((x, y)) == player:
                length += 1
                x, y = x + sign * dx, y + sign * dy
        return length >= self.k


class ConnectFour(TicTacToe):
    """Tic-tac-toe in which a mark drops: on the bottom row or right above another mark."""

    def __init__(self, h=7, v=6, k=4):
        super().__init__(h, v, k)

    def actions(self, state):
        return [(x, y) for (x, y) in state.moves if x == self.h or (x + 1, y) in state.board]


class Gomoku(TicTacToe):
    """Five in a row on a large board."""

    def __init__(self, h=15, v=16, k=5):
        super().__init__(h, v, k)


Fig52Extended = _stub_class("games", "Fig52Extended", ("actions", "result", "utility",
                                                       "terminal_test", "to_move"),
                            base=Game)
Backgammon = _stub_class("games", "Backgammon", ("actions", "result", "utility",
                                                 "terminal_test", "chances", "outcome",
                                                 "probability"), base=StochasticGame)


def __getattr__(attribute):
    """Any other public name of the original: importable, and unavailable when used."""
    if attribute.startswith("__"):
        raise AttributeError(attribute)
    stub = _stub_function("games", attribute)
    globals()[attribute] = stub
    return stub
