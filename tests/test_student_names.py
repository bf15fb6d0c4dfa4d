"""Files and names as students write them: a module's file in another case beside the
others, a function named in another case, imports nobody uses."""

import pytest

from conftest import DATA, ROOT, grade_course

NAMES = DATA / "student-names"


@pytest.fixture(scope="module")
def moodle(tmp_path_factory):
    """The Moodle folder of two students who name their files in their own ways, graded once."""
    return grade_course(ROOT / "tasks", NAMES / "moodle", tmp_path_factory.mktemp("reports"))


def test_a_module_in_another_case_beside_the_others_is_graded_and_said_at_the_top(moodle):
    """Moodle's folder of a Windows student: Minimax.py beside evaluation.py."""
    out, results = moodle
    result = results["Anna Muster_123_assignsubmission_file_"]
    assert result["score"] == result["extra_data"]["max_score"] == 60
    assert [note["key"] for note in result["extra_data"]["notes"]] == ["case-renamed"]
    page = (out / "Anna Muster_123_assignsubmission_file_" / "feedback.md").read_text()
    said = "Minimax.py wurde als minimax.py bewertet"
    assert page.count(said) == 1 and page.index(said) < page.index("## ")
    assert "Minimax.py" in (out / "summary.html").read_text(), "listed as needing a person"


def test_a_function_named_in_another_case_is_called_and_said_once_at_the_top(grade, course):
    from grader.report.messages import Catalogue
    from grader.report.views import student_view
    result = grade(NAMES / "funktionsnamen")
    assert [(v.check.id, v.reason) for v in result.verdicts if not v.passed] == []
    assert sorted((n.key, n.facts["found"], n.facts["expected"]) for n in result.notes) == [
        ("function-case", "AlphaBeta", "alphabeta"), ("function-case", "Minimax", "minimax")]
    view = student_view(result, course, Catalogue("en"), html=False)
    assert ("minimax.py has no function minimax, but Minimax, which differs only in case; it "
            "was graded as minimax.") in view["arranged"]


def test_a_sub_folder_and_a_module_in_another_case_are_both_used_and_said(moodle):
    out, results = moodle
    result = results["Berta Beispiel_456_assignsubmission_file_"]
    assert result["score"] == 60
    assert [note["key"] for note in result["extra_data"]["notes"]] == ["subfolder",
                                                                        "case-renamed"]
    page = (out / "Berta Beispiel_456_assignsubmission_file_" / "feedback.md").read_text()
    top = page[:page.index("## ")]
    assert "Blatt 3/" in top and "Minimax.py wurde als minimax.py bewertet" in top
