"""Task files: the bundled course loads; malformed files are refused with file:line, and
hostile ones (alias bombs, deep nesting) before they cost anything."""

import os
import subprocess
import sys

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


# -- hostile YAML: bounded before it costs anything ------------------------------------------

def refusal(name: str):
    with pytest.raises(TaskFileError) as caught:
        load_course(DATA / "bad" / name)
    [problem] = caught.value.problems
    return problem


def line_holding(name: str, text: str) -> int:
    lines = (DATA / "bad" / name).read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, start=1) if text in line)


@pytest.mark.parametrize("name, where", [("alias-bomb.yaml", "a3: &a3"),
                                         ("merge-bomb.yaml", "m10: &m10")])
def test_aliases_that_expand_beyond_the_bound_are_refused_where_they_pass_it(name, where):
    """10,000 values through aliases (or merge keys): a3 stands for 10^4 x's, m10 for
    2^10 copies of m0's key and the keys it adds."""
    problem = refusal(name)
    assert problem.line == line_holding(name, where)
    assert "aliases of this file expand to more than 10,000 values" in problem.message


def test_nesting_beyond_the_bound_is_refused_at_its_line():
    # the file's mapping, its tasks, the task and its tree are four levels: N60's value is the
    # 65th, one more than a task file may nest
    problem = refusal("deep-nesting.yaml")
    assert problem.line == line_holding("deep-nesting.yaml", "N60:")
    assert "nested more than 64 levels deep" in problem.message
    problem = refusal("deep-flow.yaml")
    assert problem.line == line_holding("deep-flow.yaml", "tree:")
    assert "nested more than 64 levels deep" in problem.message


def test_an_alias_bomb_is_refused_within_a_small_memory_and_cpu_budget():
    """In a child limited to 1 GiB of address space and 30 CPU seconds: expanding the bomb
    once took 1.4 GB and a minute."""
    program = ("import resource\n"
               "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
               "resource.setrlimit(resource.RLIMIT_CPU, (30, 30))\n"
               "from grader.tasks import TaskFileError, load_course\n"
               "try:\n"
               f"    load_course({str(DATA / 'bad' / 'alias-bomb.yaml')!r})\n"
               "except TaskFileError as error:\n"
               "    print(error)\n")
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "GRADER_CACHE_DIR": "/nonexistent"})
    assert done.returncode == 0, done.stderr
    assert "expand to more than 10,000 values" in done.stdout


def test_anchors_aliases_and_merge_keys_within_the_bounds_are_read_as_yaml_means_them():
    course = load_course(DATA / "schema" / "merge-keys.yaml")
    first, second = course.tasks
    assert (first.id, first.functions, first.checks[0].kind) == ("first", ("minimax",), "value")
    assert (second.id, second.functions, second.checks[0].kind) == ("second", ("alphabeta",),
                                                                     "visited")
    assert second.game_spec == first.game_spec


def test_a_date_yaml_cannot_construct_is_a_problem_at_its_line(tmp_path):
    """PyYAML raises ValueError, not a YAML error, for 2026-13-45; it stopped the loader."""
    path = tmp_path / "t.yaml"
    path.write_text("course:\n  due: 2026-13-45\ntasks: []\n", encoding="utf-8")
    with pytest.raises(TaskFileError, match=r"t.yaml:2: not valid YAML: month must be in 1..12"):
        load_course(path)
