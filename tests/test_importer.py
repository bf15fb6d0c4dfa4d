"""The importer turns the Pacman project's tree tests into tasks that check the same."""

import json

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
    task = course.task("1-two-ghosts")
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
