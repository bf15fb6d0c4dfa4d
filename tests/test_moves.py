"""A move is a move (issue 23): a sandboxed player runs only while it is asked for a move.

Its child is frozen from its reply until its next move (the cgroup's freezer, v2 or v1, or
signals where there is none), every CPU second its processes use is charged (the cgroup's own
accounting, not only the time inside a request), and a move that sleeps instead of computing
forfeits as ``idle`` after ``MOVE_IDLE_SECONDS``, not after the wall-clock backstop.

The players are real folders under ``tests/data/play/`` in the real sandbox: ``schlaefer``
sleeps 5 s before each move, ``hilfsprozess`` starts a helper process at its first move that
spins from then on.  Nothing here asserts how long anything took: the assertions are about
reasons, the kernel's freezer state, and CPU time (which a frozen process does not use).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.play import Limits, SandboxedPlayer, baseline, play_game, play_pair
from grader.play.players import MOVE_IDLE_SECONDS
from grader.sandbox.cgroup import Cgroup, cgroups_work
from grader.sandbox.base import ResourceLimits
from grader.sandbox.processes import process_state

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = Path(__file__).resolve().parent / "data" / "play"
KORREKT = ROOT / "submissions" / "korrekt"
CONNECT4 = {"kind": "connect4"}
ONE_SECOND = Limits(move_seconds=1.0, game_seconds=30.0)
needs_cgroups = pytest.mark.skipif(not cgroups_work(), reason="no cgroup can be made here "
                                   "(not root); CI runs as root")


@pytest.fixture
def student(child_script):
    """A sandboxed player from a submission folder, closed after the test; ``freeze_with``:
    "signals" to freeze its child by signals even where its cgroup could."""
    opened = []

    def make(folder: Path, freeze_with: str | None = None, **options) -> SandboxedPlayer:
        player = SandboxedPlayer(folder, child_script, **options)
        opened.append(player)
        if freeze_with:
            player.run.start()
            player.run.child.freeze_with = freeze_with
        return player

    yield make
    for player in opened:
        player.close()


def stopped(pid: int) -> bool:
    """Whether ``pid`` is stopped, or gone (a zombie waiting for init is gone)."""
    return process_state(pid) in (None, "T", "t", "Z", "X")


class Watching:
    """An opponent (a baseline) that, on each of its turns, looks at the student's child from
    outside: how it is frozen, whether the kernel says so, and the CPU time the student's
    processes use while it thinks (``pause`` seconds of waiting, in which a helper that is
    not frozen would compute)."""

    def __init__(self, student: SandboxedPlayer, pause: float = 0.1):
        self.inner, self.student, self.pause = baseline("random"), student, pause
        self.seen = []

    def describe(self):
        return self.inner.describe()

    def start_game(self, seed, seat):
        self.inner.start_game(seed, seat)

    def choose(self, spec, moves, state, limit):
        child = self.student.run.child
        before = self.student.cpu_used()
        time.sleep(self.pause)
        used = self.student.cpu_used() - before
        kernel = child.cgroup.frozen() if child.frozen == "cgroup" else \
            all(stopped(pid) for pid in child.processes())
        self.seen.append({"how": child.frozen, "kernel": kernel, "used": used})
        return self.inner.choose(spec, moves, state, limit)


# -- a sleeping move -------------------------------------------------------------------------

def test_a_player_whose_moves_sleep_forfeits_them_as_idle_with_the_reason_named(student):
    sleeper = student(PLAYERS / "schlaefer", depth=2)
    pair = play_pair(CONNECT4, sleeper, baseline("random"), seed=3, opening=2,
                     limits=ONE_SECOND)
    assert pair.score == 0.0
    for game in pair.games:
        forfeit = game.replay["forfeit"]
        assert game.reason == "idle" and forfeit["reason"] == "idle"
        assert forfeit["detail"]["idle"] is True
        assert forfeit["detail"]["idle_seconds"] == MOVE_IDLE_SECONDS
        assert forfeit["seconds"] < 1.0      # it hardly computed: no CPU limit stopped it
    # the sleeper's child was restarted for the second game and slept there again
    assert pair.games[1].replay["players"][pair.games[1].replay["forfeit"]["player"]][
        "name"] == "schlaefer"


def test_the_feedback_names_an_idle_move_in_both_languages(student):
    from grader.checks import match
    from grader.report.messages import Catalogue
    from grader.tasks import load_course
    course = load_course(ROOT / "courses" / "spiel" / "tasks")
    check = course.tasks[0].checks[0]
    pair = play_pair(CONNECT4, student(PLAYERS / "schlaefer", depth=2), baseline("random"),
                     seed=3, limits=ONE_SECOND)
    record = {"format": "gametree-grader series 1", "opponent": "random",
              "games": [game.replay for game in pair.games]}
    facts = match.judge(check, [record], []).facts
    assert {g["reason"] for g in facts["game_list"]} == {"idle"}
    english = Catalogue("en").text("reason.match.points", **facts)
    assert ("your player waited instead of computing: 0.5 s without using the processor "
            "(sleep, input or a lock)") in english
    german = Catalogue("de").text("reason.match.points", **facts)
    assert "dein Spieler wartete, statt zu rechnen: 0.5 s, ohne den Prozessor zu nutzen" \
        in german


def test_correct_players_lose_no_game_to_the_idle_rule(student):
    # a full tic-tac-toe search and a depth-3 Connect Four search, every move under the rule
    for spec, depth in (({"kind": "tictactoe", "board": "........."}, None), (CONNECT4, 3)):
        pair = play_pair(spec, student(KORREKT, depth=depth), baseline("greedy"), seed=2,
                         opening=1, limits=ONE_SECOND)
        assert [game.reason for game in pair.games] == ["end", "end"]


# -- frozen between moves --------------------------------------------------------------------

@needs_cgroups
@pytest.mark.parametrize("freeze_with", [None, "signals"])
def test_a_player_is_frozen_whenever_it_is_not_its_move(student, freeze_with):
    helper = student(PLAYERS / "hilfsprozess", freeze_with, depth=2)
    opponent = Watching(helper)
    game = play_game(CONNECT4, (helper, opponent), seed=3, limits=ONE_SECOND)
    assert game.reason == "end" and len(opponent.seen) >= 3
    expected = freeze_with or "cgroup"
    for seen in opponent.seen:
        assert seen["how"] == expected and seen["kernel"]
        # the helper spins whenever it may: unfrozen, it would use about the whole pause
        # (0.1 s) while the opponent thinks.  Frozen, it uses at most the few microseconds a
        # task may still run after the kernel reports its group frozen (it is counted frozen
        # just before it leaves the processor; CI saw 14 us), below the millisecond from
        # which the launcher names time between moves at all.
        assert seen["used"] < 0.001
    # (almost) nothing used between its moves, so nothing worth naming was charged from there
    assert all(m.get("between", 0.0) < 0.001
               for m in game.replay["moves"] if m["player"] == "X")


@needs_cgroups
@pytest.mark.parametrize("freezer", ["v1", None])
def test_a_cgroup_freezes_its_processes_and_a_frozen_one_is_killed(freezer):
    group = Cgroup.create(ResourceLimits(), freezer=freezer)
    if group is None or not group.can_freeze:
        pytest.skip(f"no cgroup freezer {freezer or 'v2'} here")
    assert group.freezer.name == ("freezer.state" if freezer == "v1" else "cgroup.freeze")
    spinning = "import os\nos.fork()\nwhile True: pass"
    process = subprocess.Popen(group.wrap([sys.executable, "-c", spinning]),
                               start_new_session=True)
    try:
        while len(group.pids()) < 2 or group.cpu_seconds() < 0.05:
            time.sleep(0.01)
        assert group.freeze() and group.frozen()
        frozen_at = group.cpu_seconds()
        time.sleep(0.1)
        assert group.cpu_seconds() == frozen_at       # neither process ran
        pids = group.pids()
        group.kill_all()                              # frozen: still killed, and at once
        assert group.pids() == set()
        process.wait(timeout=10)
        assert all(stopped(pid) for pid in pids)
    finally:
        group.remove()
    assert not any(path.exists() for path in group.paths)


@needs_cgroups
@pytest.mark.parametrize("freezer", ["v1", None])
def test_a_frozen_group_left_behind_by_a_killed_grader_is_removed(monkeypatch, freezer):
    from grader.sandbox import base, cgroup
    gone = subprocess.Popen(["true"])
    gone.wait()                                   # its pid names the group: a dead grader's
    monkeypatch.setattr(base, "OWNER", gone.pid)
    group = Cgroup.create(ResourceLimits(), freezer=freezer)
    if group is None or not group.can_freeze:
        pytest.skip(f"no cgroup freezer {freezer or 'v2'} here")
    process = subprocess.Popen(group.wrap([sys.executable, "-c", "while True: pass"]),
                               start_new_session=True)
    try:
        while not group.pids():
            time.sleep(0.01)
        assert group.freeze()
        monkeypatch.setattr(base, "OWNER", None)
        removed = cgroup.remove_stale_cgroups()
        assert set(group.paths) <= set(removed)
        process.wait(timeout=10)                  # killed, although it was frozen
    finally:
        group.remove()


@pytest.mark.parametrize("freeze_with", [None, "signals"])
def test_a_frozen_player_is_killed_cleanly_and_leaves_nothing(student, freeze_with):
    helper = student(PLAYERS / "hilfsprozess", freeze_with, depth=2)
    move = helper.choose(CONNECT4, [], None, 1.0)
    assert move.failure is None
    child = helper.run.child
    assert child.frozen == (freeze_with or ("cgroup" if child.cgroup is not None
                                            and child.cgroup.can_freeze else "signals"))
    pids = child.processes()
    assert len(pids) >= 2                         # the player and its helper
    paths = list(child.cgroup.paths) if child.cgroup is not None else []
    helper.close()
    assert child.process is None and child.frozen is None
    assert all(stopped(pid) for pid in pids)
    assert not any(path.exists() for path in paths)


# -- every CPU second charged ----------------------------------------------------------------

class Thawing(Watching):
    """An opponent that lets the student's processes out of the freezer behind the child's
    back on each of its turns (as if they had escaped it) until they used ``spin`` CPU
    seconds, then freezes them again."""

    def __init__(self, student: SandboxedPlayer, spin: float = 0.2):
        super().__init__(student, pause=0.0)
        self.spin = spin

    def choose(self, spec, moves, state, limit):
        child = self.student.run.child
        if child.process is not None and child.frozen == "cgroup":
            before = self.student.cpu_used()
            child.cgroup.thaw()
            deadline = time.monotonic() + 60          # a bound on a hung test, not a threshold
            while self.student.cpu_used() - before < self.spin and time.monotonic() < deadline:
                time.sleep(0.01)
            child.cgroup.freeze()
        return self.inner.choose(spec, moves, state, limit)


@needs_cgroups
def test_cpu_a_player_used_between_its_moves_is_charged_to_its_next_move(student):
    helper = student(PLAYERS / "hilfsprozess", depth=2)
    game = play_game(CONNECT4, (helper, Thawing(helper)), seed=3,
                     limits=Limits(move_seconds=1.0, game_seconds=60.0))
    assert game.reason == "end"
    own = [m for m in game.replay["moves"] if m["player"] == "X"]
    # every move after the opponent's first carries what the helper spun meanwhile
    assert all(m.get("between", 0) >= 0.2 for m in own[1:])
    cpu = game.replay["cpu"]["X"]
    assert cpu["used"] >= 0.2 * (len(own) - 1)
    assert cpu["charged"] >= 0.9 * cpu["used"]
    assert cpu["charged"] == pytest.approx(sum(m["seconds"] + m.get("between", 0)
                                               for m in own), abs=1e-3)


@needs_cgroups
def test_cpu_used_between_moves_counts_against_the_moves_limit(student):
    helper = student(PLAYERS / "hilfsprozess", depth=2)
    game = play_game(CONNECT4, (helper, Thawing(helper, spin=1.2)), seed=3,
                     limits=Limits(move_seconds=1.0, game_seconds=60.0))
    forfeit = game.replay["forfeit"]
    assert forfeit["player"] == "X" and forfeit["reason"] == "timeout"
    assert forfeit["detail"]["between_seconds"] >= 1.0
    assert forfeit["between"] >= 1.0


# -- a tournament -----------------------------------------------------------------------------

@needs_cgroups
def test_a_tournament_forfeits_the_sleepers_moves_and_freezes_the_spinners_helper(tmp_path):
    """The issue's tournament, small: a correct player, one whose moves sleep, one whose
    helper spins, and the random baseline (python bench/moves.py measures its wall and
    CPU time)."""
    import shutil
    from grader.play.entrants import Setup, stage_entrants
    from grader.play.tournament import run_tournament
    from grader.report.tournament import write_reports
    from grader.sandbox.levels import best_level
    root = tmp_path / "abgaben"
    for folder in (PLAYERS / "schlaefer", PLAYERS / "hilfsprozess", KORREKT):
        shutil.copytree(folder, root / folder.name)
    entrants, left_out = stage_entrants(root, tmp_path / "staged", ("minimax",), ["random"])
    assert left_out == [] and len(entrants) == 4
    setup = Setup(title="t", language="en", task="t", spec=CONNECT4, module="minimax",
                  function="alphabeta", depth=2, evaluation=None, move_seconds=1.0,
                  game_seconds=30.0, opening=2, seed=3, pairs=1, level=best_level())
    outcome = run_tournament(setup, entrants, tmp_path / "out")
    games = outcome.record["games"]
    assert outcome.record["complete"] and len(games) == 4 * 3
    forfeits = {}
    charged = used = 0.0
    for game in games:
        replay = game["replay"]
        names = {seat: player["name"] for seat, player in replay["players"].items()}
        if replay["forfeit"]:
            who = names[replay["forfeit"]["player"]]
            forfeits.setdefault(who, set()).add(replay["forfeit"]["reason"])
        for seat, cpu in replay.get("cpu", {}).items():
            if names[seat] == "hilfsprozess":
                charged, used = charged + cpu["charged"], used + cpu["used"]
                # frozen between its moves: nothing was used there to be charged
                assert not any("between" in m for m in replay["moves"] if m["player"] == seat)
    # the sleeper loses each of its six games at its first move, as idle; nobody else forfeits
    assert forfeits == {"schlaefer": {"idle"}}
    assert sum(1 for g in games if g["replay"]["reason"] == "idle") == 6
    assert used > 0 and charged >= 0.9 * used
    write_reports(tmp_path / "out", outcome)
    board = (tmp_path / "out" / "leaderboard.html").read_text(encoding="utf-8")
    assert "waited instead of computing: 0.5 s without using the processor" in board


def test_waiting_for_the_disk_counts_as_waiting_like_waiting_for_a_processor(tmp_path):
    # the kernel's pressure files, as a group's unified folder holds them: a child that
    # starts while the disk is busy waits there for the interpreter's files, which is not
    # idling; where io.pressure is missing, the processor's waiting alone is read
    for name, some in (("cpu.pressure", 250_000), ("io.pressure", 1_500_000)):
        (tmp_path / name).write_text(
            f"some avg10=0.00 avg60=0.00 avg300=0.00 total={some}\n"
            "full avg10=0.00 avg60=0.00 avg300=0.00 total=7\n")
    group = Cgroup([tmp_path], unified=tmp_path)
    assert group.waiting_seconds() == pytest.approx(1.75)
    (tmp_path / "io.pressure").unlink()
    assert group.waiting_seconds() == pytest.approx(0.25)
    (tmp_path / "cpu.pressure").unlink()
    assert group.waiting_seconds() is None
