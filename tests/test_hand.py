"""Hand exercises (issue 26): the sheet's exercise 1 as a bundled task, graded from answer
files with partial credit, follow-on errors, the misconceptions named and the student's tree
drawn; the reference's hand run checked against the reference alpha-beta itself."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from grader.answers.bounded import make_game
from grader.grading import grade_submission, prepare
from grader.random_tree_generator import Shape, generate
from grader.report.messages import Catalogue
from grader.report.writers import render_student
from grader.tasks import TaskFileError, load_course

from conftest import DATA, ROOT

COURSE = ROOT / "courses" / "von-hand"
HAND = DATA / "hand"


@pytest.fixture(scope="module")
def course():
    return load_course(COURSE / "tasks")


@pytest.fixture(scope="module")
def prepared(course):
    return prepare(course)


@pytest.fixture(scope="module")
def grade(prepared, child_script):
    plan, answers = prepared

    def run(folder: Path, the_prepared=None):
        the_plan, the_answers = the_prepared or (plan, answers)
        return grade_submission(the_plan, the_answers, child_script, folder, 60, "process")
    return run


def scores(result) -> dict:
    return {v.check.kind: v.score for v in result.verdicts}


def test_the_sheets_exercise_1_is_a_bundled_task_whose_pins_hold(course):
    task = course.task("aufgabe1")
    assert task.answers == "aufgabe1"
    assert {c.kind for c in task.checks} == {"hand-values", "hand-intervals", "hand-returns",
                                             "hand-cuts", "hand-order"}
    from grader.answers.pins import verify_pins
    from grader.answers.book import AnswerBook
    assert verify_pins(course, AnswerBook()) == []


def test_the_seeds_worked_solution_typed_in_gets_full_marks(grade, course):
    result = grade(COURSE / "submissions" / "loesung-des-blatts")
    assert result.score == course.max_score == 26
    assert all(v.passed for v in result.verdicts)


def test_one_wrong_value_interval_and_cut_edge_lose_exactly_those_points(grade, course):
    result = grade(HAND / "drei-fehler")
    lost = {kind: check_points - scores(result)[kind]
            for kind, check_points in ((c.kind, c.points) for c in course.task("aufgabe1").checks)}
    # one of 7 values, one of 7 intervals, one of 3 cut edges; nothing else
    assert lost == {"hand-values": 1, "hand-intervals": 1, "hand-returns": 0, "hand-cuts": 1,
                    "hand-order": 0}
    values = next(v for v in result.verdicts if v.check.kind == "hand-values")
    marks = {f["node"]: f["mark"] for f in values.facts["fields"]}
    assert marks["C"] == "wrong" and marks["A"] == "follow-on", \
        "A = max(3, 9, 1) is right given the student's C: not charged twice"
    assert values.facts["mistakes"] == ["min-maximising"]
    intervals = next(v for v in result.verdicts if v.check.kind == "hand-intervals")
    assert intervals.facts["mistakes"] == ["window-not-passed"]


def test_the_feedback_draws_the_students_tree_and_rings_the_first_difference(grade, course):
    result = grade(HAND / "drei-fehler")
    files = render_student(result, course, Catalogue("en"))
    page = files["feedback.html"]
    assert 'class="hand-tree"' in page
    ringed = re.findall(r'<g class="node [a-z]+ first" data-node="([^"]+)"', page)
    assert ringed == ["C"], "the first charged difference in preorder (A only follows from C)"
    assert 'class="cutmark cut-missing" data-edge="C-G"' in page
    assert 'class="cutmark cut-right" data-edge="D-D2"' in page
    markdown = files["feedback.md"]
    assert "C ▼ 9✗" in markdown and "A ▲ 9↷" in markdown
    assert "a MIN node takes the smallest of its children's values" in markdown
    assert "is right given your own answers elsewhere" in markdown
    german = render_student(result, course, Catalogue("de"))["feedback.md"]
    assert "ein MIN-Knoten maximiert" in german


def test_an_order_that_reaches_the_fewest_visits_is_right_and_another_is_not(grade):
    right = grade(HAND / "reihenfolge-richtig")
    wrong = grade(HAND / "reihenfolge-falsch")
    assert scores(right)["hand-order"] == 2
    assert scores(wrong)["hand-order"] == 0
    field = next(v for v in wrong.verdicts if v.check.kind == "hand-order").facts["fields"][0]
    assert (field["visited"], field["fewest"]) == (16, 12)
    assert "F, E, G" in field["best"] and "F, G, E" in field["best"]


def test_an_interval_right_given_the_students_own_wrong_return_is_a_follow_on(grade):
    result = grade(HAND / "eigener-rueckgabewert")
    intervals = next(v for v in result.verdicts if v.check.kind == "hand-intervals")
    returns = next(v for v in result.verdicts if v.check.kind == "hand-returns")
    assert {f["node"]: f["mark"] for f in intervals.facts["fields"]}["F"] == "follow-on"
    assert intervals.score == intervals.max_score
    assert {f["node"]: f["mark"] for f in returns.facts["fields"]}["E"] == "wrong"
    assert returns.score == pytest.approx(6.0)


def test_the_ways_people_write_the_same_answers_all_count(grade, course):
    result = grade(HAND / "schreibweisen")
    assert scores(result) == {"hand-values": 7, "hand-intervals": 7, "hand-returns": 7,
                              "hand-cuts": 3, "hand-order": 2}


def test_a_hidden_question_adds_nothing_to_the_students_page(grade, tmp_path):
    text = (COURSE / "tasks" / "blatt3-aufgabe1.yaml").read_text()
    text = text.replace("{kind: hand-cuts, points: 3}",
                        "{kind: hand-cuts, points: 3, visibility: hidden}")
    (tmp_path / "tasks.yaml").write_text(text)
    hidden_course = load_course(tmp_path / "tasks.yaml")
    result = grade(HAND / "drei-fehler", prepare(hidden_course))
    student = render_student(result, hidden_course, Catalogue("en"))
    page = student["feedback.html"]
    assert "cutmark cut-" not in page and "C→G" not in page, "no trace of the hidden question"
    assert "A hidden check failed." in student["feedback.md"]
    # the instructor's record keeps it
    record = json.loads(student["results.json"])
    hidden = [t for t in record["tests"] if t["visibility"] == "hidden"]
    assert hidden and hidden[0]["score"] == 2


def test_a_missing_answer_file_costs_the_tasks_questions_with_a_clear_message(grade, course,
                                                                              tmp_path):
    (tmp_path / "notizen.txt").write_text("vergessen")
    result = grade(tmp_path)
    assert result.score == 0
    message = render_student(result, course, Catalogue("de"))["feedback.md"]
    assert "deine Abgabe enthält keine Antwortdatei aufgabe1.yaml" in message


def test_the_answer_file_is_found_in_a_subfolder_as_lms_downloads_put_it(grade, tmp_path):
    shutil.copytree(COURSE / "submissions" / "loesung-des-blatts", tmp_path / "Abgabe" / "Blatt3")
    assert grade(tmp_path).score == 26


def test_hand_checks_without_an_answer_file_or_on_chance_trees_are_refused(tmp_path):
    (tmp_path / "t.yaml").write_text(
        "tasks:\n"
        "  - id: t\n    game: tree\n    tree: {A: {B: [1, 2], C: [3, 4]}}\n"
        "    functions: [minimax]\n    checks: [{kind: hand-values}]\n"
        "  - id: u\n    game: tree\n    players: [MAX, CHANCE]\n"
        "    tree: {A: {B: [1, 2], C: [3, 4]}}\n    answers: u\n"
        "    functions: [expectimax, alphabeta]\n"
        "    checks: [{kind: hand-values}, {kind: hand-cuts}, {kind: hand-order, nodes: [B1]}]\n")
    with pytest.raises(TaskFileError) as error:
        load_course(tmp_path / "t.yaml")
    text = str(error.value)
    assert "t.yaml:6: a hand-values check asks about a hand exercise" in text
    assert "t.yaml:13: the lecture's alpha-beta has no chance nodes" in text
    assert "'B1' is a leaf" in text


def test_expectimax_values_by_hand_on_a_chance_tree(tmp_path, child_script):
    (tmp_path / "t.yaml").write_text(
        "tasks:\n  - id: t\n    game: tree\n    players: [MAX, CHANCE]\n"
        "    tree: {A: {B: [1, 3], C: [\"0 p=0.25\", \"8 p=0.75\"]}}\n    answers: t\n"
        "    functions: [expectimax]\n    checks: [{kind: hand-values}, {kind: hand-move}]\n")
    course = load_course(tmp_path / "t.yaml")
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "t.yaml").write_text("values: {A: 6, B: 2, C: 6}\nmove: C\n")
    plan, answers = prepare(course)
    result = grade_submission(plan, answers, child_script, folder, 60, "process")
    assert result.score == result.max_score == 2


def tree_of(spec):
    from reference.hand import shape
    return shape(*make_game(spec))


@pytest.mark.parametrize("equality", [True, False])
def test_the_hand_run_visits_exactly_what_the_reference_alphabeta_visits(equality):
    from reference.hand import alphabeta_run, node_values
    from reference.minimax import alphabeta, minimax
    for spec in generate(11, 150, Shape(depth=(1, 4), values=(-5, 5))):
        spec = {k: v for k, v in spec.items()}
        game, root = make_game(spec)
        value, _ = alphabeta(game, root, None, prune_on_equality=equality)
        visits = game.visit_log()["visits"]
        run = alphabeta_run(tree_of(spec), equality)
        assert run["visits"] == list(dict.fromkeys(visits))
        assert run["returns"][spec["root"]] == value
        assert node_values(tree_of(spec))[spec["root"]] == minimax(*make_game(spec))[0]
        # every cut edge leads from a visited node to a child never entered, after a sibling
        for parent, child in run["cut_edges"]:
            assert parent in run["intervals"] and child not in run["intervals"]


def with_questions(tmp_path, *checks) -> "Course":
    text = (COURSE / "tasks" / "blatt3-aufgabe1.yaml").read_text()
    text = text.replace("      - {kind: hand-order, nodes: [C], points: 2}",
                        "      - {kind: hand-order, nodes: [C], points: 2}\n" + "".join(
                            f"      - {check}\n" for check in checks))
    (tmp_path / "tasks.yaml").write_text(text)
    return load_course(tmp_path / "tasks.yaml")


def test_the_classic_misconceptions_are_named_where_they_fit(grade, tmp_path):
    course = with_questions(tmp_path, "{kind: hand-visited, points: 1}")
    result = grade(HAND / "fehlvorstellungen", prepare(course))
    named = {v.check.kind: v.facts["mistakes"] for v in result.verdicts}
    assert named["hand-values"] == ["min-maximising", "max-minimising"]
    assert named["hand-intervals"] == ["swapped", "pruned-visited"]
    assert named["hand-returns"] == ["fail-hard"]
    assert named["hand-cuts"][0] == "wrong-side"
    assert named["hand-visited"] == ["pruned-counted"]
    text = render_student(result, course, Catalogue("en"))["feedback.md"]
    for words in ("a MIN node maximising", "a MAX node minimising", "α and β are swapped",
                  "a pruned node counted as visited", "clamped to the window [α, β] (fail-hard)",
                  "tests the cut on the wrong side", "you count the child at the end of each "
                  "cut edge as visited"):
        assert words in text, words
    cuts = next(v for v in result.verdicts if v.check.kind == "hand-cuts")
    assert {e["edge"]: e["mark"] for e in cuts.facts["extras"]}["G→G3"] == "below", \
        "an edge inside a subtree cut off already costs nothing"


def test_pruning_the_first_child_and_returning_the_minimax_value_are_named(grade):
    result = grade(HAND / "erstes-kind")
    named = {v.check.kind: v.facts["mistakes"] for v in result.verdicts}
    assert named["hand-cuts"] == ["first-child"]
    assert named["hand-returns"] == ["minimax-return"]
    cuts = next(v for v in result.verdicts if v.check.kind == "hand-cuts")
    assert cuts.score == pytest.approx(2.0), "3 of 3 cut edges, one edge too many"


def test_a_hand_answer_is_kept_in_the_answer_cache_exactly(prepared):
    """Its intervals hold ±inf, its tables lists of lists: the cache brings them back equal,
    in value and in type."""
    from grader.cache import decode, dumps
    from test_answer_cache import same_in_type_and_value
    plan, answers = prepared
    for call in plan.calls:
        answer = answers[call]
        same_in_type_and_value(decode(dumps(answer)), answer, call.function)
        assert answer[0]["alphabeta"]["intervals"]["A"] == [-float("inf"), float("inf")]
