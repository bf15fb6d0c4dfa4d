"""Connect Four: the rules on any board, positions in task files (errors at their line), the
reference's values against an independent brute force, the graded course
(courses/connect4/) and the boards in the visit tables."""

import json
import re
import shutil
import textwrap

import pytest

from grader.answers.search import answer_search
from grader.games.connect4 import BoardError, Connect4Rules, read_board, show
from grader.report.messages import Catalogue
from grader.report.writers import render_student
from grader.tasks import TaskFileError, load_course

from conftest import DATA, ROOT

COURSE = ROOT / "courses" / "connect4"
FOLDER = DATA / "connect4"


def rules_of(board, columns=7, rows=6, connect=4, **extra):
    return Connect4Rules({"kind": "connect4", "columns": columns, "rows": rows,
                          "connect": connect, "board": board, **extra})


def played(rules, *columns):
    state = rules.initial_state()
    for column in columns:
        state = rules.result(state, column)
    return state


# -- the rules ------------------------------------------------------------------------------
@pytest.mark.parametrize("moves, winner", [
    ((0, 0, 1, 1, 2, 2, 3), "X"),                       # a row
    ((6, 0, 6, 0, 6, 0, 1, 0), "O"),                    # a column
    ((0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3), "X"),           # rising to the right
    ((6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3), "X"),           # falling to the right
], ids=["row", "column", "diagonal-up", "diagonal-down"])
def test_a_line_of_four_in_any_direction_ends_the_game(moves, winner):
    rules = rules_of(None)
    before = played(rules, *moves[:-1])
    assert not rules.is_terminal(before)
    state = rules.result(before, moves[-1])
    assert rules.is_terminal(state) and rules.actions(state) == []
    loser = "O" if winner == "X" else "X"
    assert (rules.utility(state, winner), rules.utility(state, loser)) == (1, -1)


def test_a_full_board_without_a_line_is_a_draw():
    rules = rules_of(None, columns=3, rows=2, connect=3)
    state = played(rules, 0, 1, 2, 0, 1, 2)
    assert state == "OXO/XOX"
    assert rules.is_terminal(state) and rules.utility(state, "X") == 0
    with pytest.raises(ValueError, match="not a terminal state"):
        rules.utility(rules.initial_state(), "X")


def test_discs_fall_to_the_lowest_empty_cell_and_full_columns_are_no_move():
    rules = rules_of(None, columns=3, rows=3, connect=3)
    state = played(rules, 1, 1)
    assert state == ".../.O./.X."
    state = rules.result(state, 1)
    assert state == ".X./.O./.X."
    assert rules.actions(state) == [0, 2], "column 1 is full"
    with pytest.raises(ValueError, match="legal moves"):
        rules.result(state, 1)
    assert show(state) == ". X .\n. O .\n. X .\n0 1 2"


def test_the_side_to_move_follows_from_the_counts_and_who_began():
    rules = rules_of(None, columns=4, rows=3, connect=3)
    assert rules.players == ("X", "O")
    assert [rules.to_move(played(rules, *moves)) for moves in ((), (2,), (2, 3))] == \
        ["X", "O", "X"]
    began_o = rules_of("..../..../.XO.", columns=4, rows=3, connect=3, first="O")
    assert began_o.players == ("O", "X") and began_o.to_move(began_o.initial_state()) == "O"
    with pytest.raises(BoardError, match="O moves first"):
        rules_of("..../..../..X.", columns=4, rows=3, connect=3, first="O")


def test_the_heuristic_counts_open_windows_and_stays_below_a_win():
    rules = rules_of(None, columns=4, rows=1, connect=3)
    # Windows: cells 0-2 and 1-3.  X on 1 and 2 has two windows of two discs: 4 + 4.
    state = "XOO."
    assert rules.window_score(".XX.", "X") == 8
    assert rules.window_score(state, "X") == 0 - 4, "only 1-3 is open (for O: two discs)"
    assert rules.scale == 100 and rules.evaluate(".XX.", "X") == 0.08
    assert rules.evaluate(".XX.", "O") == -rules.evaluate(".XX.", "X")
    big = rules_of("......./......./......./...O.../..XX.../..OXO..")
    assert big.scale == 10000 and big.evaluate(big.initial_state(), "X") == 0.0011


# -- positions in task files ----------------------------------------------------------------
def line_in_task(path, task_id, text):
    """The 1-based line of the first line holding ``text`` in the task ``task_id`` of
    ``path``."""
    lines = path.read_text().splitlines()
    start = lines.index(f"  - id: {task_id}")
    return next(n for n, line in enumerate(lines[start:], start + 1) if text in line)


def test_impossible_positions_are_reported_at_their_line():
    path = FOLDER / "bad.yaml"
    with pytest.raises(TaskFileError) as caught:
        load_course(path)
    problems = [(p.line, p.message) for p in caught.value.problems]
    expected = [  # a problem of one row at the row's line, of the whole board at "board:"
        (line_in_task(path, "floating", "..X...."), "the disc X in column 2 floats"),
        (line_in_task(path, "counts", "board:"), "X has 3 and O has 1"),
        (line_in_task(path, "both-won", "board:"), "both X and O have a line of 3"),
        (line_in_task(path, "short-row", "board:") + 3,
         "has 6 cells, but the task says columns: 7"),
        (line_in_task(path, "too-few-rows", "board:"),
         "the board has 3 rows, but the task says rows: 6"),
        (line_in_task(path, "too-long", "connect: 6"),
         "connect (the length of a winning line) must be"),
        (line_in_task(path, "strange-cell", "...R..."), "holds 'R'"),
    ]
    assert len(problems) == len(expected), problems
    for (line, fragment), (found_line, message) in zip(expected, problems):
        assert fragment in message and found_line == line, (line, fragment, found_line, message)
    assert all(str(p).startswith(f"{path}:") for p in caught.value.problems)


def test_a_depth_limited_task_with_horizon_check_is_accepted_and_keeps_who_began():
    course = load_course(FOLDER / "first-o.yaml")
    task = course.tasks[0]
    assert task.depth == 2 and [c.kind for c in task.checks] == ["value", "horizon"]
    assert json.loads(task.game_spec) == {"kind": "connect4", "columns": 5, "rows": 4,
                                          "connect": 4, "first": "O",
                                          "board": "...../...../..X../..OXO"}


def test_a_board_may_be_written_on_one_line_with_slashes():
    assert read_board("..../.O../.XX.", columns=4, rows=3, connect=3) == \
        read_board("\n....\n. O . .\n.XX.\n", columns=4, rows=3, connect=3)


# -- the reference against an independent brute force --------------------------------------
def brute_force_value(board, columns, rows, connect, depth):
    """Minimax written from scratch on columns of discs (bottom first): the value for the
    side to move, with the window count at the horizon."""
    grid = board.split("/")
    stacks = [[grid[r][c] for r in range(rows - 1, -1, -1) if grid[r][c] != "."]
              for c in range(columns)]

    def cell(c, r):
        return stacks[c][r] if r < len(stacks[c]) else "."

    lines = []
    for c in range(columns):
        for r in range(rows):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                ends = (c + dc * (connect - 1), r + dr * (connect - 1))
                if 0 <= ends[0] < columns and 0 <= ends[1] < rows:
                    lines.append([(c + dc * k, r + dr * k) for k in range(connect)])
    bound, scale = len(lines) * 4 ** (connect - 1), 1
    while scale <= bound:
        scale *= 10
    xs = sum(s.count("X") for s in stacks)
    os_ = sum(s.count("O") for s in stacks)
    me = "X" if xs == os_ else "O"

    def won():
        for line in lines:
            marks = {cell(c, r) for c, r in line}
            if len(marks) == 1 and "." not in marks:
                return marks.pop()
        return None

    def heuristic():
        total = 0
        for line in lines:
            marks = [cell(c, r) for c, r in line]
            mine, theirs = marks.count(me), marks.count("O" if me == "X" else "X")
            if mine and not theirs:
                total += 4 ** (mine - 1)
            if theirs and not mine:
                total -= 4 ** (theirs - 1)
        return total / scale

    def value(mover, remaining):
        winner = won()
        if winner:
            return 1 if winner == me else -1
        free = [c for c in range(columns) if len(stacks[c]) < rows]
        if not free:
            return 0
        if remaining == 0:
            return heuristic()
        results = []
        for c in free:
            stacks[c].append(mover)
            results.append(value("O" if mover == "X" else "X",
                                 None if remaining is None else remaining - 1))
            stacks[c].pop()
        return max(results) if mover == me else min(results)

    return value(me, depth)


POSITIONS = [
    ("......./......./......./...O.../..XX.../..OXO..", 7, 6, 4, 3),
    ("......./......./...X.../...O.../..XXO../.OOXX..", 7, 6, 4, 2),
    ("...O./..OX./.XXXO/.OXXO", 5, 4, 4, None),
    ("..../..O./..X./OXXO", 4, 4, 3, None),
    ("..../XOXO/OXOX/XOXO", 4, 4, 4, None),
]


@pytest.mark.parametrize("board, columns, rows, connect, depth", POSITIONS)
def test_the_reference_values_agree_with_a_brute_force(board, columns, rows, connect, depth):
    spec = {"kind": "connect4", "columns": columns, "rows": rows, "connect": connect,
            "board": board}
    expected = brute_force_value(board, columns, rows, connect, depth)
    for reference in ("minimax", "alphabeta", "negamax"):
        answer = answer_search(reference, spec, depth, True)
        assert answer["value"] == pytest.approx(expected, abs=1e-12), reference
        assert answer["action"] in answer["optimal_actions"]


# -- the graded course ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def connect4_course():
    return load_course(COURSE / "tasks")


@pytest.fixture(scope="module")
def graded(grade, connect4_course):
    return {name: grade(COURSE / "submissions" / name, connect4_course)
            for name in ("korrekt", "horizont-zu-frueh")}


def diagnoses(result):
    return {name for v in result.verdicts if not v.passed
            for name in (v.facts.get("diagnosis") or ())}


def test_the_correct_student_gets_full_marks(graded, connect4_course):
    result = graded["korrekt"]
    assert [v.check.id for v in result.verdicts if not v.passed] == []
    assert result.score == result.max_score == connect4_course.max_score


def test_evaluating_a_ply_early_is_caught_and_named(graded):
    result = graded["horizont-zu-frueh"]
    failed = [v for v in result.verdicts if not v.passed]
    assert failed and {v.check.function for v in failed} == {"alphabeta"}
    assert {v.check.task_id for v in failed} == {"c4-depth4", "c4-depth3-o"}, \
        "the exact searches have no horizon to miss"
    assert diagnoses(result) == {"horizon-early"}


def test_a_catalogue_mistake_in_depth_counting_is_named(tmp_path, grade, connect4_course):
    folder = tmp_path / "off-by-one"
    folder.mkdir()
    shutil.copy(ROOT / "reference" / "variants.py", folder / "_variants.py")
    (folder / "minimax.py").write_text(textwrap.dedent("""
        from _variants import minimax_family, negamax_family

        def minimax(game, state, depth=None):
            return minimax_family(game, state, depth, pruning=False)

        def alphabeta(game, state, depth=None):
            return minimax_family(game, state, depth, mistake="depth-off-by-one")

        def negamax(game, state, depth=None):
            return negamax_family(game, state, depth)
    """))
    result = grade(folder, connect4_course)
    failed = [v for v in result.verdicts if not v.passed]
    assert failed and {v.check.function for v in failed} == {"alphabeta"}
    assert "depth-off-by-one" in diagnoses(result)


# -- the boards in the reports --------------------------------------------------------------
def grids(html):
    """The Connect Four boards of a page: (row-by-row text, (row, column) of the last disc)."""
    found = []
    for label, columns, cells in re.findall(
            r'<span class="c4board" role="img" aria-label="([^"]*)" style="grid-template-columns:'
            r' repeat\((\d+), \.8rem\)">((?:<span class="[^"]*">[^<]*</span>)+)</span>', html):
        classes = re.findall(r'<span class="([^"]*)">', cells)
        last = [i for i, names in enumerate(classes) if "last" in names.split()]
        found.append((label, divmod(last[0], int(columns)) if last else None))
    return found


def test_the_visit_table_shows_each_node_as_a_board_with_the_last_disc_marked(
        graded, connect4_course):
    files = render_student(graded["horizont-zu-frueh"], connect4_course, Catalogue("en"))
    html, markdown = files["feedback.html"], files["feedback.md"]
    section = html[html.index('<section id="c4-depth4">'):].split("</section>")[0]
    shown = grids(section)
    root = "......./......./......./...O.../..XX.../..OXO.."
    # The table starts at the root; node 0 drops X into column 0 (bottom row), 0-0 puts O on
    # top of it.
    assert shown[:6] == [(root, None), (root, None),
                         ("......./......./......./...O.../..XX.../X.OXO..", (5, 0)),
                         ("......./......./......./...O.../..XX.../X.OXO..", (5, 0)),
                         ("......./......./......./...O.../O.XX.../X.OXO..", (4, 0)),
                         ("......./......./......./...O.../O.XX.../X.OXO..", (4, 0))]
    assert "<code>0-0-0-0</code>" in section
    assert 'aria-label="0 1 2 3 4 5 6"' in section, "the legend numbers the columns"
    assert "X drops a disc into column 0, then O drops a disc into column 0" in section
    assert "In the task&#39;s position X is to move" in section or \
        "In the task's position X is to move" in section
    assert "`0-0-0-0`: `......./......./O....../X..O.../O.XX.../X.OXO..`" in markdown
    assert "0 to 6 from the left" in markdown
    assert "<script" not in html and not re.search(r'(src|href)="(https?:)?//', html)


def test_a_line_for_the_player_to_move_cannot_occur():
    # X has the bottom row, but with four discs each it would be X's turn: O moved after the
    # game had ended.
    with pytest.raises(BoardError, match="X has a line of 4 but is to move"):
        read_board("......./......./......./......./OOO..../XXXX..O")


def test_a_catalogue_variant_that_searches_the_whole_game_is_given_up(connect4_course,
                                                                      monkeypatch):
    # Ignoring the depth on 7x6 means solving Connect Four: the variant is stopped after the
    # visit limit instead of holding up the grading of a student who failed.  Stopped here
    # at a quarter of the limit (still ten times the course's largest search, 4,996 visits),
    # so that the test is quick: 200,000 visits took 3 CPU-seconds, and a variant that is
    # never stopped searches on with either limit.
    import grader.mistakes
    from grader.checks.common import search_call
    from grader.mistakes import VARIANT_VISIT_LIMIT, variant_answers
    assert VARIANT_VISIT_LIMIT >= 50 * 2786, "far more than the course's searches visit"
    monkeypatch.setattr(grader.mistakes, "VARIANT_VISIT_LIMIT", 50_000)
    call = search_call(connect4_course.task("c4-depth4"), "alphabeta")
    assert variant_answers(call, "depth-ignored") == [{"error": "VariantTooLong"}]


def test_a_whole_game_search_of_a_big_board_is_refused_with_file_and_line(tmp_path,
                                                                          monkeypatch, capsys):
    """Connect Four on 7x6 to the end never finishes: the reference stops at its visit limit
    (lowered here, so the test is quick) and the task is refused at its line, exit 2."""
    import grader.answers.bounded
    from grader.cli import main
    monkeypatch.setattr(grader.answers.bounded, "REFERENCE_VISIT_LIMIT", 5_000)
    monkeypatch.setenv("GRADER_NO_CACHE", "1")
    (tmp_path / "whole.yaml").write_text(
        "course: {title: t, language: en}\n"
        "tasks:\n"
        "  - id: c4-whole-game\n"
        "    game: connect4\n"
        "    functions: [minimax]\n"
        "    checks:\n"
        "      - {kind: value, points: 1}\n")
    assert main(["validate", str(tmp_path / "whole.yaml")]) == 2
    said = " ".join(capsys.readouterr().err.split())
    assert (f"{tmp_path / 'whole.yaml'}:7: c4-whole-game: the reference search visited more "
            "than 5,000 nodes, and would take too long to finish; give the task a depth:") in said
    assert main(["grade", "--tasks", str(tmp_path / "whole.yaml"), "--submissions",
                 str(ROOT / "submissions"), "--out", str(tmp_path / "out")]) == 2
    assert not (tmp_path / "out" / "gradebook.csv").exists()
    # a self-check computes the answers while the child runs: the refusal still comes out
    capsys.readouterr()
    assert main(["check", str(ROOT / "submissions" / "korrekt"), "--tasks",
                 str(tmp_path / "whole.yaml"), "--out", str(tmp_path / "check")]) == 2
    said = " ".join(capsys.readouterr().err.split())
    assert f"{tmp_path / 'whole.yaml'}:7: c4-whole-game: the reference search visited" in said
    assert not (tmp_path / "check").exists()


def test_the_reference_limit_is_far_above_the_largest_bundled_search():
    from grader.answers.bounded import REFERENCE_VISIT_LIMIT
    assert REFERENCE_VISIT_LIMIT >= 549_946, "tic-tac-toe from the empty board fits"
