"""The importer turns the Pacman project's tree tests into tasks that check the same."""

import json
import shutil

from grader.cli import main
from grader.tasks import load_course

from conftest import DATA


def successor_lines(spec):
    lines = set()
    for name, node in spec["nodes"].items():
        labels = node.get("actions") or node.get("children") or []
        for label, child in zip(labels, node.get("children") or []):
            lines.add(f"{name} {label} {child}")
    return lines


def test_imported_trees_round_trip_and_agree_with_the_solutions(tmp_path, grade):
    out = tmp_path / "imported.yaml"
    assert main(["import-trees", str(DATA / "pacman-trees"), "--out", str(out)]) == 0
    assert main(["validate", str(out)]) == 0, "the reference agrees with every .solution"
    course = load_course(out)
    task = course.task("pacman-trees-1-two-ghosts")
    spec = json.loads(task.game_spec)
    original = (DATA / "pacman-trees" / "1-two-ghosts.test").read_text()
    block = original.split('successors: """')[1].split('"""')[0]
    assert successor_lines(spec) == {line.strip() for line in block.splitlines() if line.strip()}
    assert spec["players"] == ["MAX", "MIN", "MIN"] and task.depth == 1
    assert spec["nodes"]["d"]["outcome"] == "lose"
    result = grade(DATA / "conventions" / "multi-agent" / "korrekt", course)
    assert result.score == result.max_score == 4


def test_malformed_tree_tests_are_reported_with_their_line(tmp_path, capsys):
    (tmp_path / "bad.test").write_text('alg: "MinimaxAgent"\nsuccessors: """\nA Left\n"""\n'
                                       'start_state: "A"\n')
    (tmp_path / "bad.solution").write_text('action: "Left"\n')
    assert main(["import-trees", str(tmp_path)]) == 2
    assert "bad.test:3: a successor line is 'state action next'" in capsys.readouterr().err


def test_imported_tasks_check_the_action_and_the_set_of_generated_states(tmp_path):
    from grader.batch import prepare
    from grader.checks.common import search_call
    out = tmp_path / "imported.yaml"
    assert main(["import-trees", str(DATA / "pacman-trees"), "--out", str(out)]) == 0
    course = load_course(out)
    _, answers = prepare(course)
    for task in course.tasks:
        kinds = {check.kind: dict(check.options) for check in task.checks}
        assert kinds == {"action": {"accept": "first"}, "visited": {"order": "set"}}
        name = task.id.removeprefix("pacman-trees-")
        solution = (DATA / "pacman-trees" / f"{name}.solution").read_text()
        generated = solution.split('generated: "')[1].split('"')[0].split()
        answer = answers[search_call(task, task.functions[0])][0]
        assert set(answer["visits"]) == set(generated), "visited = the solution's generated"


def test_an_agent_that_generates_a_state_it_never_looks_at_fails_as_in_the_project(
        tmp_path, grade):
    out = tmp_path / "imported.yaml"
    assert main(["import-trees", str(DATA / "pacman-trees"), "--out", str(out)]) == 0
    result = grade(DATA / "random-multi-agent" / "eager-successors", load_course(out))
    failed = {v.check.id for v in result.verdicts if not v.passed}
    assert failed == {"pacman-trees-2-pruning/AlphaBetaAgent/visited"}


def test_tests_that_are_no_trees_are_skipped_with_a_warning(tmp_path, capsys):
    out = tmp_path / "imported.yaml"
    assert main(["import-trees", str(DATA / "pacman-not-trees"), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "warning: " in err and "8-pacman-game.test:3: a PacmanGameTreeTest test" in err
    assert "9-two-parents.test:13: 'd' has two parents; only trees can be imported" in err
    assert "no test could be imported" in err and not out.exists()


def test_two_folders_imported_into_one_course_load_and_grade(tmp_path, capsys, grade):
    """Two copies of the tree tests, one with tests that are no trees beside them, imported
    into one course folder: distinct ids, the extra tests skipped, full marks."""
    q2, q3 = tmp_path / "q2", tmp_path / "q3"
    shutil.copytree(DATA / "pacman-trees", q2)
    shutil.copytree(DATA / "pacman-trees", q3)
    for extra in (DATA / "pacman-not-trees").iterdir():
        shutil.copy(extra, q3)
    course_dir = tmp_path / "course"
    course_dir.mkdir()
    assert main(["import-trees", str(q2), "--out", str(course_dir / "q2.yaml")]) == 0
    assert main(["import-trees", str(q3), "--out", str(course_dir / "q3.yaml")]) == 0
    err = capsys.readouterr().err
    assert err.count("warning: ") == 2 and "q3/8-pacman-game.test" in err
    course = load_course(course_dir)
    assert sorted(task.id for task in course.tasks) == [
        "q2-1-two-ghosts", "q2-2-pruning", "q3-1-two-ghosts", "q3-2-pruning"]
    assert main(["validate", str(course_dir)]) == 0
    result = grade(DATA / "conventions" / "multi-agent" / "korrekt", course)
    assert result.score == result.max_score == 8


def test_a_prefix_of_ones_own_names_the_tasks(tmp_path):
    out = tmp_path / "imported.yaml"
    assert main(["import-trees", str(DATA / "pacman-trees"), "--prefix", "blatt5",
                 "--out", str(out)]) == 0
    assert [t.id for t in load_course(out).tasks] == ["blatt5-1-two-ghosts", "blatt5-2-pruning"]
    assert main(["import-trees", str(DATA / "pacman-trees"), "--prefix", "a b"]) == 2
