"""Who plays a class tournament, and how: the setup every game shares (``Setup``), the
players (``Entrant``: a baseline by its name, or a submission's staged copy), both made from a
course and a submissions folder (``playable_task``, ``setup_from_task``, ``stage_entrants``).
Plain data, sent to every arena (``arena.py``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .schedule import ROUNDED, SCHEDULES


class TournamentError(Exception):
    """The tournament cannot run as asked (no playable task, a journal of another
    tournament); the message says what to do."""


@dataclass(frozen=True)
class Setup:
    """What every game of the tournament shares: plain data, sent to every arena."""

    title: str
    language: str
    task: str
    spec: dict
    module: str
    function: str
    depth: int | None
    evaluation: str | None
    move_seconds: float
    game_seconds: float
    opening: int = 2
    seed: int = 1
    pairs: int = 1
    schedule: str = "round-robin"
    rounds: int = 0              # rounds of a Swiss or sampled schedule (0: a round robin)
    level: str = "bubblewrap"

    def __post_init__(self):
        if self.schedule not in SCHEDULES:
            raise TournamentError(f"unknown schedule {self.schedule!r}; the schedules are "
                                  f"{', '.join(SCHEDULES)}")
        if self.pairs < 1:
            raise TournamentError("--pairs must be at least 1")
        if self.schedule in ROUNDED and self.rounds < 1:
            raise TournamentError(f"a {self.schedule} schedule needs --rounds of at least 1")

    def pair_seed(self, pair: int) -> str:
        """The opening of pair ``pair``: the same for every matchup (module docstring of
        ``grader.play.schedule``)."""
        return f"{self.seed}/{pair}"


@dataclass(frozen=True)
class Entrant:
    """A player: a baseline by its name, or a submission's staged copy (``folder``)."""

    id: str
    kind: str                     # "submission" | "baseline"
    folder: str | None = None
    display: str | None = None
    content: str | None = None    # the staged copy's content hash (the journal's fingerprint)

    def describe(self, setup: Setup) -> dict:
        if self.kind == "baseline":
            from .players import baseline
            return {"id": self.id, "name": self.id, **baseline(self.id).describe()}
        return {"id": self.id, "name": self.display or self.id, "kind": "submission",
                "search": f"{setup.module}.{setup.function}", "depth": setup.depth,
                "evaluation": setup.evaluation}


def playable_task(course, task_id: str | None = None):
    """The task whose game the tournament plays: ``task_id``, else the first task with a
    match check, else the only task of a game two players play."""
    from ..checks.common import SEARCH_FUNCTIONS, VECTOR_SEARCHES

    def playable(task) -> bool:
        return (task.convention == "game" and task.game_spec is not None
                and task.game not in ("tree", "none")
                and any(f in SEARCH_FUNCTIONS and f not in VECTOR_SEARCHES
                        for f in task.functions))
    if task_id is not None:
        task = next((t for t in course.tasks if t.id == task_id), None)
        if task is None:
            raise TournamentError(f"no task {task_id!r}; the tasks are "
                                  f"{', '.join(t.id for t in course.tasks)}")
        if not playable(task):
            raise TournamentError(f"task {task_id!r} sets no search of a game two players "
                                  "play (game convention, e.g. alphabeta on connect4)")
        return task
    with_match = [t for t in course.tasks if playable(t)
                  and any(c.kind == "match" for c in t.checks)]
    candidates = with_match or [t for t in course.tasks if playable(t)]
    if not candidates:
        raise TournamentError("no task of these task files sets a search of a game two "
                              "players play; name one with --task")
    if not with_match and len(candidates) > 1:
        raise TournamentError("several tasks could be played: name one with --task ("
                              + ", ".join(t.id for t in candidates) + ")")
    return candidates[0]


def setup_from_task(course, task, *, schedule: str = "round-robin", rounds: int = 0,
                    pairs: int = 1, opening: int | None = None, seed: int | None = None,
                    move_seconds: float | None = None, game_seconds: float | None = None,
                    level: str = "bubblewrap") -> Setup:
    """The tournament's setup from the task's game, depth, search and evaluation; opening,
    seed and limits default to the task's first match check's, else to 2 plies, seed 1,
    the task's ``call_seconds`` per move and 30 moves' worth per game."""
    from ..checks.common import SEARCH_FUNCTIONS, VECTOR_SEARCHES
    from ..checks.match import DEPTH_NEEDED
    from ..games import make_rules
    from .referee import two_players
    match = next((c for c in task.checks if c.kind == "match"), None)
    function = (match.function if match is not None else
                next(f for f in task.functions
                     if f in SEARCH_FUNCTIONS and f not in VECTOR_SEARCHES))
    spec = json.loads(task.game_spec)
    try:
        two_players(make_rules(spec), spec)
    except ValueError as error:
        raise TournamentError(f"task {task.id!r}: {error}") from None
    if task.game in DEPTH_NEEDED and task.depth is None:
        raise TournamentError(f"task {task.id!r} sets no depth: a search of {task.game} to "
                              "the end of the game does not finish a move")

    def of_match(name, default):
        value = match.option(name) if match is not None else None
        return default if value is None else value
    move = move_seconds or of_match("move_seconds", task.limits.call_seconds)
    game = game_seconds or of_match("game_seconds", None) or 30 * move
    return Setup(title=course.title, language=course.language, task=task.id, spec=spec,
                 module=task.module_of(function), function=function, depth=task.depth,
                 evaluation=task.evaluation, move_seconds=float(move),
                 game_seconds=float(max(game, move)),
                 opening=of_match("opening", 2) if opening is None else opening,
                 seed=of_match("seed", 1) if seed is None else seed, pairs=pairs,
                 schedule=schedule, rounds=rounds, level=level)


def stage_entrants(root: Path, scratch: Path, modules: tuple,
                   baselines: list[str]) -> tuple[list[Entrant], list[dict]]:
    """``(entrants, left_out)``: the baselines, then every submission of ``root`` staged into
    ``scratch``; a submission that cannot be staged is left out with its problem."""
    from ..submissions.finding import find
    from ..submissions.staging import content_hash, stage
    from .players import baseline
    entrants = []
    for name in baselines:
        try:
            baseline(name)
        except ValueError as error:
            raise TournamentError(str(error)) from None
        if name not in [e.id for e in entrants]:
            entrants.append(Entrant(name, "baseline"))
    taken = {e.id for e in entrants}
    left_out = []
    for number, submission in enumerate(find(root), 1):
        staged = stage(submission, scratch / f"{number:04d}", modules)
        if staged.problem is not None:
            left_out.append({"name": submission.display, "problem": staged.problem})
            continue
        player_id = submission.student
        while player_id in taken:           # a folder named like a baseline
            player_id += "~"
        taken.add(player_id)
        entrants.append(Entrant(player_id, "submission", str(staged.folder),
                                submission.display, content_hash(staged.folder)))
    return entrants, left_out
