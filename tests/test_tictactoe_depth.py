"""Depth-limited tic-tac-toe with the sheet's evaluation at the horizon (courses/tictactoe-depth).

The sheet's evaluation is a model solution: the child gets its values at the task's own
positions (a heuristic table), never its code.
"""

import ast
import json
import subprocess
import sys

import pytest

from grader.calls import canonical
from grader.checks.common import search_call
from grader.games import make_game, make_rules
from grader.answers.heuristics import TableTooLarge, heuristic_table
from grader.tasks import TaskFileError, load_course
from reference.evaluation import tictactoe_lines

from conftest import DATA, ROOT, grade_course

COURSE = ROOT / "courses" / "tictactoe-depth"
BAD = DATA / "tictactoe-depth"


@pytest.fixture(scope="module")
def depth_course():
    return load_course(COURSE / "tasks")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """``grader grade`` on the course's example students, with the real sandbox."""
    return grade_course(COURSE / "tasks", COURSE / "submissions",
                        tmp_path_factory.mktemp("ttt-depth-reports"))


def failed(results):
    return {t["name"].split(" ")[0] for t in results["tests"] if t["status"] == "failed"}


# -- the table --------------------------------------------------------------------------

def test_the_table_holds_the_sheet_s_value_of_every_non_terminal_board_within_the_depth(
        depth_course):
    spec = json.loads(depth_course.task("ttt-z1-depth2").game_spec)
    table = spec["heuristic_values"]
    # Z1 of the sheet: X on (1,1), O on (2,2); its value is -1 (sheet, exercise 4).
    assert table["X...O...."] == -1
    rules = make_rules({"kind": "tictactoe", "board": "X...O...."})
    # root, 7 boards after X's move, 7*6 after O's: every board reached once
    assert len(table) == 1 + 7 + 42
    assert list(table) == sorted(table)
    for board, value in table.items():
        assert not rules.is_terminal(board)
        assert value == tictactoe_lines(board, "X")


def test_terminal_boards_within_the_depth_are_left_out(depth_course):
    table = json.loads(depth_course.task("ttt-z3-depth3").game_spec)["heuristic_values"]
    # Z3: X does not block on 5, O completes the middle row: a terminal board
    assert "XX.OOO.X." not in table
    assert "XX.OO..X." in table


def test_the_same_task_file_gives_the_same_spec(depth_course):
    again = load_course(COURSE / "tasks")
    assert [t.game_spec for t in again.tasks] == [t.game_spec for t in depth_course.tasks]


def test_evaluate_looks_the_board_up_negated_for_o_and_0_past_the_horizon(depth_course):
    rules = make_rules(json.loads(depth_course.task("ttt-z1-depth2").game_spec))
    assert rules.evaluate("XX..O....", "X") == 2 == tictactoe_lines("XX..O....", "X")
    assert rules.evaluate("XX..O....", "O") == -2
    below_horizon = "XXO.O...X"      # three plies down, the task's depth is 2
    assert tictactoe_lines(below_horizon, "X") != 0
    assert rules.evaluate(below_horizon, "X") == 0


def test_without_a_table_tic_tac_toe_stays_neutral():
    rules = make_rules({"kind": "tictactoe", "board": "XX..O...."})
    assert rules.evaluate("XX..O....", "X") == 0


def test_a_walk_beyond_the_limit_is_refused_with_the_deepest_depth_that_fits():
    spec = {"kind": "tictactoe", "board": "........."}
    with pytest.raises(TableTooLarge) as caught:
        heuristic_table(spec, 3, tictactoe_lines, limit=100)
    # 1 + 9 + 72 nodes within depth 2 fit into 100, depth 3 adds 504
    assert caught.value.largest_depth == 2
    assert len(heuristic_table(spec, 2, tictactoe_lines, limit=100)) == 1 + 9 + 72


# -- what the child gets ----------------------------------------------------------------

def test_the_child_gets_values_never_the_formula(depth_course):
    task = depth_course.task("ttt-z3-depth3")
    call = search_call(task, "alphabeta")
    (sent,) = call.inputs()
    assert set(sent) == {"kind", "board", "heuristic", "heuristic_values"}
    assert all(isinstance(v, int) for v in sent["heuristic_values"].values())
    assert "def " not in call.key() and "3*" not in call.key()
    # The modules next to student code neither import the reference nor name its evaluation
    # in their code (their docstrings may say where it lives).
    for module in (ROOT / "grader" / "games").glob("*.py"):
        tree = ast.parse(module.read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for alias in node.names}
        assert not any(name and name.split(".")[0] == "reference" for name in imported), module
        names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        names |= {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert "tictactoe_lines" not in names and "EVALUATIONS" not in names, module


def test_the_game_package_imports_without_the_reference(depth_course):
    """In a fresh interpreter where ``reference`` cannot be imported, as in the child."""
    spec = depth_course.task("ttt-z1-depth2").game_spec
    script = (
        "import sys, json\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'reference' or name.startswith('reference.'):\n"
        "            raise ImportError('no reference in the child')\n"
        "sys.meta_path.insert(0, Block())\n"
        "from grader.games import make_rules\n"
        f"rules = make_rules(json.loads({spec!r}))\n"
        "print(rules.evaluate('XX..O....', 'O'))\n"
        "print(sorted(m for m in sys.modules if m.startswith('reference')))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.split("\n")[:2] == ["-2", "[]"]


# -- the reference's answers ------------------------------------------------------------

def test_the_reference_evaluates_exactly_the_horizon(depth_course):
    from grader.answers.search import answer_search
    spec = json.loads(depth_course.task("ttt-z3-depth3").game_spec)
    answer = answer_search("minimax", spec, 3, True)
    assert answer["value"] == 3 and answer["action"] == 5
    assert set(answer["evaluate_calls"]) == set(answer["horizon"])
    assert all(len(name.split("-")) == 3 for name in answer["horizon"])
    assert "1-5" in answer["terminals"]          # O wins when X does not block
    game, root = make_game(spec)
    for name in answer["horizon"]:
        board = root
        for cell in name.split("-"):
            board = game.result(board, int(cell))
        assert answer["values"][name] == tictactoe_lines(board, "X")


def test_solve_names_the_heuristic_and_shows_no_table(capsys):
    from grader.cli import main
    assert main(["solve", str(COURSE / "tasks"), "--json", "--no-cache"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {(r["task"], r["function"], r["value"], r["move"], r["visited"]) for r in rows} == {
        ("ttt-z1-depth2", "minimax", -2, 2, 50), ("ttt-z1-depth2", "alphabeta", -2, 2, 29),
        ("ttt-z1-depth2", "negamax", -2, 2, 50), ("ttt-z3-depth3", "minimax", 3, 5, 74),
        ("ttt-z3-depth3", "alphabeta", 3, 5, 50)}
    assert {r["heuristic"] for r in rows} == {"tictactoe-lines"}
    assert {r["depth"] for r in rows} == {2, 3}


def test_the_pinned_answers_hold(capsys):
    from grader.cli import main
    assert main(["validate", str(COURSE / "tasks"), "--no-cache"]) == 0


def test_the_kit_carries_the_table_and_the_heuristic_s_name(depth_course, tmp_path):
    from grader.answers.book import AnswerBook
    from grader.kit import build_kit, load_kit
    build_kit(depth_course, AnswerBook(), tmp_path, wheel=False)
    kit = load_kit(tmp_path)
    task = kit.course.task("ttt-z1-depth2")
    assert task.heuristic == "tictactoe-lines"
    assert task.game_spec == depth_course.task("ttt-z1-depth2").game_spec


# -- task-file errors -------------------------------------------------------------------

def problems_of(path):
    with pytest.raises(TaskFileError) as caught:
        load_course(path)
    return str(caught.value)


def test_an_unknown_heuristic_is_refused_with_its_line():
    text = problems_of(BAD / "unknown-heuristic.yaml")
    assert ("unknown-heuristic.yaml:7: unknown heuristic 'tictactoe-diagonals'; "
            "known: tictactoe-lines") in text


def test_a_depth_whose_tree_is_too_large_is_refused_with_what_to_do():
    text = problems_of(BAD / "table-too-large.yaml")
    assert "table-too-large.yaml:6: depth 6 is too deep for heuristic tictactoe-lines" in text
    assert "more than 20,000 nodes" in text
    assert "use depth 5 or less" in text


def test_a_heuristic_needs_a_depth_and_a_game_without_values_of_its_own():
    text = problems_of(BAD / "misplaced-heuristics.yaml")
    assert ("misplaced-heuristics.yaml:6: tictactoe has no heuristic of its own to evaluate "
            "at the horizon; name a reference evaluation, e.g. heuristic: tictactoe-lines") in text
    assert "misplaced-heuristics.yaml:13: a heuristic is evaluated at the horizon" in text
    assert "misplaced-heuristics.yaml:21: heuristic: is for games without heuristic values" \
        in text


# -- grading the course's students with the real sandbox --------------------------------

def test_the_correct_student_gets_full_marks(graded, depth_course):
    _, results = graded
    assert results["korrekt"]["score"] == depth_course.max_score == 20
    assert failed(results["korrekt"]) == set()


def test_a_search_one_ply_too_deep_is_caught_and_named(graded):
    out, results = graded
    lost = failed(results["tiefe-plus-eins"])
    assert "ttt-z1-depth2/alphabeta/horizon" in lost and "ttt-z3-depth3/alphabeta/horizon" in lost
    assert all("/alphabeta/" in check for check in lost)
    feedback = (out / "tiefe-plus-eins" / "feedback.md").read_text()
    assert "Du besuchst Knoten unterhalb des Horizonts: 1-2-3" in feedback
    assert "einen Halbzug tiefer sucht als die Tiefenschranke erlaubt" in feedback
    # the visit table shows the boards of the horizon nodes next to the ones below them
    assert "| **`1-3`: `XX./OO./...`** | **`1-2-3`: `XXO/XO./...`** |" in feedback


def test_a_search_that_evaluates_one_ply_early_is_caught_and_named(graded):
    out, results = graded
    lost = failed(results["horizont-zu-frueh"])
    assert "ttt-z3-depth3/alphabeta/horizon" in lost
    assert all("/alphabeta/" in check for check in lost)
    feedback = (out / "horizont-zu-frueh" / "feedback.md").read_text()
    assert "Du rufst evaluate an Knoten über dem Horizont auf: 1-2, 1-6" in feedback
    assert "schon einen Halbzug vor dem Horizont bewertet" in feedback


def test_the_feedback_names_the_heuristic_and_depth_of_each_task(graded):
    out, _ = graded
    feedback = (out / "korrekt" / "feedback.md").read_text()
    assert ("Suchtiefe 2; am Horizont bewertet game.evaluate mit der Bewertungsfunktion "
            "tictactoe-lines.") in feedback
    assert "Suchtiefe 3;" in feedback
    assert "Suchtiefe 3;" in (out / "korrekt" / "feedback.html").read_text()


def test_no_report_holds_the_table(graded):
    out, _ = graded
    for path in out.rglob("*"):
        if path.is_file():
            assert "heuristic_values" not in path.read_text(errors="replace"), path
