"""Visit tables of tic-tac-toe and matchstick searches: each node's board or pile next to its
path, and a legend of the notation, in the HTML and the Markdown feedback."""

import re

import pytest

from grader.games import make_game
from grader.report.messages import Catalogue
from grader.report.positions import PathReplay
from grader.report.views import picture_view
from grader.report.writers import render_student
from grader.tasks import load_course

from conftest import DATA

FOLDER = DATA / "visit-tables"
TICTACTOE = {"kind": "tictactoe", "board": "X.O/.X./..O"}
MATCHSTICKS = {"kind": "nim", "sticks": 5, "max_take": 2, "last_loses": True}


@pytest.fixture(scope="module")
def reversed_student(grade):
    """The folder's student, who tries the actions last to first, graded for real."""
    course = load_course(FOLDER / "tasks.yaml")
    result = grade(FOLDER / "reversed", course)
    assert [v.passed for v in result.verdicts] == [False, False]
    return result, course


def pages(result, course, language):
    files = render_student(result, course, Catalogue(language))
    return files["feedback.html"], files["feedback.md"]


def task_section(html, task_id):
    return html[html.index(f'<section id="{task_id}">'):].split("</section>")[0]


def boards(html):
    """The boards of a page as (row-by-row text, the cell of the highlighted last move)."""
    found = []
    for label, cells in re.findall(r'<span class="board" role="img" aria-label="([^"]*)">'
                                   r'((?:<span class="[^"]*">[^<]*</span>){9})</span>', html):
        classes = re.findall(r'<span class="([^"]*)">', cells)
        last = [index for index, names in enumerate(classes) if "last" in names.split()]
        found.append((label, last[0] if last else None))
    return found


@pytest.mark.parametrize("spec", [TICTACTOE, MATCHSTICKS], ids=["tictactoe", "matchsticks"])
def test_every_node_name_of_a_search_is_replayed_to_the_state_the_search_had(spec):
    # Walk the whole game through the recording game a student's search receives: the name
    # it gives each node must lead the replay back to the very state it handed out.
    game, root = make_game(spec)
    replay = PathReplay(spec)
    stack, checked = [root], 0
    while stack:
        state = stack.pop()
        name = game.node_of(state)
        found = replay.state_of(name)
        assert found is not None and found[0] == state, name
        assert len(found[1]) == (0 if name == "root" else name.count("-") + 1)
        checked += 1
        stack.extend(game.result(state, action) for action in game.actions(state))
    assert checked > 15


def test_a_failed_tictactoe_search_shows_each_nodes_board_with_the_last_move_marked(
        reversed_student):
    html, _ = pages(*reversed_student, "en")
    table = task_section(html, "ttt")
    shown = boards(table)
    # Row 1 is the task's position (no move yet); row 2 the first difference: the reference
    # marks cell 1 first, the student cell 7.
    assert shown[:4] == [("X.O/.X./..O", None), ("X.O/.X./..O", None),
                         ("XXO/.X./..O", 1), ("X.O/.X./.XO", 7)]
    assert '<tr class="differs"><td>2</td>' in table
    assert "<code>7-6-5</code>" in table, "the path stays next to the board"


def test_the_tictactoe_legend_explains_paths_cells_and_turns(reversed_student):
    html, markdown = pages(*reversed_student, "en")
    legend = task_section(html, "ttt").split('class="positions-legend"')[1]
    assert "separated by “-”; “root” is the task's position itself" in legend
    assert "For example, 1-3-5 means: X marks cell 1, then O marks cell 3, then X marks " \
           "cell 5." in legend
    numbers = re.search(r'<span class="board numbers"[^>]*>(.*?)</span></p>', legend, re.S)
    assert re.findall(r"<span>(\d)</span>", numbers.group(1)) == list("012345678")
    assert "In the task's position X is to move; X and O take turns." in legend
    assert "The last move of each node is highlighted." in legend
    assert "| **`1`: `XXO/.X./..O`** | **`7`: `X.O/.X./.XO`** |" in markdown
    assert "the cells are numbered 012/345/678" in markdown
    assert "For example, 1-3-5 means: X marks cell 1" in markdown


def test_a_failed_matchstick_search_shows_the_sticks_left_and_who_moves(reversed_student):
    html, markdown = pages(*reversed_student, "en")
    table = task_section(html, "sticks")
    assert re.search(r'<span class="sticks"[^>]*>(<i></i>){4}</span><code>1</code>'
                     r'<span class="pile">4 sticks left, MIN to move</span>', table)
    assert "<code>2-2-1</code><span class=\"pile\">0 sticks left: game over</span>" in table
    assert "For example, 1-1-1 means: MAX takes 1, then MIN takes 1, then MAX takes 1." in table
    assert "In the task's position 5 sticks lie and MAX is to move; the players take turns, " \
           "each taking 1 to 2 sticks, and whoever takes the last stick loses." in table
    assert "| **`1`: 4 sticks left, MIN to move** | **`2`: 3 sticks left, MIN to move** |" \
        in markdown


def test_the_legend_is_in_german_too(reversed_student):
    html, markdown = pages(*reversed_student, "de")
    for page in (html, markdown):
        assert "Zum Beispiel heißt 1-3-5: X setzt auf Feld 1, dann setzt O auf Feld 3, " \
               "dann setzt X auf Feld 5." in page
        assert "Zum Beispiel heißt 1-1-1: MAX nimmt 1, dann nimmt MIN 1, dann nimmt MAX 1." \
            in page
        assert "wer das letzte Holz nimmt, verliert" in page
    assert "4 Hölzer übrig, MIN am Zug" in html
    assert "die Felder sind 012/345/678 nummeriert" in markdown


def test_a_name_no_legal_path_leads_to_keeps_only_its_name_and_is_escaped():
    # A visit log comes from the student's process: a forged name must neither break the
    # replay nor reach the page as markup.
    picture = {"key": "k", "spec": TICTACTOE, "values": {}, "first": None,
               "expected": ["root", "1", "1-3"], "observed": ["root", "1", "1-1<b>"]}
    view = picture_view({"picture": picture})
    assert view["rows"][2]["expected_position"]["rows"] == ["XXO", "OX.", "..O"]
    assert view["rows"][2]["observed_position"] is None
    from grader.report.templating import TEMPLATES
    page = TEMPLATES.from_string(
        '{% from "positions.html.j2" import node_cell %}'
        "{{ node_cell(name, None, legend, ui) }}").render(
            name="1-1<b>", legend=view["legend"], ui=lambda key, **facts: key)
    assert page == "<code>1-1&lt;b&gt;</code>"


def test_a_picture_kept_without_its_game_shows_the_paths_as_before():
    # Results written before the spec was kept (state files, shards to merge) name only
    # the game's kind: the table falls back to the paths alone, without a legend.
    picture = {"key": "k", "spec": {"kind": "tictactoe"}, "values": {}, "first": None,
               "expected": ["root", "1"], "observed": ["root", "7"], "offset": 0}
    view = picture_view({"picture": picture})
    assert view["legend"] is None
    assert [row["expected"] for row in view["rows"]] == ["root", "1"]
    assert "expected_position" not in view["rows"][0]


def test_explicit_trees_keep_their_node_names():
    spec = {"kind": "tree", "root": "A", "nodes": {
        "A": {"children": [f"B{i}" for i in range(70)]},
        **{f"B{i}": {"value": i} for i in range(70)}}}
    picture = {"key": "k", "spec": spec, "values": {}, "first": None,
               "expected": ["A", "B0"], "observed": ["A", "B1"]}
    view = picture_view({"picture": picture})
    assert "tree" not in view and view["legend"] is None
    assert view["rows"][1]["expected"] == "B0"
