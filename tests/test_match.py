"""The ``match`` check kind (issue 13, step 2): a student's search graded by its games against
a baseline.

The judge is tested without processes, on records of real series kept under
``tests/data/match/`` (played by ``grader.play.series`` from the bundled course
``courses/spiel/``); the task file's errors at their lines; the course's students graded for
real with ``grader grade`` in the sandbox (its task file searched at depth 2:
``tests/data/match/spiel-tiefe-2.yaml``); and the self-check kit, which leaves match checks
out.
No assertion depends on how fast the machine is: the limits are CPU seconds, and only the
hanging student reaches one.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from grader.calls import Observation
from grader.checks import match
from grader.grading import Plan
from grader.kit import visible_course
from grader.play import replay
from grader.report.messages import Catalogue
from grader.tasks import TaskFileError, load_course


ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "match"
SPIEL = ROOT / "courses" / "spiel"


def record(name: str) -> dict:
    return json.loads((DATA / f"series-{name}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def spiel():
    return load_course(SPIEL / "tasks")


def with_thresholds(check, thresholds):
    options = dict(check.options)
    options["thresholds"] = tuple(tuple(pair) for pair in thresholds)
    return replace(check, options=tuple(sorted(options.items())),
                   points=float(thresholds[-1][1]))


# -- the judge, without processes ----------------------------------------------------------

def test_the_highest_threshold_reached_counts_not_their_sum(spiel):
    check = spiel.tasks[0].checks[0]       # thresholds 10 % -> 1, 30 % -> 2, 45 % -> 3
    verdict = match.judge(check, [record("fenster")], [])
    facts = verdict.facts
    assert (facts["won"], facts["drawn"], facts["lost"]) == (3, 2, 3)
    assert facts["points"] == 4 and facts["percent"] == 50
    assert verdict.passed and verdict.score == 3.0 == verdict.max_score
    assert verdict.reason == "ok" and facts["reached"] == [0.45, 3.0]


def test_a_share_exactly_at_a_threshold_reaches_it_and_below_earns_part(spiel):
    check = with_thresholds(spiel.tasks[0].checks[0], [[0.25, 1], [0.5, 2], [0.75, 4]])
    verdict = match.judge(check, [record("fenster")], [])   # 4 of 8 points: exactly 0.5
    assert not verdict.passed
    assert (verdict.score, verdict.max_score) == (2.0, 4.0)
    assert verdict.reason == "match.points" and verdict.facts["reached"] == [0.5, 2.0]
    below = match.judge(with_thresholds(check, [[0.51, 1]]), [record("fenster")], [])
    assert below.score == 0.0 and below.facts["reached"] is None


def test_games_lost_by_a_crash_are_forfeits_named_with_their_reason(spiel):
    verdict = match.judge(spiel.tasks[0].checks[0], [record("absturz")], [])
    assert verdict.score == 0.0 and not verdict.passed
    games = verdict.facts["game_list"]
    assert len(games) == 8 and verdict.facts["forfeits"] == 8
    assert all((g["result"], g["reason"], g["by"]) == ("loss", "crashed", "student")
               for g in games)
    assert [g["first"] for g in games] == [True, False] * 4   # seats swapped in each pair
    assert games[0]["detail"] == "exit status 3"
    text = Catalogue("en").text("reason.match.points", **verdict.facts)
    assert "your player crashed (exit status 3)" in text
    assert "below the first threshold, 10 %" in text
    german = Catalogue("de").text("reason.match.points", **verdict.facts)
    assert "dein Spieler ist abgestürzt (exit status 3)" in german


def test_the_replays_in_the_facts_play_again_to_their_final_positions(spiel):
    verdict = match.judge(spiel.tasks[0].checks[0], [record("fenster")], [])
    for game in verdict.facts["replays"]:
        assert replay(game) == game["final"]


def test_a_series_that_was_not_played_fails_with_the_run_s_reason(spiel):
    check = spiel.tasks[0].checks[0]
    verdict = match.judge(check, [Observation("missing-module", error={
        "module": "minimax", "file": "minimax.py"})], [])
    assert verdict.reason == "call.missing-module" and verdict.score == 0.0


# -- the task file ---------------------------------------------------------------------------

def line_of(text: str) -> int:
    lines = (DATA / "errors.yaml").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


@pytest.mark.parametrize("marker, message", [
    ("games: 7", "games must be even"),
    ("minimax:9", "unknown baseline 'minimax:9'"),
    ("{kind: match, opponent: greedy}", "needs thresholds"),
    ("[[0.7, 1], [0.5, 2]]", "thresholds go up"),
    ("points: 3", "worth its last threshold's points (2)"),
    ("move_seconds: 9", "move_seconds must not be more than game_seconds"),
    ('stop_early: "ja"', "stop_early is true or false"),
    ("margin: 0.1}", "margin only counts with stop_early: true"),
    ("margin: 0.7", "margin must be a share between 0 and 0.5"),
    ("id: without-depth", None),
    ("evaluation: evaluate", "module.function"),
    ("evaluation: evaluation.own", "no check that plays"),
])
def test_task_file_errors_are_reported_at_their_lines(marker, message):
    with pytest.raises(TaskFileError) as raised:
        load_course(DATA / "errors.yaml")
    problems = [(p.line, p.message) for p in raised.value.problems]
    if message is None:     # the task without a depth: its check's line
        line = line_of("id: without-depth") + 4
        assert any(number == line and "needs the task's depth" in text
                   for number, text in problems), problems
        return
    assert any(number == line_of(marker) and message in text
               for number, text in problems), problems


def test_a_match_on_a_game_tree_is_refused_at_the_check():
    with pytest.raises(TaskFileError) as raised:
        load_course(DATA / "errors.yaml")
    line = line_of("id: on-a-tree") + 5
    assert any(p.line == line and "needs a game two players play" in p.message
               for p in raised.value.problems)


def test_the_check_is_worth_its_last_threshold_and_plays_its_series(spiel):
    task = spiel.tasks[0]
    check = task.checks[0]
    assert check.points == 3.0 and task.evaluation == "evaluation.evaluate"
    plan = Plan.of(spiel)
    assert plan.calls == () and plan.calls_of[check.id] == ()
    (series,) = plan.series_of[check.id]
    assert (series.opponent, series.games, series.opening, series.seed) == \
        ("alphabeta:2", 8, 2, 7)
    assert (series.move_seconds, series.game_seconds) == (1.0, 60.0 / 8)
    assert (series.module, series.function, series.depth) == ("minimax", "alphabeta", 3)
    assert "evaluation" in spiel.modules       # staged like the search's module


def test_a_hidden_match_plays_after_the_visible_calls(spiel):
    task = spiel.tasks[0]
    hidden = replace(task, checks=(replace(task.checks[0], visibility="hidden"),))
    plan = Plan.of(replace(spiel, tasks=(hidden,)))
    (series,) = plan.series
    assert series.key() in plan.hidden_keys
    assert Plan.of(spiel).hidden_keys == frozenset()
    withheld = Plan.of(replace(spiel, tasks=(hidden,)), withhold_hidden=True)
    assert withheld.series == () and withheld.withheld == {hidden.checks[0].id}


# -- early stopping (grader.play.sprt) -------------------------------------------------------

def test_stop_early_puts_the_thresholds_and_margin_into_the_series_only_when_set(spiel):
    (plain,) = Plan.of(spiel).series_of[spiel.tasks[0].checks[0].id]
    assert (plain.stop_early, plain.thresholds) == (False, ())
    (stopping,) = Plan.of(load_course(DATA / "stop-early.yaml")).series
    assert stopping.stop_early and stopping.thresholds == (0.1, 0.3, 0.45)
    assert stopping.margin == 0.05 and stopping.games == 20


def test_a_clear_case_stops_early_the_same_way_each_time_and_says_so(child_script):
    from grader.play.series import play_series
    from grader.sandbox.run import SubmissionRun
    course = load_course(DATA / "stop-early.yaml")
    check = course.tasks[0].checks[0]
    (series,) = Plan.of(course).series
    with SubmissionRun(child_script, SPIEL / "submissions" / "fenster", 120) as run:
        first = play_series(series, run, name="fenster")
        again = play_series(series, run, name="fenster")
    played = len(first["games"])
    assert 4 <= played < 20 and played % 2 == 0
    assert first["planned"] == 20 and first["decisions"] == ["above"] * 3
    # deterministic: the same seeds give the same games and the same stopping point
    assert actions(again) == actions(first)
    verdict = match.judge(check, [first], [])
    assert verdict.passed and verdict.score == 3.0
    stopped = verdict.facts["stopped"]
    assert (stopped["played"], stopped["planned"], stopped["early"]) == (played, 20, True)
    assert stopped["decisions"] == [[0.1, "above"], [0.3, "above"], [0.45, "above"]]
    english = Catalogue("en").text("ok.match", **verdict.facts)
    assert (f"Stopped after {played} of 20 games: the share is clearly above 10 %, 30 % and "
            "45 %.") in english
    german = Catalogue("de").text("ok.match", **verdict.facts)
    assert (f"Abgebrochen nach {played} von 20 Partien: der Anteil liegt klar über 10 %, 30 % "
            "und 45 %.") in german


def test_a_series_stopped_below_every_threshold_earns_nothing_and_says_so(spiel):
    check = spiel.tasks[0].checks[0]
    options = {**dict(check.options), "stop_early": True}
    check = replace(check, options=tuple(sorted(options.items())))
    lost = {**record("absturz"), "planned": 20, "decisions": ["below"] * 3}
    verdict = match.judge(check, [lost], [])
    assert verdict.score == 0.0 and verdict.facts["stopped"]["below"] == [0.1, 0.3, 0.45]
    text = Catalogue("en").text("reason.match.points", **verdict.facts)
    assert "Stopped after 8 of 20 games: the share is clearly below 10 %, 30 % and 45 %." \
        in text
    german = Catalogue("de").text("reason.match.points", **verdict.facts)
    assert "Abgebrochen nach 8 von 20 Partien: der Anteil liegt klar unter 10 %, 30 % und " \
        "45 %." in german


def actions(series_record: dict) -> list:
    """Each game's moves without their CPU seconds, which vary from run to run."""
    return [[(m["player"], m["action"]) for m in game["moves"]]
            for game in series_record["games"]]


def test_a_series_that_runs_out_before_settling_earns_its_observed_share(spiel):
    """The fenster record (4 of 8 points) with every threshold still open at its end: the
    share decides, as without early stopping, and the feedback says why all were played."""
    check = spiel.tasks[0].checks[0]
    options = {**dict(check.options), "stop_early": True}
    check = replace(check, options=tuple(sorted(options.items())))
    played = {**record("fenster"), "planned": 8, "decisions": ["above", "open", "open"]}
    verdict = match.judge(check, [played], [])
    assert verdict.score == 3.0 and verdict.facts["stopped"]["early"] is False
    text = Catalogue("en").text("ok.match", **verdict.facts)
    assert ("All 8 games were played: the share was not clearly above or below 30 % and 45 % "
            "before, so the share of all the games counts.") in text


# -- the self-check kit ----------------------------------------------------------------------

def test_a_self_check_kit_leaves_match_checks_out_and_counts_them_for_hand_in():
    course = load_course(DATA / "with-value.yaml")
    shown, left_out = visible_course(course)
    assert left_out == 1
    assert [c.kind for task in shown.tasks for c in task.checks] == ["value"]
    only_play = load_course(SPIEL / "tasks")          # a match and a rating check
    shown, left_out = visible_course(only_play)
    assert shown.tasks == () and left_out == 2


# -- the course, graded for real ------------------------------------------------------------

@pytest.fixture(scope="module")
def graded(graded_spiel):
    return graded_spiel       # the match and the rating task graded together, once a run


def test_stronger_evaluations_earn_clearly_more_points(graded):
    _, results = graded
    # the match task's points (the course's second task rates: tests/test_rating_check.py)
    score = {student: next(t["score"] for t in result["tests"] if "c4-spiel" in t["name"])
             for student, result in results.items()}
    assert score["fenster"] == 3          # the window count
    assert score["mitte"] == 1            # only the centre column
    assert score["null"] == score["zufall"] == 0
    assert score["fenster"] > score["mitte"] > score["null"]


def test_crashing_hanging_and_illegal_players_lose_with_their_reason_and_the_batch_completes(
        graded):
    out, results = graded
    assert set(results) == {"fenster", "mitte", "null", "zufall", "absturz", "endlos", "text"}
    crashed = (out / "absturz" / "feedback.md").read_text(encoding="utf-8")
    assert "dein Spieler ist abgestürzt (exit status 3)" in crashed
    hung = (out / "endlos" / "feedback.md").read_text(encoding="utf-8")
    assert "dein Spieler gab keinen Zug innerhalb von 0.5 s Rechenzeit" in hung
    assert results["absturz"]["score"] == results["endlos"]["score"] == 0
    illegal = (out / "text" / "feedback.md").read_text(encoding="utf-8")
    assert ('dein Spieler zog "2", keinen erlaubten Zug: sein Typ ist str, die Züge des '
            'Spiels sind vom Typ int (erlaubt: 0, 1, 2, 3, 4, 5, 6)') in illegal
    assert results["text"]["score"] == 0
    state = json.loads((out / "endlos" / ".grading.json").read_text(encoding="utf-8"))
    verdict = state["verdicts"][0]                      # the match's
    assert {g["reason"] for g in verdict["facts"]["game_list"]} == {"timeout"}


def test_each_student_s_games_are_written_as_replays_beside_the_report(graded):
    out, _ = graded
    written = json.loads((out / "fenster" / "replays" / "c4-spiel.alphabeta.match.json")
                         .read_text(encoding="utf-8"))
    assert written["check"] == "c4-spiel/alphabeta/match" and len(written["games"]) == 8
    for game in written["games"]:
        assert replay(game) == game["final"]
        assert {p["name"] for p in game["players"].values()} == {"fenster", "alphabeta:2"}


def test_the_feedback_links_a_page_of_the_games_drawn_move_by_move(graded):
    out, _ = graded
    folder = out / "absturz"
    page = folder / "replays" / "c4-spiel.alphabeta.match.html"
    for feedback in ("feedback.html", "feedback.md"):
        text = (folder / feedback).read_text(encoding="utf-8")
        assert "replays/c4-spiel.alphabeta.match.html" in text
        assert "replays/c4-spiel.alphabeta.match.json" in text
    html = page.read_text(encoding="utf-8")
    assert html.count('<details class="game loss"') == 8     # it crashes in every game
    assert "Dein Spieler: absturz." in html and "abgestürzt" in html
    assert 'href="../leaderboard.html"' not in html            # no tournament around it


def test_a_hidden_match_counts_but_shows_the_student_neither_games_nor_replays(
        spiel, child_script):
    from grader.batch import budget_of, prepare
    from grader.grading import grade_submission
    from grader.report.writers import render_student
    task = spiel.tasks[0]
    hidden = replace(spiel, tasks=(replace(task, checks=(
        replace(task.checks[0], visibility="hidden"),)),))
    plan, answers = prepare(hidden)
    result = grade_submission(plan, answers, child_script, SPIEL / "submissions" / "mitte",
                              budget_of(hidden))
    assert result.score == 1.0                 # a hidden check counts
    assert result.verdicts[0].facts["won"] == 1
    files = render_student(result, hidden, Catalogue("de"))
    assert not any(name.startswith("replays/") for name in files)
    assert "alphabeta:2" not in files["feedback.md"]   # no record, no opponent named
    assert "verborgener Test" in files["feedback.md"]


def test_a_match_leaves_the_run_s_timeouts_as_it_found_them(spiel, child_script):
    """A game asks a search that timed out in an earlier game again; the run's ordinary calls
    keep what they knew: a function that timed out before the match is still not called after
    it, and a timeout within the match does not stop later ordinary calls."""
    from grader.calls import Call
    from grader.play.series import play_series
    from grader.sandbox.run import SubmissionRun
    (series,) = Plan.of(spiel).series_of[spiel.tasks[0].checks[0].id]
    # endlos never answers, so any limit is reached: each of its five timeouts below costs the
    # limit in CPU time, 0.2 s
    series = replace(series, games=2, move_seconds=0.2, game_seconds=2.0)
    call = Call("minimax", "alphabeta", "game", ('{"kind":"connect4","columns":4,"rows":4,'
                                                 '"connect":3,"board":"..../..../..../...."}',),
                args=(2,), time_limit=0.2)
    with SubmissionRun(child_script, SPIEL / "submissions" / "endlos", 60) as run:
        record = play_series(series, run, name="endlos")
        assert [game["reason"] for game in record["games"]] == ["timeout", "timeout"]
        assert run.timed_out == {}                          # nothing of the match leaks out
        assert run.run_call(call).status == "timeout"       # so the ordinary call is made
        record = play_series(series, run, name="endlos")    # and each game asks again
        assert [game["reason"] for game in record["games"]] == ["timeout", "timeout"]
        assert run.run_call(call).status == "after-timeout"  # what the run knew, kept


def test_the_session_batch_s_task_file_is_the_course_s_but_for_depth_and_match_move_time():
    """The session batch (``graded_spiel``) grades the course's students with
    tests/data/match/spiel-tiefe-2.yaml instead of the course's own task file, to save CPU
    time; what the tests above read of it stands for the course only while the two files set
    the same tasks, checks, opponents, seeds and thresholds.  Only the search depth and a
    match move's seconds may differ: an edit of the course that the copy does not follow
    fails here."""
    course, lighter = load_course(SPIEL / "tasks"), load_course(DATA / "spiel-tiefe-2.yaml")

    def kept(task):
        checks = tuple(replace(check, file="", line=0, options=tuple(
            (name, value) for name, value in check.options
            if not (check.kind == "match" and name == "move_seconds")))
            for check in task.checks)
        return replace(task, file="", line=0, depth=None, checks=checks)
    assert [kept(task) for task in lighter.tasks] == [kept(task) for task in course.tasks]
    assert {task.depth for task in lighter.tasks} == {2}
    assert [dict(check.options)["move_seconds"] for task in lighter.tasks
            for check in task.checks] == [0.5, 0.5]
    assert replace(lighter, tasks=(), files=(), title="") == \
        replace(course, tasks=(), files=(), title="")
