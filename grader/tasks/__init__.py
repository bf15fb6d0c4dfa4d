"""Task files (YAML) -> immutable task objects, with every error reported as ``file:line``.

A task file describes one exercise sheet::

    course:                       # optional header; defaults in brackets
      title: Blatt 3
      language: de                # [en] language of the feedback
      prune_on_equality: true     # [true] alpha-beta cuts when beta <= alpha
      limits: {call_seconds: 2, submission_seconds: 60}
      modules: {minimax: minimax, alphabeta: minimax, negamax: minimax, evaluate: evaluation}
      packages: [numpy]           # [none] third-party packages students may import
      gradescope:                 # [none] the Gradescope autograder's leaderboard columns
        leaderboard: [{name: Knoten, value: visited, check: ttt/alphabeta/count}]
    tasks:
      - id: tree-blatt3
        title: Minimax am Baum
        game: tree                # tree | tictactoe | nim | kalah | connect4 | none | a module .py
        tree: {A: {B: [8, 7, 3], C: [2, 4]}}
        functions: [minimax, alphabeta]
        depth: 2                  # optional: depth-limited search, passed after (game, state)
        # heuristic: tictactoe-lines   # a game's heuristic at the horizon (see heuristic_spec)
        # evaluation: evaluation.evaluate  # match checks: the student's own heuristic plays
        # noisy: captures         # quiescence search: the game's rule of noisy positions
        # extension: 2            # [2] plies a noisy position extends the horizon (quiet_rule)
        checks:
          - {kind: value, points: 1}                       # for every function of the task
          - {kind: visited, function: alphabeta, points: 2, visibility: hidden}
        expect:                   # optional pins, verified by `grader validate`
          alphabeta: {value: 3, action: B, visited: 16, pruned: [D2, D3]}
      - id: three-player          # an n-player tree: utility vectors at the leaves
        game: tree
        players: [A, B, C]        # one per ply, cycling (CHANCE for chance nodes)
        ties: first               # max^n's tie rule: first | spiteful | generous
        alliances: [[A], [B, C]]  # optional: a coalition maximises its members' sum
        tree: {R: {X: ["(1, 2, 6)", "(4, 2, 3)"], Y: ["(6, 1, 2)", "(7, 4, 1)"]}}
        functions: [maxn]         # or minimax/alphabeta/... with paranoid: A

``load_course(path)`` reads a file or every ``*.yaml`` in a folder and returns a ``Course``,
or raises ``TaskFileError`` listing *every* problem found, before any grading starts.

The package, in the order a task file flows through it:

* ``model``: the frozen objects a task file becomes (``Course``, ``Task``, ``Check``, ...) and
  the words they are made of; it imports no check kind and no part of the loader, so that
  everything downstream of a task can use them;
* ``schema``: every key a task file may set, as JSON Schema (the check kinds' ``OPTIONS``
  included); ``validate`` applies it to a located YAML value; ``grader schema`` publishes it
  (``task-file.schema.json``, beside this file);
* ``sheet``: one file being read, where its problems go;
* the readers of the sections: ``header`` (``course:``), ``task``, ``game`` and ``tree`` (a
  task's game and position), ``check_items`` (its ``checks:`` and ``expect:``); a hand
  exercise's ``answers:`` and ``variants:`` are read by ``grader/hand/taskfile.py``;
* ``loader``: ``load_course``, a course's files read and checked together.

YAML itself, with the line of every value and bounds against hostile files, is
``grader/yamlsrc.py``.
"""

from __future__ import annotations

from ..checks.common import SEARCH_FUNCTIONS
from ..yamlsrc import Problem, parse_number
from .loader import load_course, task_files
from .model import (CONVENTIONS, DEFAULT_MODULES, DEFAULT_REFERENCES, GAMES, HEURISTIC_GAMES,
                    LANGUAGES, LEADERBOARD_VALUES, PLAYERS, TASK_ID, TIE_RULES, VISIBILITIES,
                    Check, Course, LeaderboardColumn, Limits, Provided, Task, TaskFileError)

__all__ = ["CONVENTIONS", "DEFAULT_MODULES", "DEFAULT_REFERENCES", "GAMES", "HEURISTIC_GAMES",
           "LANGUAGES", "LEADERBOARD_VALUES", "PLAYERS", "SEARCH_FUNCTIONS", "TASK_ID",
           "TIE_RULES", "VISIBILITIES", "Check", "Course", "LeaderboardColumn", "Limits",
           "Problem", "Provided", "Task", "TaskFileError", "load_course", "parse_number",
           "task_files"]
