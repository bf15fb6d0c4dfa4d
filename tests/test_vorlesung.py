"""The second bundled course (courses/vorlesung/): one sheet per topic of the lecture beyond
the exercise sheet, graded for real with the sandbox.  A correct student gets full marks;
each faulty one loses points where its mistake shows, and the mistake is named in that task,
even where the student has a second mistake that explains the other tasks."""

import json
import re

import pytest

from grader.tasks import load_course

from conftest import ROOT, grade_course, kit_once

COURSE = ROOT / "courses" / "vorlesung"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return grade_course(COURSE / "tasks", COURSE / "submissions",
                        tmp_path_factory.mktemp("vorlesung-reports"))


def sections(feedback: str) -> dict[str, str]:
    """The feedback page's text per task id."""
    parts = re.split(r"^## .*\(`([^`]+)`\).*$", feedback, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def test_the_course_sets_each_topic_of_the_lecture():
    course = load_course(COURSE / "tasks")
    games = {(task.game, task.depth is not None, task.heuristic) for task in course.tasks}
    assert ("tictactoe", True, "tictactoe-lines") in games      # the sheet's evaluation
    assert ("connect4", True, None) in games                    # depth-limited Connect Four
    assert any(task.game == "kalah" for task in course.tasks)
    assert any(task.reference_of(f) == "maxn" for task in course.tasks for f in task.functions)
    # and the search techniques after alpha-beta, one task each
    functions = {task.reference_of(f) for task in course.tasks for f in task.functions}
    assert {"order", "alphabeta_killer", "alphabeta_tt", "negascout", "mtdf",
            "iterative_deepening", "principal_variation", "quiescence"} <= functions
    assert course.title == "Vorlesung: Spielbaumsuche über Alpha-Beta hinaus"


def test_the_correct_student_gets_full_marks(graded):
    _, results = graded
    result = results["korrekt"]
    assert [t["name"] for t in result["tests"] if t["score"] != t["max_score"]] == []
    assert result["score"] == sum(t["max_score"] for t in result["tests"])


@pytest.mark.parametrize("student, task_id, named", [
    ("abwechselnd", "v-kalah-3x2", "streng abwechselnd maximiert und minimiert"),
    ("zwei-spieler", "v-drei-spieler", "wie Zwei-Personen-Minimax auf der Komponente"),
    ("horizont-zu-frueh", "v-c4-tiefe3", "schon einen Halbzug vor dem Horizont bewertet"),
    # at depth 2 a horizon one ply early is a one-ply lookahead
    ("horizont-zu-frueh", "v-ttt-tiefe2", "nur einen Halbzug vorausschaut"),
    # its second mistake: it takes turns by depth, which Kalah's extra turns expose
    ("horizont-zu-frueh", "v-kalah-3x2", "streng abwechselnd maximiert und minimiert"),
    ("sortierung-falscher-spieler", "v-sortierung",
     "Deine Zugsortierung verhält sich genau wie eine, die die Züge aus Sicht des Gegners"),
    ("killer-einer", "v-killer", "einen einzigen Killerzug für alle Ebenen führt"),
    ("tabelle-schranke-als-exakt", "v-tabelle", "jeden Wert als exakt in die Transpositionstabelle"),
    ("iterationen-ab-null", "v-vertiefung", "die Iterationen bei Tiefe 0 statt 1 beginnt"),
    ("pv-verkehrt", "v-vertiefung", "die Zugfolge verkehrt herum aufbaut"),
    ("ruhe-horizont-unruhig", "v-ruhesuche", "auch unruhige Stellungen am Horizont mit evaluate"),
])
def test_each_faulty_student_hears_its_mistake_in_the_task_it_shows_in(graded, student,
                                                                       task_id, named):
    out, results = graded
    lost = {t["name"].split("/")[0] for t in results[student]["tests"]
            if t["score"] < t["max_score"]}
    assert task_id in lost
    if student not in ("horizont-zu-frueh",):     # the others have one mistake: one task
        assert lost == {task_id}
    text = sections((out / student / "feedback.md").read_text())
    assert named in text[task_id]


def test_a_search_that_stops_above_the_horizon_is_told_where(graded):
    out, _ = graded
    text = sections((out / "horizont-zu-frueh" / "feedback.md").read_text())
    assert "Deine Suche bewertet nur Knoten über dem Horizont (1, 2, 3, 5, 6, 7)" \
        in text["v-ttt-tiefe2"]


def test_solve_lists_every_function_of_the_course(capsys):
    from grader.cli import main
    assert main(["solve", str(COURSE / "tasks"), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    listed = {(row["task"], row["function"]) for row in rows}
    course = load_course(COURSE / "tasks")
    assert listed == {(task.id, f) for task in course.tasks for f in task.functions}
    deepening = next(r for r in rows if r["function"] == "iterative_deepening")
    assert (deepening["values"], deepening["move"]) == ([3, -3, 2], 1)
    line = next(r for r in rows if r["function"] == "principal_variation")
    assert (line["value"], line["move"]) == (2, [1, 8, 5])
    assert next(r for r in rows if r["function"] == "maxn")["value"] == [7, 8, 1]


def test_the_kit_says_which_checks_it_leaves_to_the_grading(tmp_path_factory):
    # the run's one kit of the course (tests/test_kit_replay.py replays what it holds)
    _, stderr = kit_once(tmp_path_factory, "kit-vorlesung", COURSE / "tasks")
    said = " ".join(stderr.split())
    # the move-ordering check is judged with the reference's alpha-beta: not in the kit
    assert ": 45 checks, 0 hidden ones left out, and 1 judged with the model solutions (run " \
        "only when grading)." in said


def test_iterations_from_depth_zero_are_told_that_the_root_was_evaluated(graded):
    out, _ = graded
    text = " ".join(sections((out / "iterationen-ab-null" / "feedback.md").read_text())
                    ["v-vertiefung"].split())
    assert "Der Grader zählt 2 Suchen von der Wurzel aus, erwartet sind 3 (Tiefe 1 bis 3). " \
        "Deine Suche bewertet die Wurzel selbst mit evaluate, wie eine Iteration mit Tiefe 0" \
        in text
    assert "hebe Kindzustände nicht" not in text
