"""The games students search, shared by the child-side runner and the reference.

This package runs next to student code, so it must import nothing but the standard library
and its own modules (relative imports only), and it never imports ``reference``.

A game is described by a *spec*, a JSON-able dict with a ``kind`` (``tree``, ``tictactoe``,
``nim``, ``kalah``, ``connect4``, ``plugin`` for a course's own game module), so that the parent can send the very same game to a child process.  ``make_rules``
turns a spec into a rules object; ``RecordingGame`` wraps the rules in the object a student's
search receives and keeps the log of what the search visited.
"""

import importlib

from .recorder import RecordingGame

# kind -> (module, class): each game's module is imported when a game of its kind is first
# made, so that a child searching trees never imports Connect Four's tables and what they
# import (``functools``, ``collections``, ``operator``: a tenth of a child's start).
_RULE_CLASSES = {
    "tree": ("tree", "TreeRules"),
    "tictactoe": ("tictactoe", "TicTacToeRules"),
    "nim": ("nim", "NimRules"),
    "kalah": ("kalah", "KalahRules"),
    "connect4": ("connect4", "Connect4Rules"),
    "plugin": ("plugin", "PluginRules"),      # a course's own game module (see plugin.py)
}
# How a game's module is imported: the child-side runner sets its own (``set_importer``),
# which imports as at its start, whatever standard module names the student's folder holds.
_importer = importlib.import_module


def set_importer(importer):
    """``importer(name)`` imports the game modules from now on (the runner's
    ``grader.conventions.standard.standard_module``)."""
    global _importer
    _importer = importer


class _Rules:
    """The rules classes by kind (a read-only mapping), each imported on first use."""

    def __init__(self):
        self._loaded = {}

    def __getitem__(self, kind):
        found = self._loaded.get(kind)
        if found is None:
            module, name = _RULE_CLASSES[kind]
            found = self._loaded[kind] = getattr(_importer(f"{__name__}.{module}"), name)
        return found

    def __contains__(self, kind):
        return kind in _RULE_CLASSES

    def __iter__(self):
        return iter(_RULE_CLASSES)

    def get(self, kind, default=None):
        return self[kind] if kind in _RULE_CLASSES else default

    def items(self):
        return [(kind, self[kind]) for kind in _RULE_CLASSES]


RULES = _Rules()


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


__all__ = ["RULES", "make_rules", "make_game", "set_importer", "RecordingGame"]
