"""Matches between players (issue 13, first step): the referee, the players and replays.

Parent side: ``referee.py`` plays one game (or a pair with the seats swapped) of a registered
two-player game and keeps its replay; ``players.py`` has the players: a student's search in
its own sandboxed child (``SandboxedPlayer``, the ``play`` calling convention,
``grader/conventions/play.py``) and the built-in baselines, trusted code that runs here.
The flow is one-way: the child answers each "your move" with plain JSON, validated once at
the boundary (``grader.boundary``); the referee alone keeps the game's state.
"""

from .players import (AlphaBetaPlayer, GreedyPlayer, Move, RandomPlayer, SandboxedPlayer,
                      baseline)
from .referee import (GameResult, Limits, PairResult, play_game, play_pair, random_opening,
                      replay)

__all__ = ["AlphaBetaPlayer", "GreedyPlayer", "Move", "RandomPlayer", "SandboxedPlayer",
           "baseline", "GameResult", "Limits", "PairResult", "play_game", "play_pair",
           "random_opening", "replay"]
