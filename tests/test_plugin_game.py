"""A course's own game module (grader/games/plugin.py): named by the task file, checked on
load with file:line, carried in the spec to the sandboxed child, graded end to end."""

import html
import json
import shutil
import subprocess
import sys
import textwrap

import pytest

from grader.cli import main
from grader.tasks import TaskFileError, load_course

from conftest import DATA, ROOT

COURSE = DATA / "plugin-game"


def results(out, student):
    return json.loads((out / student / "results.json").read_text())


def test_a_correct_student_gets_full_marks_on_the_course_s_own_game(tmp_path):
    assert main(["check", str(ROOT / "submissions" / "korrekt"), "--tasks",
                 str(COURSE / "tasks"), "--out", str(tmp_path)]) == 0
    graded = results(tmp_path, "korrekt")
    assert graded["score"] == 12 and all(t["status"] == "passed" for t in graded["tests"])


def test_a_faulty_student_is_caught_and_the_mistake_named(tmp_path):
    assert main(["check", str(ROOT / "submissions" / "strikter-schnitt"), "--tasks",
                 str(COURSE / "tasks"), "--out", str(tmp_path)]) == 1
    failed = [t for t in results(tmp_path, "strikter-schnitt")["tests"]
              if t["status"] == "failed"]
    assert {t["name"].split(" ")[0] for t in failed} == {
        "race-to-6/alphabeta/visited", "race-to-10-depth-3/alphabeta/visited"}
    # Gradescope's outputs are Markdown, where a student-facing "<" is written as &lt;
    assert any("β < α" in html.unescape(t["output"]) for t in failed)


def test_the_module_travels_in_the_spec_so_the_child_needs_nothing_staged():
    task = load_course(COURSE / "tasks").tasks[0]
    spec = json.loads(task.game_spec)
    assert spec["kind"] == "plugin" and spec["name"] == "race"
    assert spec["source"] == (COURSE / "games" / "race.py").read_text()
    assert spec["options"] == {"target": 6, "step": 2}
    assert spec["methods"] == ["evaluate", "show"]


def course_with(tmp_path, module: str | None, task: str) -> str:
    (tmp_path / "games").mkdir(exist_ok=True)
    if module is not None:
        (tmp_path / "games" / "game.py").write_text(textwrap.dedent(module))
    (tmp_path / "tasks.yaml").write_text(textwrap.dedent("""\
        course: {title: t, language: en}
        tasks:
          - id: t
        """) + textwrap.indent(textwrap.dedent(task), "    "))
    with pytest.raises(TaskFileError) as refused:
        load_course(tmp_path / "tasks.yaml")
    return "\n".join(str(problem) for problem in refused.value.problems)


RACE = (COURSE / "games" / "race.py").read_text()


@pytest.mark.parametrize("module, task, said", [
    (None, "game: games/game.py\nfunctions: [minimax]\nchecks: [{kind: value}]",
     "tasks.yaml:4: games/game.py: cannot read the game module"),
    ("class Rules:\n    def initial_state(self\n", "game: games/game.py\n"
     "functions: [minimax]\nchecks: [{kind: value}]", "game.py:2: '(' was never closed"),
    ("x = 1\n", "game: games/game.py\nfunctions: [minimax]\nchecks: [{kind: value}]",
     "tasks.yaml:4: games/game.py: it defines no class Rules"),
    ("class Rules:\n    def __init__(self, options): pass\n",
     "game: games/game.py\nfunctions: [minimax]\nchecks: [{kind: value}]",
     "Rules has no method initial_state(...)"),
    (RACE, "game: games/game.py\noptions: {target: -1}\nfunctions: [minimax]\n"
     "checks: [{kind: value}]", "tasks.yaml:5: games/game.py: option target must be a whole "
     "number >= 0, not -1"),
    (RACE.replace("def evaluate", "def _evaluate"), "game: games/game.py\ndepth: 2\n"
     "functions: [minimax]\nchecks: [{kind: value}]",
     "tasks.yaml:5: games/game.py defines no evaluate(state, player)"),
])
def test_a_game_module_that_breaks_its_contract_is_refused_with_file_and_line(
        tmp_path, module, task, said):
    assert said in course_with(tmp_path, module, task)


def test_a_kit_carries_the_game_and_checks_without_the_reference(tmp_path):
    from test_kit import WITHOUT_REFERENCE
    assert main(["kit", "--tasks", str(COURSE / "tasks"), "--out", str(tmp_path / "kit")]) == 0
    student = tmp_path / "student"
    shutil.copytree(ROOT / "submissions" / "korrekt", student)
    done = subprocess.run([sys.executable, "-c", WITHOUT_REFERENCE, "check", str(student),
                           "--kit", str(tmp_path / "kit"), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert results(tmp_path / "out", "student")["score"] == 12


def test_visit_tables_show_the_positions_as_the_course_s_show_prints_them(tmp_path):
    assert main(["check", str(ROOT / "submissions" / "strikter-schnitt"), "--tasks",
                 str(COURSE / "tasks"), "--out", str(tmp_path), "--lang", "en"]) == 1
    markdown = (tmp_path / "strikter-schnitt" / "feedback.md").read_text()
    html = (tmp_path / "strikter-schnitt" / "feedback.html").read_text()
    # nodes of race-to-6's table as show() prints them, the first difference in bold
    assert "| **`1-2`: `3 of 6, A to move`** | **`1-1-2-2`: `6 of 6, A to move`** |" in markdown
    assert "Each node shows its position as the course's game race prints it; the task's " \
        "position is 0 of 6, A to move, and A is to move there." in markdown
    assert "For example, 1-1-2 means: A plays 1, then B plays 1, then A plays 2." in markdown
    assert "<code>1-2</code><span class=\"pile\">3 of 6, A to move</span>" in html


def test_a_game_without_show_keeps_the_node_names_alone():
    from grader.report.positions import table_positions
    spec = json.loads(load_course(COURSE / "tasks").tasks[0].game_spec)
    rows = [{"expected": "1", "observed": "2"}]
    assert table_positions(spec, rows)["game"] == "plugin"
    assert rows[0]["expected_position"]["text"] == "1 of 6, B to move"
    without = {**spec, "methods": ["evaluate"]}
    rows = [{"expected": "1", "observed": "2"}]
    assert table_positions(without, rows) is None and "expected_position" not in rows[0]
