"""Each input goes to a child once (``grader.calls.SentItems``): later calls name it by its
index in a table the runner keeps.  The table is within reach of the student's code, so what
a student does to it must only cost that student: a call that names an input the child no
longer holds fails, the batch goes on, and a child restarted after a timeout is sent every
input again."""

import json
import shutil

import pytest

from grader.calls import Call, SentItems
from grader.grading import Plan
from grader.tasks import load_course

from conftest import DATA, ROOT, grade_course

SENT_ITEMS = DATA / "sent-items"
TABLE_MESSAGE = "could not be read from the runner's table"


def test_an_input_crosses_the_pipe_once_and_is_named_by_its_index_afterwards():
    trees = ('{"kind":"tree","root":"A"}', '{"kind":"tree","root":"B"}')
    sent = SentItems()
    first = json.loads(Call("minimax", "minimax", "game", trees).request_for(sent))
    again = json.loads(Call("minimax", "alphabeta", "game", (trees[1], trees[0], trees[1]),
                            args=(2,)).request_for(sent))
    assert first["item_refs"] == list(trees) and "forget" not in first
    assert again["item_refs"] == [1, 0, 1] and again["args"] == [2]
    restarted = json.loads(Call("minimax", "alphabeta", "game", trees).request_for(SentItems()))
    assert restarted["item_refs"] == list(trees)


def test_past_the_limit_both_tables_start_afresh(monkeypatch):
    monkeypatch.setattr(SentItems, "LIMIT", 3)
    sent = SentItems()
    Call("m", "f", "game", ('"a"', '"b"')).request_for(sent)
    request = json.loads(Call("m", "f", "game", ('"a"', '"c"')).request_for(sent))
    assert request["forget"] is True and request["item_refs"] == ['"a"', '"c"']


@pytest.fixture(scope="module")
def tests(tmp_path_factory):
    """``grader grade`` of the fixture's students (it asserts the batch's exit status 0), each
    with the bundled correct solution beside it as ``loesung.py``, and of that solution as
    ``korrekt``: each student's tests by check."""
    folder = tmp_path_factory.mktemp("sent-items")
    submissions = folder / "submissions"
    shutil.copytree(ROOT / "submissions" / "korrekt", submissions / "korrekt")
    for student in ("empties-table", "junk-in-table", "hangs-first"):
        shutil.copytree(SENT_ITEMS / student, submissions / student)
        shutil.copy(ROOT / "submissions" / "korrekt" / "minimax.py",
                    submissions / student / "loesung.py")
    _, results = grade_course(SENT_ITEMS / "tasks.yaml", submissions, folder / "out")
    return {student: {t["name"].split()[0]: t for t in result["tests"]}
            for student, result in results.items()}


def test_the_second_call_names_the_trees_the_first_one_sent():
    # The premise of the tests below: minimax searches the trees first, alpha-beta after it.
    course = load_course(SENT_ITEMS / "tasks.yaml")
    assert [call.function for call in Plan.of(course).calls] == ["minimax", "alphabeta"]


def test_a_student_who_changes_the_table_fails_the_later_calls_and_the_batch_completes(tests):
    assert set(tests) == {"korrekt", "empties-table", "junk-in-table", "hangs-first"}
    assert all(t["status"] == "passed" for t in tests["korrekt"].values())
    for student in ("empties-table", "junk-in-table"):
        assert tests[student]["shared/minimax/random-trees"]["status"] == "passed"
        failed = tests[student]["shared/alphabeta/random-trees"]
        assert failed["status"] == "failed" and TABLE_MESSAGE in failed["output"], failed


def test_a_child_restarted_after_a_timeout_is_sent_the_inputs_again(tests):
    hung = tests["hangs-first"]
    assert hung["shared/minimax/random-trees"]["status"] == "failed"
    assert "No answer within 1.0 s" in hung["shared/minimax/random-trees"]["output"]
    assert hung["shared/alphabeta/random-trees"]["status"] == "passed"
