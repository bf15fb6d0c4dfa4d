"""Files and names as students write them: a module's file in another case beside the
others, a function named in another case, imports nobody uses."""

from conftest import DATA, ROOT, grade_course

NAMES = DATA / "student-names"


def test_a_module_in_another_case_beside_the_others_is_graded_and_said_at_the_top(tmp_path):
    """Moodle's folder of a Windows student: Minimax.py beside evaluation.py."""
    out, results = grade_course(ROOT / "tasks", NAMES / "moodle", tmp_path / "reports")
    result = results["Anna Muster_123_assignsubmission_file_"]
    assert result["score"] == result["extra_data"]["max_score"] == 60
    assert [note["key"] for note in result["extra_data"]["notes"]] == ["case-renamed"]
    page = (out / "Anna Muster_123_assignsubmission_file_" / "feedback.md").read_text()
    said = "Minimax.py wurde als minimax.py bewertet"
    assert page.count(said) == 1 and page.index(said) < page.index("## ")
    assert "Minimax.py" in (out / "summary.html").read_text(), "listed as needing a person"
