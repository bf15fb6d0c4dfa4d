"""The ``rating`` check kind (issue 13): a student's search rated among several baselines.

The judge is tested as a pure function on hand-made records (games whose results are chosen
so that the ladder's outcome is known); the baselines' round robin played for real and kept
in the answer cache; the task file's errors at their lines; and the students of the bundled
course ``courses/spiel/`` graded for real with ``grader grade`` in the sandbox (the session
batch, with its task file searched at depth 2: ``tests/data/match/spiel-tiefe-2.yaml``, which
tests/test_match.py holds to the course's).  No assertion
depends on how fast the machine is.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import grader.answers.book
from grader.answers.book import AnswerBook
from grader.calls import Observation
from grader.checks import rating
from grader.grading import Plan, prepare
from grader.kit import visible_course
from grader.play import replay
from grader.play.series import RoundRobin
from grader.report.messages import Catalogue
from grader.tasks import TaskFileError, load_course


ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "rating"
SPIEL = ROOT / "courses" / "spiel"
FLIP = {"win": "loss", "loss": "win", "draw": "draw"}


@pytest.fixture(scope="module")
def spiel():
    return load_course(SPIEL / "tasks")


@pytest.fixture(scope="module")
def check(spiel):
    """The spiel course's rating check: opponents random, greedy, alphabeta:2; 4 games each;
    ladder above random 1, above greedy 2, above alphabeta:2 3."""
    (task,) = [task for task in spiel.tasks if task.id == "c4-wertung"]
    return task.checks[0]


# -- hand-made records ----------------------------------------------------------------------

def game(first: dict, second: dict, result: str, reason: str = "end",
         forfeit: dict | None = None) -> dict:
    """A replay as the referee writes it, without moves: ``result`` from ``first``'s view."""
    return {"format": "gametree-grader replay 1", "game": {"kind": "connect4"}, "seed": "7/1",
            "opening": 0, "players": {"X": first, "O": second}, "moves": [],
            "result": result, "score": None, "reason": reason, "forfeit": forfeit,
            "final": ""}


def base(name: str) -> dict:
    return {"kind": "baseline", "name": name}


STUDENT = {"kind": "submission", "name": "greedy"}   # a hostile name: a baseline's


def series(opponent: str, results: list[str], **failure) -> dict:
    """The student's series against ``opponent``: ``results`` from the student's view, the
    student first in the odd games (``grader.play.series``)."""
    games = []
    for number, result in enumerate(results, 1):
        if number % 2:
            games.append(game(STUDENT, base(opponent), result, **failure))
        else:
            games.append(game(base(opponent), STUDENT, FLIP[result], **failure))
    return {"format": "gametree-grader series 1", "opponent": opponent, "games": games}


def round_robin(outcomes: dict) -> list:
    """The reference answer: ``outcomes[(a, b)]`` the results of a's games against b."""
    games = []
    for (first, second), results in outcomes.items():
        for number, result in enumerate(results, 1):
            games.append(game(base(first), base(second), result) if number % 2 else
                         game(base(second), base(first), FLIP[result]))
    return [{"format": "gametree-grader round robin 1", "opponents": [], "games": games}]


# A clear order of strength: alphabeta:2 beats greedy, which beats random.
ORDERED = round_robin({("random", "greedy"): ["loss"] * 4,
                       ("random", "alphabeta:2"): ["loss"] * 4,
                       ("greedy", "alphabeta:2"): ["loss", "loss", "draw", "loss"]})


def test_a_student_between_greedy_and_alphabeta_earns_the_greedy_rung(check):
    records = [series("random", ["win"] * 4), series("greedy", ["win", "win", "win", "draw"]),
               series("alphabeta:2", ["loss"] * 4)]
    verdict = rating.judge(check, records, [ORDERED])
    facts = verdict.facts
    assert (verdict.score, verdict.max_score, verdict.passed) == (2.0, 3.0, False)
    assert verdict.reason == "rating.points" and facts["reached"] == ["greedy", 2]
    assert [rung[2] for rung in facts["ladder"]] == [True, True, False]
    by_name = {o["name"]: o for o in facts["opponents"]}
    assert (by_name["greedy"]["won"], by_name["greedy"]["drawn"], by_name["greedy"]["lost"]) \
        == (3, 1, 0)
    assert by_name["random"]["above"] and not by_name["alphabeta:2"]["above"]
    assert facts["rating"]["low"] < facts["rating"]["mu"] < facts["rating"]["high"]
    assert len(facts["replays"]) == 12 and facts["games"] == 12
    # the same games give the same ratings
    assert rating.judge(check, records, [ORDERED]).facts == facts


def test_a_student_above_every_baseline_gets_full_marks_with_its_rating_shown(check):
    records = [series(name, ["win"] * 4) for name in ("random", "greedy", "alphabeta:2")]
    verdict = rating.judge(check, records, [ORDERED])
    assert verdict.passed and verdict.score == 3.0 and verdict.reason == "ok"
    assert all(o["above"] for o in verdict.facts["opponents"])
    mu = verdict.facts["rating"]["mu"]
    text = Catalogue("en").text("ok.rating", **verdict.facts)
    assert text.startswith(f"Full marks: Your rating: {mu:g} ±")
    assert "above that of alphabeta:2, the ladder's highest rung: 3 points" in text
    assert "against it you won 4, drew 0 and lost 0 of 4 games" in text
    german = Catalogue("de").text("ok.rating", **verdict.facts)
    assert "Deine Wertung liegt über der von alphabeta:2" in german


def test_the_separated_differences_are_those_the_ratings_tell_apart(check):
    from grader.play.ratings import rate, separated
    records = [series(name, ["win"] * 4) for name in ("random", "greedy", "alphabeta:2")]
    verdict = rating.judge(check, records, [ORDERED])
    games = rating.baseline_games(ORDERED[0]) + [
        ("student", name, 1.0) for name in ("random", "greedy", "alphabeta:2") for _ in range(4)]
    ratings = rate(games)
    for shown in verdict.facts["opponents"]:
        assert shown["separated"] == separated(ratings["student"], ratings[shown["name"]])
    assert any(o["separated"] for o in verdict.facts["opponents"])


def test_a_crashing_student_gets_nothing_and_every_game_names_the_crash(check):
    crash = {"reason": "crashed", "forfeit": None}
    records = [series(name, ["loss"] * 4, **crash) for name in ("random", "greedy",
                                                               "alphabeta:2")]
    for record in records:
        for index, played in enumerate(record["games"]):
            seat = "X" if index % 2 == 0 else "O"
            played["forfeit"] = {"player": seat, "reason": "crashed",
                                 "detail": {"detail": "exit status 3"}, "seconds": 0.0}
    verdict = rating.judge(check, records, [ORDERED])
    assert verdict.score == 0.0 and verdict.facts["reached"] is None
    assert verdict.facts["forfeits"] == 12
    text = Catalogue("en").text("reason.rating.points", **verdict.facts)
    assert "above none of the ladder's baselines: no points" in text
    assert text.count("your player crashed (exit status 3)") == 12
    german = Catalogue("de").text("reason.rating.points", **verdict.facts)
    assert "dein Spieler ist abgestürzt (exit status 3)" in german


def test_a_series_that_was_not_played_fails_with_the_run_s_reason(check):
    missing = Observation("missing-module", error={"module": "minimax", "file": "minimax.py"})
    verdict = rating.judge(check, [missing] * 3, [ORDERED])
    assert verdict.reason == "call.missing-module" and verdict.score == 0.0


def test_a_student_s_name_never_stands_for_a_baseline(check):
    """The student is rated as "student", whatever its folder is called (here: greedy)."""
    records = [series("random", ["win"] * 4), series("greedy", ["loss"] * 4),
               series("alphabeta:2", ["loss"] * 4)]
    verdict = rating.judge(check, records, [ORDERED])
    by_name = {o["name"]: o for o in verdict.facts["opponents"]}
    assert by_name["greedy"]["won"] == 0 and by_name["greedy"]["lost"] == 4
    assert verdict.facts["reached"] == ["random", 1]


# -- the task file and the plan ---------------------------------------------------------------

def line_of(text: str) -> int:
    lines = (DATA / "errors.yaml").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


@pytest.mark.parametrize("marker, message", [
    ("{kind: rating, ladder: [[greedy, 1]]}", "needs opponents: a list of 2 to 8"),
    ("opponents: [greedy], ladder", "needs opponents: a list of 2 to 8"),
    ("minimax:9", "unknown baseline 'minimax:9'"),
    ("[greedy, greedy]", "each opponent may be named once"),
    ("{kind: rating, opponents: [random, greedy]}", "needs a ladder"),
    ('[["alphabeta:3", 1]]', "'alphabeta:3' is not one of the opponents (random, greedy)"),
    ("[[random, 2], [greedy, 1]]", "the ladder goes up"),
    ("points: 5", "worth its last rung's points (2)"),
    ("games: 3", "games must be even"),
    ("move_seconds: 4", "move_seconds must not be more than game_seconds"),
    ('"viele"', "each rung is a pair [baseline, points]"),
])
def test_task_file_errors_are_reported_at_their_lines(marker, message):
    with pytest.raises(TaskFileError) as raised:
        load_course(DATA / "errors.yaml")
    problems = [(p.line, p.message) for p in raised.value.problems]
    assert any(number == line_of(marker) and message in text
               for number, text in problems), problems


def test_a_rating_without_a_depth_or_on_a_tree_is_refused_at_the_check():
    with pytest.raises(TaskFileError) as raised:
        load_course(DATA / "errors.yaml")
    problems = [(p.line, p.message) for p in raised.value.problems]
    assert (line_of("id: without-depth") + 4,
            "a rating check on connect4 needs the task's depth: a search to the end of the "
            "game does not finish a move") in problems
    assert any(number == line_of("id: on-a-tree") + 5 and "needs a game two players play" in
               text for number, text in problems)


def test_the_plan_plays_one_series_per_opponent_and_references_the_round_robin(spiel, check):
    plan = Plan.of(spiel)
    assert check.points == 3.0 and plan.calls_of[check.id] == ()
    played = plan.series_of[check.id]
    assert [s.opponent for s in played] == ["random", "greedy", "alphabeta:2"]
    assert {(s.games, s.opening, s.seed, s.move_seconds) for s in played} == {(4, 2, 7, 0.5)}
    assert played[0].game_seconds == 60.0 / 12        # the budget shared by all 12 games
    (robin,) = plan.references_of[check.id]
    assert robin.opponents == ("random", "greedy", "alphabeta:2") and robin.games == 4


def test_a_self_check_kit_leaves_rating_checks_out(spiel):
    shown, left_out = visible_course(spiel)
    assert shown.tasks == () and left_out == 2       # the match and the rating


# -- the round robin, a reference answer -----------------------------------------------------

@pytest.fixture(scope="module")
def robin(check, spiel):
    (reference,) = Plan.of(spiel).references_of[check.id]
    return reference


def test_the_round_robin_plays_every_two_baselines_from_the_student_s_openings(robin):
    record = robin.play()
    assert len(record["games"]) == 3 * 4            # three pairings, four games each
    pairings = [tuple(sorted(p["name"] for p in g["players"].values()))
                for g in record["games"]]
    assert pairings == [("greedy", "random")] * 4 + [("alphabeta:2", "random")] * 4 \
        + [("alphabeta:2", "greedy")] * 4
    assert [g["seed"] for g in record["games"][:4]] == ["7/1", "7/1", "7/2", "7/2"]
    for played in record["games"]:
        assert replay(played) == played["final"] and played["forfeit"] is None
    # no student is involved: the same seeds give the same games
    again = robin.play()
    assert [[m["action"] for m in g["moves"]] for g in again["games"]] == \
        [[m["action"] for m in g["moves"]] for g in record["games"]]


def test_the_round_robin_is_kept_in_the_answer_cache(spiel, robin, tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("GRADER_NO_CACHE", raising=False)
    course = replace(spiel, tasks=tuple(t for t in spiel.tasks if t.id == "c4-wertung"))
    _, book = prepare(course, answers=AnswerBook.for_course(course))
    computed = book[robin]

    def no_computing(call):
        raise AssertionError("computed although cached")
    monkeypatch.setattr(grader.answers.book, "answer_call", no_computing)
    loaded = AnswerBook.for_course(course)[robin]
    assert json.dumps(loaded, sort_keys=True) == json.dumps(computed, sort_keys=True)


def test_the_answer_cache_key_covers_the_players_and_the_referee():
    from grader.answers.cache import answer_sources
    names = {path.name for path in answer_sources() if path.parent.name == "play"}
    assert {"series.py", "referee.py", "players.py"} <= names


def test_a_round_robin_is_never_a_call_for_the_child(robin):
    assert robin.key().startswith("round-robin:")
    assert isinstance(robin, RoundRobin) and not hasattr(robin, "request")


# -- the course, graded for real ------------------------------------------------------------

@pytest.fixture(scope="module")
def graded(graded_spiel):
    return graded_spiel       # the match and the rating task graded together, once a run


def rating_score(results: dict, student: str) -> float:
    (test,) = [t for t in results[student]["tests"] if "c4-wertung" in t["name"]]
    return test["score"]


def test_the_window_count_rates_clearly_above_the_weak_evaluations(graded):
    _, results = graded
    assert rating_score(results, "fenster") == 3
    for weak in ("null", "zufall", "mitte"):
        assert rating_score(results, weak) == 1       # above random only
    assert results["fenster"]["score"] == 6 and results["mitte"]["score"] == 2


def test_crashing_hanging_and_illegal_players_get_nothing_with_their_reasons(graded):
    out, results = graded
    for student in ("absturz", "endlos", "text"):
        assert rating_score(results, student) == 0 and results[student]["score"] == 0
    reasons = {"absturz": "dein Spieler ist abgestürzt (exit status 3)",
               "endlos": "dein Spieler gab keinen Zug innerhalb von 0.5 s Rechenzeit",
               "text": '", keinen erlaubten Zug: sein Typ ist str, die Züge des Spiels sind '
                       'vom Typ int (erlaubt: '}   # the column as text
    for student, reason in reasons.items():
        feedback = (out / student / "feedback.md").read_text(encoding="utf-8")
        (line,) = [line for line in feedback.splitlines()
                   if "Wertung gegen die Vergleichssuchen" in line]
        assert "Deine Wertung liegt über keiner Vergleichssuche der Leiter" in line
        assert line.count(reason) == 12, student


def test_the_student_s_rating_games_are_written_as_replays_beside_the_report(graded):
    out, _ = graded
    written = json.loads((out / "fenster" / "replays" / "c4-wertung.alphabeta.rating.json")
                         .read_text(encoding="utf-8"))
    assert written["check"] == "c4-wertung/alphabeta/rating" and len(written["games"]) == 12
    opponents = []
    for played in written["games"]:
        assert replay(played) == played["final"]
        names = {p["name"] for p in played["players"].values()}
        assert "fenster" in names
        opponents.append((names - {"fenster"}).pop())
    assert opponents == ["random"] * 4 + ["greedy"] * 4 + ["alphabeta:2"] * 4
