"""Where a tournament's matchups are played: an *arena* keeps each player's sandboxed child
for the matchups it plays there (restarted after a crash or timeout, as in grading); here or
in ``--jobs`` worker processes (``LocalPlay``), or on the workers of a Dask cluster
(``ClusterPlay``, through the cluster's public interface: ``grader.cluster``'s ``connect``,
``bundle``, ``unbundle``, ``distributed_package`` and ``level_problem``)."""

from __future__ import annotations

import shutil
import tempfile
import threading
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict
from pathlib import Path

from .entrants import Entrant, Setup
from .schedule import Matchup

# Children an arena keeps alive at once; the least recently used one is stopped beyond.
ARENA_CHILDREN = 8
# A pool whose workers die (killed from outside) is made again this often, then the
# matchups left are listed as errors (``--resume`` plays them later).
POOL_BREAKS = 3


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
        from ..cluster import distributed_package
        distributed = distributed_package()
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
    from ..cluster import level_problem, unbundle
    tournament, setup, shipped = shared
    key = (tournament, threading.get_ident())
    with _cluster_lock:
        arena = _cluster_arenas.get(key)
    if arena is None:
        setup = Setup(**setup)
        problem = level_problem(setup.level)
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
