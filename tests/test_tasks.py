"""Task files: the bundled course loads; malformed files are refused with file:line."""

import pytest

from grader.cli import main
from grader.tasks import TaskFileError, load_course

from conftest import DATA, ROOT


def test_bundled_course_has_the_task_ids_of_the_issue(course):
    ids = [task.id for task in course.tasks]
    for wanted in ("tree-blatt3", "tree-lecture", "tree-binary", "ttt-midgame-a",
                   "ttt-midgame-b", "nim-5", "ttt-eval"):
        assert wanted in ids
    assert course.language == "de"
    assert any(task.depth for task in course.tasks), "a depth-limited task"
    assert any("negamax" in task.functions for task in course.tasks)
    kinds = {(check.kind, check.function) for task in course.tasks for check in task.checks}
    for function in ("minimax", "alphabeta", "negamax"):
        assert ("random-trees", function) in kinds


def test_tasks_are_immutable(course):
    with pytest.raises(AttributeError):
        course.tasks[0].id = "other"


def test_leaves_written_as_bare_numbers_are_named_after_their_parent(course):
    import json
    nodes = json.loads(course.task("tree-blatt3").game_spec)["nodes"]
    assert nodes["D"]["children"] == ["D1", "D2", "D3"]
    assert nodes["C"]["children"] == ["E", "F", "G"]
    assert nodes["G3"] == {"value": 2}


def test_every_problem_of_a_malformed_file_is_reported_with_its_line():
    with pytest.raises(TaskFileError) as caught:
        load_course(DATA / "bad" / "many-errors.yaml")
    lines = {(p.line, p.message.split()[0]) for p in caught.value.problems}
    text = str(caught.value)
    assert "many-errors.yaml:3: language 'fr'" in text
    assert "many-errors.yaml:7: 'x' is not a number" in text
    assert "many-errors.yaml:11: unknown check kind 'valeu'" in text
    assert "many-errors.yaml:14:" in text and "X moves first" in text
    assert "many-errors.yaml:17: accept must be" in text
    assert "many-errors.yaml:18: bound must be" in text
    assert "many-errors.yaml:21: duplicate key 'B'" in text
    assert "many-errors.yaml:23: a task needs a non-empty list of checks" in text
    assert len(lines) == 8


def test_invalid_yaml_names_the_line():
    with pytest.raises(TaskFileError, match=r"not-yaml.yaml:4: not valid YAML"):
        load_course(DATA / "bad" / "not-yaml.yaml")


@pytest.mark.parametrize("command", ["grade", "validate", "solve"])
def test_malformed_task_files_stop_every_command_with_status_2(command, tmp_path, capsys):
    path = str(DATA / "bad" / "many-errors.yaml")
    argv = {"grade": ["grade", "--tasks", path, "--submissions", str(ROOT / "submissions"),
                      "--out", str(tmp_path)],
            "validate": ["validate", path], "solve": ["solve", path]}[command]
    assert main(argv) == 2
    assert "many-errors.yaml:11:" in capsys.readouterr().err
    assert not list(tmp_path.iterdir()), "nothing is graded"


def test_validate_verifies_pins_against_the_reference(capsys):
    assert main(["validate", str(ROOT / "tasks")]) == 0
    assert main(["validate", str(DATA / "bad" / "wrong-pin.yaml")]) == 1
    err = capsys.readouterr().err
    assert "wrong-pin.yaml:10: tree-binary, minimax: value is pinned to 4, the reference gives 2" in err
    assert "wrong-pin.yaml:11:" in err and "['right2']" in err
