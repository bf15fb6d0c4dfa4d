"""Modules a course provides (``provides:``): imported by every submission from the course,
never handed in; a submission's own copy is reported, and the course decides which is used."""

from dataclasses import replace

import pytest

from grader.tasks import TaskFileError, load_course

from conftest import DATA

PROVIDES = DATA / "provides"


@pytest.fixture(scope="module")
def provides_course():
    return load_course(PROVIDES / "tasks.yaml")


def test_a_submission_that_imports_the_provided_module_is_graded(provides_course, grade):
    result = grade(PROVIDES / "nutzt-kurs", provides_course)
    assert [(v.check.id, v.reason) for v in result.verdicts if not v.passed] == []
    assert result.notes == []


def test_the_course_copy_wins_over_a_students_own_and_that_is_said(provides_course, grade):
    """The student's kurs.py tries the children in reverse: not used, and noted."""
    result = grade(PROVIDES / "eigene-kopie", provides_course)
    assert result.score == result.max_score
    assert [(n.key, n.facts) for n in result.notes] == [("provided-kept",
                                                         {"module": "kurs.py"})]


def test_a_course_may_let_the_students_own_copy_win(provides_course, grade):
    course = replace(provides_course, provided_wins=False)
    result = grade(PROVIDES / "eigene-kopie", course)
    assert {v.check.id for v in result.verdicts if not v.passed} == {
        "sheet-tree/minimax/visited", "sheet-tree/alphabeta/visited"}, "its own reversed order"
    assert [n.key for n in result.notes] == ["provided-own"]


def test_provided_modules_are_read_with_the_task_file(provides_course):
    [module] = provides_course.provided
    assert (module.name, module.written) == ("kurs", "kurs.py")
    assert "def kinder" in module.source
    assert str(PROVIDES / "kurs.py") in provides_course.source_files


@pytest.mark.parametrize("provides, message", [
    ("[minimax.py]", r"t.yaml:3: minimax.py is the module students hand in \(minimax of "
                     r"task t is read from it\); a course cannot provide it too"),
    ("[nirgends.py]", r"t.yaml:3: nirgends.py: cannot read the module"),
    ("[kaputt.py]", r"kaputt.py:1: invalid syntax"),
    ("[utils]", r"t.yaml:3: 'utils' is not a Python module's file"),
])
def test_a_module_the_course_cannot_provide_is_refused_at_its_line(tmp_path, provides,
                                                                    message):
    (tmp_path / "minimax.py").write_text("X = 1\n")
    (tmp_path / "kaputt.py").write_text("def (\n")
    (tmp_path / "t.yaml").write_text(
        f"course:\n  title: t\n  provides: {provides}\n"
        "tasks:\n  - id: t\n    game: tree\n    tree: {A: {B: [1], C: [2]}}\n"
        "    functions: [minimax]\n    checks: [{kind: value}]\n")
    with pytest.raises(TaskFileError, match=message):
        load_course(tmp_path / "t.yaml")


def test_a_self_check_kit_carries_the_provided_modules(provides_course):
    from grader.kit import course_from_json, course_to_json, visible_course
    course, _ = visible_course(provides_course)
    back = course_from_json(course_to_json(course))
    assert [(m.name, m.source) for m in back.provided] == [
        (m.name, m.source) for m in provides_course.provided]
    assert back.provided_wins is True
