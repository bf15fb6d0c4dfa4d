"""The bundled example students get the grades and feedback their code deserves."""

from conftest import ROOT


def failed_checks(results):
    return {t["name"].split(" ")[0] for t in results["tests"] if t["status"] == "failed"}


def points(course, predicate):
    return sum(c.points for t in course.tasks for c in t.checks if predicate(c))


def test_the_correct_student_gets_full_marks(graded_examples, course):
    _, results = graded_examples
    assert results["korrekt"]["score"] == course.max_score
    assert failed_checks(results["korrekt"]) == set()


def test_strict_pruning_loses_exactly_the_checks_where_ties_decide(graded_examples):
    out, results = graded_examples
    assert failed_checks(results["strikter-schnitt"]) == {
        "ttt-midgame-a/alphabeta/count", "ttt-midgame-a/alphabeta/visited",
        "ttt-midgame-b/alphabeta/count", "random-trees/alphabeta/random-trees",
        "random-trees/alphabeta/random-trees-2"}
    feedback = (out / "strikter-schnitt" / "feedback.md").read_text()
    assert "Du besuchst 125 Knoten, die Referenz nur 88." in feedback
    assert "Ein verborgener Test ist fehlgeschlagen." in feedback


def test_missing_alphabeta_costs_only_the_alphabeta_checks(graded_examples, course):
    out, results = graded_examples
    lost = points(course, lambda c: c.function == "alphabeta")
    assert results["ohne-alphabeta"]["score"] == course.max_score - lost
    assert all(t["status"] == "passed" for t in results["ohne-alphabeta"]["tests"]
               if "alphabeta" not in t["tags"])
    assert "In minimax.py gibt es keine Funktion alphabeta." in \
        (out / "ohne-alphabeta" / "feedback.md").read_text()


def test_a_search_that_never_returns_is_stopped_and_costs_only_its_checks(graded_examples, course):
    out, results = graded_examples
    lost = points(course, lambda c: c.function == "negamax")
    assert results["endlosschleife"]["score"] == course.max_score - lost
    assert "Keine Antwort innerhalb von 1.0 s" in (out / "endlosschleife" / "feedback.md").read_text()


def test_a_syntax_error_is_reported_with_file_and_line(graded_examples, course):
    out, results = graded_examples
    assert results["syntaxfehler"]["score"] == points(course, lambda c: c.function == "evaluate")
    feedback = (out / "syntaxfehler" / "feedback.md").read_text()
    assert "minimax.py lässt sich nicht laden: SyntaxError: expected ':' (Zeile 43)" in feedback


def test_students_folders_are_left_untouched(graded_examples):
    for folder in (ROOT / "submissions").iterdir():
        assert not (folder / "__pycache__").exists(), f"bytecode written into {folder}"
