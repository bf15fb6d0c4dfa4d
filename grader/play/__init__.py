"""Grading by play (issue 13): matches, ratings and the class tournament.

Parent side: ``referee.py`` plays one game (or a pair with the seats swapped) of a registered
two-player game and keeps its replay; ``players.py`` has the players: a student's search in
its own sandboxed child (``SandboxedPlayer``, the ``play`` calling convention,
``grader/conventions/play.py``) and the built-in baselines, trusted code that runs here.
``series.py`` is what the ``match`` and ``rating`` checks ask the grading to play,
``sprt.py`` when a match may stop early, ``ratings.py`` the ratings with intervals, and
``schedule.py`` and ``tournament.py`` the class tournament (``grader tournament``).
The flow is one-way: the child answers each "your move" with plain JSON, validated once at
the boundary (``grader.sandbox.boundary``); the referee alone keeps the game's state.
"""

from .players import (AlphaBetaPlayer, GreedyPlayer, Move, RandomPlayer, SandboxedPlayer,
                      baseline)
from .referee import (GameResult, Limits, PairResult, play_game, play_pair, random_opening,
                      replay)

__all__ = ["AlphaBetaPlayer", "GreedyPlayer", "Move", "RandomPlayer", "SandboxedPlayer",
           "baseline", "GameResult", "Limits", "PairResult", "play_game", "play_pair",
           "random_opening", "replay"]
