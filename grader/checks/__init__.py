"""Check kinds: what a check needs run, and its verdict as a pure function.

One module per kind, registered in ``KINDS``.  A kind module provides

* ``KIND`` and ``OPTIONS`` (the option names a task file may set),
* ``applies_to(reference)``: which functions it can check, by their model solution's name,
* ``parse_options(item, context, line) -> dict``: options from the task file, reporting
  problems through ``context.problem``,
* ``calls(task, check) -> list[Call]``: the runs of student code it needs,
* ``judge(check, observations, answers) -> Verdict``: pure, no processes, no I/O.

A kind that grades by play also provides ``series(task, check)``: the games the grading plays
with the submission's run (``grader.play.series``), whose records follow the calls'
observations in ``judge``'s ``observations``; and may provide ``points_of(options)``, the
check's points where the task file gives none (``match``: its last threshold's).  It may
also provide ``reference_games(task, check)``: games between baselines only, which the answer
book plays once per task, as a reference answer (``rating``: the baselines' round robin); their
records follow the calls' answers in ``judge``'s ``answers``.

A kind whose judge needs the model solutions (an answer that depends on what the student
returned) sets ``JUDGED_WITH_REFERENCE = True``: a self-check kit has no ``reference`` and
leaves such checks out, counting them with the checks run only at hand-in.  Every other kind
sets ``SEALED_PARTS``: what a self-check kit keeps, as digests, of the answers its judge
compares with (``grader.answers.sealed``); its judge then reads sealed answers there, and the facts
that follow from the input alone (``answers.public.public_facts``).

Verdicts (``verdict.py``) carry a message key and facts, never prose: the words live in the
message catalogue.  Kind modules import ``verdict`` and ``common``, never this registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..yamlsrc import Problem
from . import (action, count, evaluate, hand_cuts, hand_intervals, hand_move, hand_order,
               hand_returns, hand_values, hand_visited, horizon, hygiene, iteration_visits,
               iterations, line, match, ordering, quiescence, random_trees, rating, table, value,
               visited, window)


@dataclass
class TaskContext:
    """What a check kind may look at while its options are read."""

    task_id: str
    game: str
    game_spec: str | None
    functions: tuple
    depth: int | None
    file: str
    problems: list = field(default_factory=list)
    convention: str = "game"
    references: dict = field(default_factory=dict)   # function -> model solution
    evaluation: str | None = None     # the task's "module.function" of the student's heuristic
    players: tuple | None = None      # the task's players cycle, where it names one
    warnings: list = field(default_factory=list)   # Problems that do not stop the course

    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.file, line, message))

    def warn(self, line: int, message: str) -> None:
        """Something a course may mean, but should know of: ``grader validate`` and ``grader
        grade`` print it as ``warning: file:line: ...``."""
        self.warnings.append(Problem(self.file, line, message))


# One registration per kind, in the order the check-kind reference lists them: the searches,
# the techniques after alpha-beta, grading by play (issue 13), hand exercises (issue 26).
KINDS = {module.KIND: module for module in (
    value, action, visited, count, evaluate, random_trees, horizon, hygiene,
    ordering, quiescence, table, window, iterations, iteration_visits, line,
    match, rating,
    hand_values, hand_intervals, hand_returns, hand_cuts, hand_visited, hand_order, hand_move)}
