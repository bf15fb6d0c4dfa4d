"""The class tournament (issue 13): schedules, the journal and --resume, arenas in worker
processes, and a tournament of the bundled course's players of known strength."""

from __future__ import annotations

import itertools
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from grader.cli import main
from grader.play.ratings import separated
from grader.play.schedule import round_robin, swiss_round
from grader.play.record import JOURNAL
from grader.play.entrants import (Entrant, Setup, TournamentError, playable_task,
                                  setup_from_task, stage_entrants)
from grader.play.tournament import Progress, run_tournament
from grader.tasks import load_course

from test_interrupt import interruptible

ROOT = Path(__file__).resolve().parent.parent
TURNIER = ROOT / "courses" / "turnier"
C4 = {"kind": "connect4", "columns": 7, "rows": 6, "connect": 4}
BASELINES = ["random", "greedy", "alphabeta:1", "alphabeta:2"]


def baseline_setup(**options) -> Setup:
    base = dict(title="t", language="en", task="t", spec=C4, module="minimax",
                function="alphabeta", depth=2, evaluation=None, move_seconds=30.0,
                game_seconds=300.0, opening=2, seed=3, pairs=1)
    return Setup(**{**base, **options})


def games_of(record: dict) -> list:
    """What a game is, without its timings: who played, the moves, the result."""
    return [(g["a"], g["b"], g["pair"], g["game"],
             [m["action"] for m in g["replay"]["moves"]], g["replay"]["result"])
            for g in record["games"]]


# -- schedules --------------------------------------------------------------------------------

@pytest.mark.parametrize("count", [2, 3, 4, 7, 16])
def test_a_round_robin_meets_every_pair_once_per_pair_number_and_nobody_twice_a_round(count):
    players = [f"p{i}" for i in range(count)]
    schedule = round_robin(players, pairs=2)
    met = Counter(frozenset((m.a, m.b)) for m in schedule)
    assert set(met) == {frozenset(p) for p in itertools.combinations(players, 2)}
    assert set(met.values()) == {2}
    for number in {m.round for m in schedule}:
        in_round = [m for m in schedule if m.round == number and m.pair == 1]
        seated = [p for m in in_round for p in (m.a, m.b)]
        assert len(seated) == len(set(seated))
    assert len({m.key for m in schedule}) == len(schedule)


def test_swiss_pairs_equal_scores_avoids_rematches_and_gives_the_bye_to_someone_new():
    players = [f"p{i}" for i in range(5)]
    scores = {"p0": 3, "p1": 3, "p2": 1, "p3": 0, "p4": 0}
    first = swiss_round(players, 2, 1, 9, scores, set(), byes={"p4"})
    seated = {p for m in first for p in (m.a, m.b)}
    assert len(first) == 2 and "p3" not in seated          # the lowest without a bye sits out
    assert frozenset(("p0", "p1")) in {frozenset((m.a, m.b)) for m in first}
    again = swiss_round(players, 2, 1, 9, scores, {frozenset(("p0", "p1"))}, byes={"p4"})
    assert frozenset(("p0", "p1")) not in {frozenset((m.a, m.b)) for m in again}
    assert again == swiss_round(players, 2, 1, 9, scores, {frozenset(("p0", "p1"))},
                                byes={"p4"})


# -- playing, the journal, --resume -----------------------------------------------------------

def baseline_entrants(names=BASELINES) -> list:
    return [Entrant(name, "baseline") for name in names]


@pytest.fixture(scope="module")
def full_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("full")
    return run_tournament(baseline_setup(), baseline_entrants(), out)


def test_an_interrupted_tournament_resumes_with_the_games_it_had_and_plays_only_the_rest(
        tmp_path, full_run):
    played = []

    def stop_after_three(matchup, outcome):
        played.append(matchup)
        if len(played) == 3:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        run_tournament(baseline_setup(), baseline_entrants(), tmp_path,
                       progress=Progress(played=stop_after_three))
    journal = (tmp_path / JOURNAL).read_text().splitlines()
    assert len(journal) == 1 + 3                    # the fingerprint, three matchups
    again = []
    resumed = run_tournament(baseline_setup(), baseline_entrants(), tmp_path, resume=True,
                             progress=Progress(played=lambda m, o: again.append(m)))
    assert len(again) == 6 - 3
    assert not set(m.key for m in again) & set(m.key for m in played)
    assert resumed.record["complete"]
    assert games_of(resumed.record) == games_of(full_run.record)
    assert {k: (r.mu, r.sigma) for k, r in resumed.ratings.items()} == \
        {k: (r.mu, r.sigma) for k, r in full_run.ratings.items()}


def test_a_journal_of_another_tournament_is_refused_not_mixed_in(tmp_path, full_run):
    run_tournament(baseline_setup(), baseline_entrants(BASELINES[:2]), tmp_path)
    with pytest.raises(TournamentError, match="another tournament"):
        run_tournament(baseline_setup(seed=4), baseline_entrants(BASELINES[:2]), tmp_path,
                       resume=True)


def test_two_worker_processes_play_the_same_games_as_one_arena(tmp_path, full_run):
    parallel = run_tournament(baseline_setup(), baseline_entrants(), tmp_path, jobs=2)
    assert games_of(parallel.record) == games_of(full_run.record)


def test_the_swiss_schedule_plays_its_rounds_without_rematches(tmp_path):
    names = BASELINES + ["alphabeta:3"]
    outcome = run_tournament(baseline_setup(schedule="swiss", rounds=3),
                             baseline_entrants(names), tmp_path)
    matchups = Counter(frozenset((g["a"], g["b"])) for g in outcome.record["games"])
    assert sum(matchups.values()) == 3 * 2 * 2      # 3 rounds, 2 matchups, 2 games each
    assert set(matchups.values()) == {2}            # no pair of players met twice
    assert outcome.record["schedule"]["rounds"] == 3


def test_a_submission_that_cannot_be_staged_is_left_out_and_named_like_a_baseline_renamed(
        tmp_path):
    root = tmp_path / "abgaben"
    root.mkdir()
    (root / "kaputt.zip").write_bytes(b"PK\x03\x04 not really a zip")
    shutil.copytree(TURNIER / "submissions" / "fenster", root / "random")
    entrants, left_out = stage_entrants(root, tmp_path / "staged", ("minimax", "evaluation"),
                                        ["random"])
    assert [e.id for e in entrants] == ["random", "random~"]
    assert entrants[1].kind == "submission" and entrants[1].display == "random"
    assert [entry["name"] for entry in left_out] == ["kaputt.zip"]


def test_the_task_is_the_one_with_a_match_check_or_named_and_must_be_playable():
    course = load_course(TURNIER / "tasks")
    task = playable_task(course)
    setup = setup_from_task(course, task)
    assert (setup.depth, setup.evaluation, setup.move_seconds, setup.seed) == \
        (3, "evaluation.evaluate", 1.0, 7)
    with pytest.raises(TournamentError, match="no task 'nope'"):
        playable_task(course, "nope")
    sheet = load_course(ROOT / "tasks")
    with pytest.raises(TournamentError):
        playable_task(sheet, sheet.tasks[0].id)       # the sheet's explicit tree


# -- the bundled tournament's players of known strength ----------------------------------------

FORFEITERS = {"absturz": "crashed", "endlos": "timeout", "text": "illegal"}
# The players the assertions below name: the course's submissions with a heuristic that knows
# the game (fenster), none (null), a random one (zufall), a wrong one (verkehrt), and the three
# that forfeit; the baselines of three depths and random.  The course's other five players
# (fenster-drei, mitte, mittelfeld, greedy, alphabeta:3) are named by no assertion; playing them
# too took 480 games instead of 220, and the pairs compared below are told apart as clearly
# without them: rated on the games of a 16-player run, with and without the five, the closest
# pair (random over endlos) differs by 1.2 times what ``separated`` asks for, either way.
# Fewer games do not tell them apart: with one pair per matchup instead of two (110 games),
# random and endlos are not separated on any of four openings tried, at depth 2 or 3.
SUBMISSIONS = ("fenster", "null", "zufall", "verkehrt") + tuple(FORFEITERS)
BASELINES_RATED = ("random", "alphabeta:1", "alphabeta:2", "alphabeta:4")
PLAYERS = len(SUBMISSIONS) + len(BASELINES_RATED)


# 220 sandboxed games: at 480 their setup took 305 s in a parallel run on the shared 2-core
# machine, past the suite's 300 s limit (the limit stops hung tests; these are only long).
LONG = pytest.mark.timeout(900)


# The course's task file with the students' search at depth 2 instead of 3 (the same players,
# opening, seed and limits): the legal players' moves cost a quarter as much (the window count's
# 47 ms a move at depth 3, 11 ms at 2), and what the assertions below name holds as it does at
# depth 3, as clearly.  Measured on a 4-pair run of these players at either depth (the first
# two pairs are this test's games): here every ``separated`` pair below is told apart by at
# least 1.53 times what it asks for (1.32 at depth 3), on the five other choices of two pairs
# by at least 1.15 (1.07 at depth 3).  The narrowest order is alphabeta:4 over alphabeta:2: on
# one of those five choices it fails, at either depth.
TOURNAMENT_TASKS = ROOT / "tests" / "data" / "tournament" / "turnier-tiefe-2.yaml"


# CPU seconds per move: the task file's 1 s, cut to 0.3 s.  The endless player spends the whole
# limit on each of its 38 games (the run's largest cost: 21 of 58 CPU-seconds at depth 3 and
# 0.5 s); at depth 2 the slowest legal move, alphabeta:4's in its arena's own process, took
# 0.12 s with a load average of 8 to 16 on the 2-core machine, 0.11 s at 5 (a student's first
# move, its child's start and import included, 0.07 s), so every legal game is played as with
# 1 s and the same players forfeit for the same reasons.
MOVE_SECONDS = "0.3"


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    submissions = tmp_path_factory.mktemp("abgaben")
    for name in SUBMISSIONS:
        shutil.copytree(TURNIER / "submissions" / name, submissions / name)
    out = tmp_path_factory.mktemp("turnier")
    code = main(["tournament", "--tasks", str(TOURNAMENT_TASKS),
                 "--submissions", str(submissions), "--out", str(out),
                 "--baselines", ",".join(BASELINES_RATED), "--pairs", "2", "--jobs", "2",
                 "--move-seconds", MOVE_SECONDS])
    record = json.loads((out / "tournament.json").read_text())
    return code, out, record


@LONG
def test_a_round_robin_of_the_course_s_players_completes_with_every_forfeit_named(tournament):
    code, out, record = tournament
    assert code == 0
    assert len(record["players"]) == PLAYERS and record["complete"]
    assert len(record["games"]) == PLAYERS * (PLAYERS - 1) // 2 * 2 * 2
    reasons = Counter()
    for game in record["games"]:
        forfeit = game["replay"]["forfeit"]
        if forfeit:
            reasons[game["replay"]["players"][forfeit["player"]]["name"],
                    forfeit["reason"]] += 1
    # each of them loses every game it has to move in, with its reason; nobody else forfeits.
    # Of its 4 games against each opponent, a forfeiter is spared at most the 8 against the
    # other two forfeiters (absturz crashes only once the board fills: those two forfeit first)
    assert {who for who, _ in reasons} == set(FORFEITERS)
    for who, reason in FORFEITERS.items():
        assert reasons[who, reason] >= (PLAYERS - 1) * 4 - 8 and sum(
            n for (w, _), n in reasons.items() if w == who) == reasons[who, reason]


@LONG
def test_the_ranking_follows_the_known_strengths(tournament):
    from grader.play.ratings import rate
    from grader.play.tournament import rated_game
    _, _, record = tournament
    ratings = rate([rated_game(g) for g in record["games"]])
    above = [
        # more depth with the same heuristic
        ("alphabeta:4", "alphabeta:2"), ("alphabeta:4", "alphabeta:1"),
        ("alphabeta:2", "random"),
        # the same search with a heuristic that knows the game, against none or a wrong one
        ("fenster", "null"), ("fenster", "zufall"), ("fenster", "verkehrt"),
        ("fenster", "random"),
    ]
    legal = [p["id"] for p in record["players"] if p["id"] not in FORFEITERS]
    above += [(player, forfeiter) for player in legal for forfeiter in FORFEITERS]
    for stronger, weaker in above:
        assert ratings[stronger].mu > ratings[weaker].mu, (stronger, weaker)
    clearly = [("alphabeta:4", "random"), ("alphabeta:4", "null"), ("fenster", "random"),
               ("fenster", "verkehrt"), ("random", "endlos"), ("random", "text")]
    for stronger, weaker in clearly:
        assert separated(ratings[stronger], ratings[weaker]), (stronger, weaker)


# -- on a Dask cluster ------------------------------------------------------------------------

def test_a_dask_cluster_plays_the_same_games_as_local_arenas(tmp_path):
    import distributed
    from grader.play.arena import ClusterPlay
    entrants, _ = stage_entrants(TURNIER / "submissions", tmp_path / "staged",
                                 ("minimax", "evaluation"), ["random", "alphabeta:1"])
    entrants = [e for e in entrants if e.id in ("random", "alphabeta:1", "fenster", "text")]
    setup = baseline_setup(depth=2, evaluation="evaluation.evaluate", move_seconds=2.0,
                           game_seconds=60.0)
    local = run_tournament(setup, entrants, tmp_path / "local")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        executor = ClusterPlay(setup, entrants, cluster.scheduler_address)
        try:
            remote = run_tournament(setup, entrants, tmp_path / "cluster", executor=executor)
        finally:
            executor.close()
    assert games_of(remote.record) == games_of(local.record)
    assert any(g["replay"]["reason"] == "illegal" for g in remote.record["games"])


# -- the command, interrupted and resumed ------------------------------------------------------

def test_the_command_stops_on_sigint_with_its_journal_and_resume_plays_the_rest(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time
    empty = tmp_path / "abgaben"
    empty.mkdir()
    out = tmp_path / "turnier"
    # Five baselines, 20 matchups: enough that Ctrl-C comes while most are still to play.
    # A sixth, alphabeta:4, cost two thirds of the command's CPU time (9.3 against 2.8 s for
    # its 60 games against these 40) and adds nothing the assertions below look at.
    command = [sys.executable, "-m", "grader.cli", "tournament", "--tasks",
               str(TURNIER / "tasks"), "--submissions", str(empty), "--out", str(out),
               "--baselines", "random,greedy,alphabeta:1,alphabeta:2,alphabeta:3",
               "--pairs", "2", "--jobs", "2"]
    # with Ctrl-C's default action: where the suite runs as a background job, its shell
    # started it with SIGINT ignored, which the command inherited and rightly kept
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=interruptible)
    journal = out / JOURNAL
    deadline = time.monotonic() + 300            # a bound on a hung test, not a threshold
    while time.monotonic() < deadline and process.poll() is None:
        if journal.exists() and len(journal.read_text().splitlines()) >= 3:
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=300)
    assert process.returncode == 130, err
    assert "--resume" in err
    kept = len(journal.read_text().splitlines()) - 1
    assert 2 <= kept < 20                         # 10 pairings, 2 pairs each
    assert not (out / "leaderboard.html").exists()
    resumed = subprocess.run(command + ["--resume"], cwd=ROOT, capture_output=True,
                             text=True, timeout=600, env={**os.environ})
    assert resumed.returncode == 0, resumed.stderr
    assert f"{kept} of 20 matchups already played (--resume)" in resumed.stderr
    record = json.loads((out / "tournament.json").read_text())
    assert record["complete"] and len(record["games"]) == 40
    assert (out / "leaderboard.html").exists() and (out / "ratings.csv").exists()


def test_sampled_rounds_draw_new_opponents_whatever_the_results(tmp_path):
    from grader.play.schedule import swiss_sitting_out
    names = BASELINES + ["alphabeta:3"]
    outcome = run_tournament(baseline_setup(schedule="sampled", rounds=3),
                             baseline_entrants(names), tmp_path)
    played = [(g["round"], g["a"], g["b"]) for g in outcome.record["games"] if g["game"] == 1]
    # the same pairings follow from the seed alone, without any result
    expected, met, byes = [], set(), set()
    for number in (1, 2, 3):
        pairings = swiss_round(names, number, 1, 3, {}, met, byes)
        expected += [(m.round, m.a, m.b) for m in pairings]
        met |= {frozenset((m.a, m.b)) for m in pairings}
        byes |= swiss_sitting_out(names, pairings)
    assert played == expected
    assert len({frozenset(p[1:]) for p in played}) == len(played) == 6    # no rematch
    assert len(byes) == 3                                # a bye each round, to someone new


def test_the_leaderboard_lists_who_was_left_out_for_a_person(tmp_path):
    from grader.report.tournament import write_reports
    left_out = [{"name": "<b>kaputt.zip", "problem": "not a zip archive"}]
    outcome = run_tournament(baseline_setup(), baseline_entrants(BASELINES[:2]), tmp_path,
                             left_out=left_out)
    write_reports(tmp_path, outcome)
    page = (tmp_path / "leaderboard.html").read_text(encoding="utf-8")
    assert 'id="needs-a-person"' in page
    assert "Left out: &lt;b&gt;kaputt.zip: not a zip archive" in page
    clean = run_tournament(baseline_setup(), baseline_entrants(BASELINES[:2]),
                           tmp_path / "clean")
    write_reports(tmp_path / "clean", clean)
    assert "needs-a-person" not in (tmp_path / "clean" / "leaderboard.html").read_text()


def test_the_command_offers_every_schedule_without_importing_the_players():
    import subprocess
    import sys
    from grader.cli import build_parser
    from grader.play.schedule import SCHEDULES
    tournament = build_parser()._subparsers._group_actions[0].choices["tournament"]
    schedule = next(a for a in tournament._actions if a.dest == "schedule")
    assert tuple(schedule.choices) == SCHEDULES
    # building the parser (every command does) leaves grader.play unimported
    probe = ("import sys; from grader.cli import build_parser; build_parser(); "
             "print('grader.play' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, check=True).stdout.strip() == "False"


def test_a_new_tournament_in_the_same_folder_leaves_no_page_of_a_player_it_has_not(tmp_path):
    from grader.report.tournament import write_reports
    write_reports(tmp_path, run_tournament(baseline_setup(), baseline_entrants(), tmp_path))
    before = sorted(p.name for p in (tmp_path / "players").iterdir())
    write_reports(tmp_path, run_tournament(baseline_setup(), baseline_entrants(BASELINES[:2]),
                                           tmp_path))
    after = sorted(p.name for p in (tmp_path / "players").iterdir())
    assert len(before) == 4 and after == ["01-random.html", "02-greedy.html"]
