"""The games students search, shared by the child-side runner and the reference.

This package runs next to student code, so it must import nothing but the standard library
and its own modules (relative imports only), and it never imports ``reference``.

A game is described by a *spec*, a JSON-able dict with a ``kind`` (``tree``, ``tictactoe``,
``nim``, ``kalah``, ``connect4``, ``plugin`` for a course's own game module), so that the parent can send the very same game to a child process.  ``make_rules``
turns a spec into a rules object; ``RecordingGame`` wraps the rules in the object a student's
search receives and keeps the log of what the search visited.
"""

from .connect4 import Connect4Rules
from .kalah import KalahRules
from .nim import NimRules
from .plugin import PluginRules
from .recorder import RecordingGame
from .tictactoe import TicTacToeRules
from .tree import TreeRules

RULES = {
    "tree": TreeRules,
    "tictactoe": TicTacToeRules,
    "nim": NimRules,
    "kalah": KalahRules,
    "connect4": Connect4Rules,
    "plugin": PluginRules,      # a course's own game module (see plugin.py)
}


def make_rules(spec):
    """Build the rules object of a game spec, refusing unknown kinds."""
    kind = spec.get("kind")
    if kind not in RULES:
        raise ValueError(f"unknown game kind {kind!r}; known: {', '.join(sorted(RULES))}")
    return RULES[kind](spec)


def make_game(spec):
    """A fresh recording game and its root state, ready to hand to a search."""
    game = RecordingGame(make_rules(spec))
    return game, game.root()


__all__ = ["RULES", "make_rules", "make_game", "RecordingGame"]
