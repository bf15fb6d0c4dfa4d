"""A class tournament (``grader tournament``): every submission's search with its evaluation
function, and the built-in baselines, play each other; the games are rated with
uncertainty and written as a leaderboard, ``ratings.csv`` and one page per player.

The flow:

1. **Players.** Each submission is staged into a private copy (``grader.submissions.stage``:
   the one place that opens what students handed in); one whose copy cannot be made is left
   out and listed.  The baselines (``grader.play.players.baseline``) join by name.
2. **Schedule** (``grader.play.schedule``): a round robin, Swiss rounds, or rounds of
   random opponents.
3. **Games.** Each matchup is one pair of games (``grader.play.referee.play_pair``), played by
   an *arena*: a process that keeps each player's sandboxed child (``SandboxedPlayer``) for
   the matchups it plays there (the child is restarted after a crash or timeout, as in
   grading).  ``--jobs N`` runs N arenas in worker processes; the referee and the baselines
   are Python in the arena, the students' searches run in their children.
4. **Journal.** Every finished matchup's games are appended to ``OUT/games.jsonl`` at once
   (flushed and synced), after a first line that fingerprints the tournament (the task
   files, the players' content, the options).  ``--resume`` reads it and plays only the
   matchups not in it; a journal of a different tournament is refused, not mixed in.
5. **Ratings** (``grader.play.ratings.rate``) from all games in the schedule's order (not the
   order they finished in), so the same games always give the same ratings.
6. **Reports** (``grader.report.tournament``): ``leaderboard.html``, ``ratings.csv``,
   ``players/*.html``, and ``tournament.json``: the record they are made from.

A player that crashes, hangs or answers an illegal move loses that game, with the reason in
its replay; the tournament goes on.  A matchup the arena itself fails on (a bug, a worker
that died) is listed as an error and not rated; ``--resume`` tries it again.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .referee import POINTS
from .schedule import (ROUNDED, SCHEDULES, Matchup, round_robin, swiss_round,
                       swiss_sitting_out)

TOURNAMENT_FORMAT = "gametree-grader tournament 1"
JOURNAL_FORMAT = "gametree-grader tournament journal 1"
JOURNAL = "games.jsonl"
RECORD = "tournament.json"
# Children an arena keeps alive at once; the least recently used one is stopped beyond.
ARENA_CHILDREN = 8
# A pool whose workers die (killed from outside) is made again this often, then the
# matchups left are listed as errors (``--resume`` plays them later).
POOL_BREAKS = 3


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


# -- the arena: plays matchups, in this process or in a worker --------------------------------

class Arena:
    """Plays matchups with the players' children kept between them (module docstring)."""

    def __init__(self, setup: Setup, entrants: list[Entrant], copies: Path | None = None):
        from ..sandbox.staging import stage_runner
        self.copies = copies             # the players' copies this arena owns (a cluster's)
        self.setup = setup
        self.entrants = {entrant.id: entrant for entrant in entrants}
        self.scratch = Path(tempfile.mkdtemp(prefix="grader-arena-"))
        self.child_script = stage_runner(self.scratch / "runner")
        self.players: dict = {}          # id -> player, the most recently used last

    def player(self, player_id: str):
        from .players import SandboxedPlayer, baseline
        if player_id in self.players:
            self.players[player_id] = self.players.pop(player_id)
            return self.players[player_id]
        entrant = self.entrants[player_id]
        if entrant.kind == "baseline":
            player = baseline(entrant.id)
        else:
            setup = self.setup
            sandboxed = [k for k, p in self.players.items() if isinstance(p, SandboxedPlayer)]
            if len(sandboxed) >= ARENA_CHILDREN:
                self.players.pop(sandboxed[0]).close()      # the least recently used
            budget = setup.game_seconds * 2 * setup.pairs * max(1, len(self.entrants)) + 60
            player = SandboxedPlayer(Path(entrant.folder), self.child_script,
                                     module=setup.module, function=setup.function,
                                     depth=setup.depth, evaluation=setup.evaluation,
                                     level=setup.level, name=entrant.id,
                                     session_seconds=budget, workdir=self.scratch)
        self.players[player_id] = player
        return player

    def play(self, matchup: Matchup) -> dict:
        """``{"games": [replay, replay]}``, or ``{"error": text}`` where the arena failed."""
        from .referee import Limits, play_pair
        setup = self.setup
        try:
            result = play_pair(setup.spec, self.player(matchup.a), self.player(matchup.b),
                               setup.pair_seed(matchup.pair), opening=setup.opening,
                               limits=Limits(setup.move_seconds, setup.game_seconds))
            return {"games": [game.replay for game in result.games]}
        except Exception:       # the arena's own failure, never a player's: listed, not rated
            return {"error": traceback.format_exc(limit=8)}

    def close(self) -> None:
        for player in self.players.values():
            try:
                player.close()
            except Exception:
                pass
        self.players.clear()
        shutil.rmtree(self.scratch, ignore_errors=True)
        if self.copies is not None:
            shutil.rmtree(self.copies, ignore_errors=True)


_ARENA: Arena | None = None


def _start_arena(setup: dict, entrants: list[dict]) -> None:
    """A worker process's initializer: its arena, closed when the worker ends."""
    import multiprocessing.util
    import signal
    global _ARENA
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # the tournament process stops us
    _ARENA = Arena(Setup(**setup), [Entrant(**e) for e in entrants])
    multiprocessing.util.Finalize(None, _ARENA.close, exitpriority=10)


def _play_in_worker(matchup: dict) -> dict:
    return _ARENA.play(Matchup(**matchup))


class LocalPlay:
    """Matchups played by ``jobs`` arenas: here (one job) or in worker processes."""

    def __init__(self, setup: Setup, entrants: list[Entrant], jobs: int = 1):
        self.setup, self.entrants, self.jobs = setup, entrants, max(1, jobs)
        self.arena = None
        self.pool = None

    def _make_pool(self):
        import multiprocessing
        return ProcessPoolExecutor(
            max_workers=self.jobs, mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_arena,
            initargs=(asdict(self.setup), [asdict(e) for e in self.entrants]))

    def play(self, matchups: list[Matchup]):
        """Yields ``(matchup, outcome)`` as each finishes."""
        if self.jobs == 1:
            if self.arena is None:
                self.arena = Arena(self.setup, self.entrants)
            for matchup in matchups:
                yield matchup, self.arena.play(matchup)
            return
        waiting = list(matchups)
        breaks = 0
        while waiting:
            if breaks > POOL_BREAKS:
                for matchup in waiting:
                    yield matchup, {"error": f"the worker processes died {breaks} times"}
                return
            if self.pool is None:
                self.pool = self._make_pool()
            running = {self.pool.submit(_play_in_worker, asdict(m)): m for m in waiting}
            waiting = []
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    matchup = running.pop(future)
                    try:
                        yield matchup, future.result()
                    except BrokenProcessPool:
                        # a worker died (killed from outside): the matchups it and the
                        # others held go to a new pool
                        waiting.append(matchup)
                    except Exception as error:
                        yield matchup, {"error": f"{type(error).__name__}: {error}"}
            if waiting:
                breaks += 1
                self.pool.shutdown(wait=False, cancel_futures=True)
                self.pool = None

    def close(self) -> None:
        if self.arena is not None:
            self.arena.close()
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


class ClusterPlay:
    """Matchups played by the workers of an existing Dask cluster (``--cluster ADDRESS``,
    the executor ``grader grade --cluster`` uses, ``grader.cluster``).

    The setup and the players' staged copies (as bytes, ``grader.cluster.bundle``) travel
    once to every worker (``scatter(..., broadcast=True)``); each worker thread keeps an
    arena of its own for the tournament, made on its first matchup (its players' copies
    unpacked into the arena's scratch folder) and closed when the tournament ends.  A worker
    that cannot run the tournament's sandbox level plays nothing: its matchups come back as
    errors saying why.  Results come back as they finish (``as_completed``)."""

    def __init__(self, setup: Setup, entrants: list[Entrant], address: str):
        import uuid
        from ..cluster import bundle, connect
        self.client = connect(address)
        self.tournament = uuid.uuid4().hex
        shipped = [(asdict(entrant), bundle(Path(entrant.folder))
                    if entrant.kind == "submission" else None) for entrant in entrants]
        self.shared = self.client.scatter((self.tournament, asdict(setup), shipped),
                                          broadcast=True, hash=False)

    def play(self, matchups: list[Matchup]):
        from ..cluster import _distributed
        distributed = _distributed()
        futures = {self.client.submit(_play_on_cluster, self.shared, asdict(matchup),
                                      pure=False): matchup for matchup in matchups}
        for future in distributed.as_completed(list(futures), loop=self.client.loop):
            matchup = futures[future]
            try:
                yield matchup, future.result()
            except Exception as error:      # the worker died, lost its connection, a bug
                yield matchup, {"error": f"{type(error).__name__}: {error}"}

    def close(self) -> None:
        try:
            self.client.run(_end_on_cluster, self.tournament)
        finally:
            self.client.close()


_cluster_lock = threading.Lock()
_cluster_arenas: dict = {}        # (tournament, thread) -> Arena, on a Dask worker


def _play_on_cluster(shared: tuple, matchup: dict) -> dict:
    """A Dask worker's task: one matchup, in this thread's arena for the tournament."""
    from ..cluster import _level_problem, unbundle
    tournament, setup, shipped = shared
    key = (tournament, threading.get_ident())
    with _cluster_lock:
        arena = _cluster_arenas.get(key)
    if arena is None:
        setup = Setup(**setup)
        problem = _level_problem(setup.level)
        if problem is not None:
            return {"error": f"this worker cannot play at the '{setup.level}' isolation "
                             f"level: {problem}"}
        scratch = Path(tempfile.mkdtemp(prefix="grader-arena-copies-"))
        entrants = []
        for number, (entrant, entries) in enumerate(shipped, 1):
            entrant = Entrant(**entrant)
            if entries is not None:
                folder = scratch / f"{number:04d}"
                unbundle(entries, folder)
                entrant = Entrant(entrant.id, entrant.kind, str(folder), entrant.display,
                                  entrant.content)
            entrants.append(entrant)
        arena = Arena(setup, entrants, copies=scratch)
        with _cluster_lock:
            _cluster_arenas[key] = arena
    return arena.play(Matchup(**matchup))


def _end_on_cluster(tournament: str) -> None:
    """Run on every worker when the tournament ends: its arenas and copies go."""
    with _cluster_lock:
        ended = [key for key in _cluster_arenas if key[0] == tournament]
        arenas = [_cluster_arenas.pop(key) for key in ended]
    for arena in arenas:
        arena.close()


# -- the journal ------------------------------------------------------------------------------

def fingerprint(setup: Setup, entrants: list[Entrant], tasks_hash: str) -> str:
    """What a resumed tournament must share with the journal it continues."""
    data = {"setup": {k: v for k, v in asdict(setup).items() if k != "level"},
            "players": [[e.id, e.kind, e.content] for e in entrants], "tasks": tasks_hash}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


class Journal:
    """``OUT/games.jsonl``: the fingerprint line, then one line per finished matchup."""

    def __init__(self, path: Path, fingerprint_: str, resume: bool):
        self.path = path
        self.finished: dict[str, list] = {}
        if resume and path.exists():
            self._read(fingerprint_)
            self.handle = open(path, "a", encoding="utf-8")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.handle = open(path, "w", encoding="utf-8")
            self._write({"format": JOURNAL_FORMAT, "fingerprint": fingerprint_})

    def _read(self, fingerprint_: str) -> None:
        lines = self.path.read_text(encoding="utf-8").splitlines()
        try:
            head = json.loads(lines[0]) if lines else {}
        except ValueError:
            head = {}
        if head.get("format") != JOURNAL_FORMAT or head.get("fingerprint") != fingerprint_:
            raise TournamentError(
                f"{self.path} belongs to another tournament (other task files, players, "
                f"submissions or options); run without --resume to start afresh, or give "
                f"another --out")
        for line in lines[1:]:
            try:
                entry = json.loads(line)
                self.finished[entry["key"]] = entry["games"]
            except (ValueError, KeyError, TypeError):
                continue        # a line cut short by an interruption: played again

    def _write(self, entry: dict) -> None:
        self.handle.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self.handle.flush()
        os.fsync(self.handle.fileno())

    def add(self, matchup: Matchup, games: list) -> None:
        self.finished[matchup.key] = games
        self._write({"key": matchup.key, "games": games})

    def close(self) -> None:
        self.handle.close()


# -- the tournament ---------------------------------------------------------------------------

@dataclass
class Progress:
    """What the caller hears: ``announce(total, already)`` once per batch of matchups, then
    ``played(matchup, outcome)`` per matchup."""

    announce: object = None
    played: object = None


@dataclass
class Outcome:
    record: dict
    ratings: dict
    errors: list = field(default_factory=list)


def run_tournament(setup: Setup, entrants: list[Entrant], out: Path, *, jobs: int = 1,
                   resume: bool = False, tasks_hash: str = "", left_out: list | None = None,
                   progress: Progress | None = None, executor=None) -> Outcome:
    """Plays the tournament (module docstring), writes the journal as it goes, and returns
    the record and the ratings; the caller writes the reports."""
    from .ratings import rate
    progress = progress or Progress()
    started = time.monotonic()
    ids = [entrant.id for entrant in entrants]
    if len(ids) < 2:
        raise TournamentError("a tournament needs at least two players")
    journal = Journal(Path(out) / JOURNAL, fingerprint(setup, entrants, tasks_hash), resume)
    play = executor or LocalPlay(setup, entrants, jobs)
    schedule: list[Matchup] = []
    errors: list = []
    complete = False
    try:
        rounds = ([round_robin(ids, setup.pairs)] if setup.schedule not in ROUNDED
                  else range(1, setup.rounds + 1))
        for this_round in rounds:
            if setup.schedule in ROUNDED:
                scores, met, byes = _swiss_standing(ids, schedule, journal.finished)
                if setup.schedule == "sampled":
                    scores = {}             # random pairings, whatever the results
                this_round = swiss_round(ids, this_round, setup.pairs, setup.seed, scores,
                                         met, byes)
            schedule.extend(this_round)
            pending = [m for m in this_round if m.key not in journal.finished]
            if progress.announce:
                progress.announce(len(this_round), len(this_round) - len(pending))
            for matchup, outcome in play.play(pending):
                if "games" in outcome:
                    journal.add(matchup, outcome["games"])
                else:
                    errors.append({"matchup": asdict(matchup), "error": outcome["error"]})
                if progress.played:
                    progress.played(matchup, outcome)
        complete = not errors
    finally:
        if executor is None:
            play.close()
        journal.close()
        games = [{"round": m.round, "a": m.a, "b": m.b, "pair": m.pair, "game": number,
                  "replay": replay}
                 for m in schedule for number, replay in
                 enumerate(journal.finished.get(m.key, ()), 1)]
        record = {"format": TOURNAMENT_FORMAT, "title": setup.title,
                  "language": setup.language, "task": setup.task, "game": setup.spec,
                  "schedule": {"kind": setup.schedule, "pairs": setup.pairs,
                               "opening": setup.opening, "seed": setup.seed,
                               "rounds": (setup.rounds if setup.schedule in ROUNDED else
                                          max((m.round for m in schedule), default=0))},
                  "limits": {"move_seconds": setup.move_seconds,
                             "game_seconds": setup.game_seconds},
                  "players": [entrant.describe(setup) for entrant in entrants],
                  "left_out": list(left_out or ()), "errors": errors, "games": games,
                  "complete": complete, "wall_seconds": round(time.monotonic() - started, 1)}
    ratings = rate([rated_game(game) for game in games], players=ids)
    return Outcome(record, ratings, errors)


def seated(a: str, b: str, number: int, replay: dict) -> tuple:
    """``(first, second, points of first)`` of game ``number`` (1 or 2) of a pair of ``a``
    and ``b``: in a pair's first game ``a`` moved first."""
    first, second = (a, b) if number == 1 else (b, a)
    return first, second, POINTS[replay["result"]]


def rated_game(game: dict) -> tuple:
    """A game of the record as ``ratings.rate`` takes it (``seated``)."""
    return seated(game["a"], game["b"], game["game"], game["replay"])


def _swiss_standing(ids: list[str], schedule: list[Matchup], finished: dict) -> tuple:
    """``(scores, met, byes)`` after the rounds in ``schedule``."""
    scores: dict[str, float] = {}
    met: set = set()
    for matchup in schedule:
        met.add(frozenset((matchup.a, matchup.b)))
        for number, replay in enumerate(finished.get(matchup.key, ()), 1):
            first, second, points = seated(matchup.a, matchup.b, number, replay)
            scores[first] = scores.get(first, 0.0) + points
            scores[second] = scores.get(second, 0.0) + 1.0 - points
    byes: set = set()
    for number in sorted({m.round for m in schedule}):
        byes |= swiss_sitting_out(ids, [m for m in schedule if m.round == number])
    return scores, met, byes


# -- from a course and a submissions folder ---------------------------------------------------

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
    from ..submissions import content_hash, find, stage
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


def write_reports(out: Path, outcome: Outcome) -> None:
    """``tournament.json`` and the pages (``grader.report.tournament``) under ``out``."""
    from ..report.tournament import tournament_files
    from ..report.writers import write_atomically
    out = Path(out)
    write_atomically(out / RECORD, json.dumps(outcome.record, indent=1, ensure_ascii=False))
    files = tournament_files(outcome.record, outcome.ratings)
    for relative, content in files.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, content)
    # pages of players an earlier tournament in this folder had and this one has not
    written = {out / relative for relative in files}
    for folder in {(out / relative).parent for relative in files} - {out}:
        for stale in folder.glob("*.html"):
            if stale not in written and stale.is_file() and not stale.is_symlink():
                stale.unlink()
