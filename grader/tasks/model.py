"""What a task file becomes: frozen, comparable task objects, and the words they are made of.

``Course`` holds ``Task``s, each with its ``Check``s, ``Limits`` and pins; ``Provided`` and
``LeaderboardColumn`` come from the course header.  The tuples of allowed words (``GAMES``,
``CONVENTIONS``, ``VISIBILITIES``, ...) are the ones the schema (``grader.tasks.schema``) offers
and the readers accept.

This module is the floor of the task package: it imports no check kind, no reference answer
and no part of the loader, so that everything downstream of a task (answers, checks, reports)
can use these objects without pulling the loader in.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from typing import Any

from ..yamlsrc import Problem

DEFAULT_MODULES = {"minimax": "minimax", "alphabeta": "minimax", "negamax": "minimax",
                   "evaluate": "evaluation",
                   # AIMA's games.py (the aima convention)
                   "minmax_decision": "games", "alpha_beta_search": "games",
                   "alpha_beta_cutoff_search": "games"}
GAMES = ("tree", "tictactoe", "nim", "kalah", "connect4", "none")
# Games whose rules look the heuristic up in a table (grader.answers.heuristics), by a task's
# heuristic:
HEURISTIC_GAMES = ("tictactoe",)
CONVENTIONS = ("game", "helpers", "negamax-sign", "multi-agent", "aima")
# Student functions whose model solution goes without saying.
DEFAULT_REFERENCES = {"Value": "negamax", "MinimaxAgent": "minimax",
                      "AlphaBetaAgent": "alphabeta", "ExpectimaxAgent": "expectimax",
                      "minmax_decision": "minimax", "alpha_beta_search": "alphabeta",
                      "alpha_beta_cutoff_search": "alphabeta"}
PLAYERS = ("MAX", "MIN", "CHANCE")
# How max^n picks among children that are equally good for the player to move (see
# reference/search.py maxn): the first in action order, or the one worst (spiteful) or best
# (generous) for the other players together.
TIE_RULES = ("first", "spiteful", "generous")
PLAYER_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
LANGUAGES = ("de", "en")
VISIBILITIES = ("visible", "hidden", "after_due")
# What a Gradescope leaderboard column can show, and its default order (desc: higher ranks
# higher): the total points, one task's points, the nodes the student's search visited in one
# count check, the grading time.
LEADERBOARD_VALUES = {"score": "desc", "task": "desc", "visited": "asc", "seconds": "asc"}
TASK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
# What ``expect:`` may pin of a search (the techniques' pins: grader.answers.pins.TECHNIQUE_PINS).
SEARCH_PINS = ("value", "action", "visited", "pruned")


class TaskFileError(Exception):
    """Every problem of a course's task files (``file:line: what is wrong``, and what to do),
    raised before any grading starts."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True)
class Limits:
    call_seconds: float = 2.0
    submission_seconds: float = 60.0


@dataclass(frozen=True)
class Check:
    id: str                  # unique in the course, e.g. "tree-blatt3/alphabeta/visited"
    task_id: str
    kind: str
    function: str
    points: float
    visibility: str
    options: tuple           # sorted (name, value) pairs, values JSON-able
    file: str
    line: int

    def option(self, name: str, default: Any = None) -> Any:
        return dict(self.options).get(name, default)


@dataclass(frozen=True)
class Task:
    id: str
    title: str
    file: str
    line: int
    game: str                # one of GAMES
    game_spec: str | None    # canonical JSON of the game spec, None for game "none"
    functions: tuple
    depth: int | None
    prune_on_equality: bool
    modules: tuple           # (function, module) pairs
    references: tuple        # (function, reference name) pairs
    limits: Limits
    checks: tuple
    pins: tuple              # (function, ((field, value, line), ...), line)
    due: datetime.datetime | None = None   # after_due checks stay hidden until then
    convention: str = "game"                # how the student's search functions are called
    heuristic: str | None = None            # reference evaluation tabulated at the horizon
    evaluation: str | None = None           # "module.function": the student's own heuristic
    answers: str | None = None              # a hand exercise's answer file (grader/hand)
    variants: str | None = None             # its per-student trees (canonical JSON)

    def module_of(self, function: str) -> str:
        return dict(self.modules)[function]

    def reference_of(self, function: str) -> str:
        return dict(self.references).get(function, function)

    @property
    def max_score(self) -> float:
        return sum(check.points for check in self.checks)


@dataclass(frozen=True)
class LeaderboardColumn:
    """One column of the Gradescope autograder's leaderboard (``course: gradescope:
    leaderboard:``); what it shows is in ``LEADERBOARD_VALUES``."""
    name: str
    value: str
    order: str               # "desc" (higher ranks higher) or "asc"
    of: str | None           # the task's id (value "task"), the count check's (value "visited")
    file: str
    line: int


@dataclass(frozen=True)
class Provided:
    """A module the course ships to every submission (``provides: [utils.py]``): imported by
    the student's code as ``name``, from ``source`` (never written into the submission)."""
    name: str
    source: str
    path: str                # the file it was read from
    written: str             # that path as the task file writes it (relative to the file)
    file: str                # the task file that provides it, and its line
    line: int


@dataclass(frozen=True)
class Course:
    title: str
    language: str
    files: tuple
    tasks: tuple = field(default_factory=tuple)
    packages: tuple = ()     # distributions students may import (see grader/sandbox/packages.py)
    leaderboard: tuple = ()  # LeaderboardColumn: Gradescope's leaderboard, in file order
    warnings: tuple = ()     # Problems that do not stop grading, printed as warnings
    # Modules the course ships to every submission (``provides:``): Provided, by name
    provided: tuple = ()
    provided_wins: bool = True   # over a submission's own file of the same name

    @property
    def max_score(self) -> float:
        return sum(task.max_score for task in self.tasks)

    @property
    def visible_checks(self) -> tuple:
        """The checks a student's self-check runs (hidden and after-due ones are not)."""
        return tuple(c for task in self.tasks for c in task.checks if c.visibility == "visible")

    @property
    def hidden_count(self) -> int:
        """How many checks a self-check only counts."""
        return sum(len(task.checks) for task in self.tasks) - len(self.visible_checks)

    @property
    def source_files(self) -> tuple:
        """The files a grade depends on besides the submission: the task files and the
        modules the course provides (``--resume`` grades again when one changes)."""
        return tuple(self.files) + tuple(module.path for module in self.provided)

    @property
    def modules(self) -> tuple:
        """The module names its tasks import from a submission, sorted (for staging)."""
        return tuple(sorted({module for task in self.tasks for _, module in task.modules}
                            | {task.evaluation.partition(".")[0] for task in self.tasks
                               if task.evaluation}))

    def task(self, task_id: str) -> Task:
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise KeyError(task_id)
