"""Points and visibility: partial credit, hidden checks, checks hidden until the due date."""

import json
import shutil

import pytest

from grader.cli import main

from conftest import ROOT

COURSE = """
course:
  title: Due test
  language: en
  due: {due}
tasks:
  - id: binary
    game: tree
    tree: {{A: {{left: [2, 4], right: [1, 8]}}}}
    functions: [minimax, alphabeta]
    checks:
      - {{kind: value, function: minimax, points: 1}}
      - {{kind: value, function: alphabeta, points: 2, visibility: after_due}}
      - {{kind: action, function: alphabeta, points: 1, visibility: hidden}}
  - id: random
    functions: [alphabeta]
    checks:
      - {{kind: random-trees, seed: 3, trees: 60, partial: true, points: 3}}
"""


def grade(tmp_path, due, student):
    tasks = tmp_path / "tasks"
    tasks.mkdir(parents=True)
    (tasks / "course.yaml").write_text(COURSE.format(due=due))
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    shutil.copytree(ROOT / "submissions" / student, submissions / student)
    out = tmp_path / "out"
    assert main(["grade", "--tasks", str(tasks), "--submissions", str(submissions),
                 "--out", str(out)]) == 0
    return (json.loads((out / student / "results.json").read_text()),
            (out / student / "feedback.md").read_text())


def test_after_due_checks_are_hidden_before_the_date_and_shown_after(tmp_path):
    before, feedback_before = grade(tmp_path / "a", "2999-01-01T00:00:00+00:00", "ohne-alphabeta")
    after, feedback_after = grade(tmp_path / "b", "2000-01-01T00:00:00+00:00", "ohne-alphabeta")
    message = "minimax.py has no function alphabeta."
    # the missing function is said once at the top of the page; the visible random-tree check
    # points there, the after_due value check only after the date
    pointer = "See the note on alphabeta at the top of the page."
    assert feedback_before.count(message) == feedback_after.count(message) == 1
    assert "A hidden check failed." in feedback_before
    assert feedback_before.count(pointer) == 1 and feedback_after.count(pointer) == 2
    visibility = {t["name"].split()[0]: t["visibility"] for t in before["tests"]}
    assert visibility["binary/alphabeta/value"] == "after_due_date"
    assert visibility["binary/alphabeta/action"] == "hidden"
    assert before["score"] == after["score"] == 1


def test_hidden_and_after_due_checks_still_count(tmp_path):
    results, _ = grade(tmp_path, "2999-01-01T00:00:00+00:00", "korrekt")
    assert results["score"] == 7


def test_partial_credit_is_proportional_to_the_random_trees_passed(tmp_path):
    results, feedback = grade(tmp_path, "2000-01-01", "strikter-schnitt")
    random = next(t for t in results["tests"] if t["name"].startswith("random/"))
    assert random["status"] == "failed"
    assert 0 < random["score"] < 3
    passed_share = random["score"] / 3
    assert "On " in random["output"] and "of 60 random trees" in random["output"]
    failures = int(random["output"].split("On ")[1].split(" of")[0])
    assert passed_share == pytest.approx((60 - failures) / 60, abs=0.01)
