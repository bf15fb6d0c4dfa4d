"""n-player trees (max^n): the task-file notation and its errors, the game object's methods,
the reference on small trees computed by hand (tie rules, paranoid, alliances, chance
probabilities), vector values in the checks, the pictures, and the three-player course graded
with the real sandbox."""

import json
import re

import pytest

from grader.answers.book import AnswerBook
from grader.checks.common import read_answer, search_call
from grader.answers.numbers import same_number
from grader.games import make_game
from grader.report.messages import Catalogue, format_number
from grader.report.trees import text_tree, tree_layout
from grader.tasks import TaskFileError, load_course
from reference.minimax import maxn
from reference.variants import MAXN_MISTAKES, maxn_family

from conftest import DATA, ROOT

COURSE = ROOT / "courses" / "three-player" / "tasks"
MAXN_DATA = DATA / "maxn"


def answer(course, task_id, function=None):
    task = course.task(task_id)
    return AnswerBook()[search_call(task, function or task.functions[0])][0]


def spec_of(course, task_id):
    return json.loads(course.task(task_id).game_spec)


@pytest.fixture(scope="module")
def three_player():
    return load_course(COURSE)


# -- the notation -----------------------------------------------------------------------
def test_every_malformed_n_player_tree_is_reported_at_its_line():
    path = MAXN_DATA / "errors.yaml"
    marks = [(number, line.split("# error:")[1].strip())
             for number, line in enumerate(path.read_text().splitlines(), start=1)
             if "# error:" in line]
    with pytest.raises(TaskFileError) as caught:
        load_course(path)
    reported = [(p.line, p.message) for p in caught.value.problems]
    assert len(marks) == 15
    for line, text in marks:
        assert any(at == line and text in message for at, message in reported), \
            f"line {line}: {text!r} not among {reported}"
    assert all(p.file == str(path) for p in caught.value.problems)


def test_vector_leaves_and_players_become_the_spec(three_player):
    spec = spec_of(three_player, "three-player")
    assert spec["players"] == ["A", "B", "C"] and spec["vector"] is True
    assert spec["nodes"]["L1.1"] == {"value": [8, 5, 1]}
    assert spec["nodes"]["L"] == {"children": ["L1", "L2"]}
    assert "ties" not in spec       # first is the default, and the spec stays as it was
    assert spec_of(three_player, "three-player-alliance")["alliances"] == [["A"], ["B", "C"]]
    assert spec_of(three_player, "three-player-paranoid")["paranoid"] == "A"


def test_two_player_trees_keep_their_spec_byte_for_byte(course):
    spec = spec_of(course, "tree-blatt3")
    assert set(spec) == {"kind", "root", "nodes"}
    assert not any("probabilities" in node for node in spec["nodes"].values())


def test_probabilities_on_chance_edges_are_read_as_numbers_and_fractions():
    spec = spec_of(load_course(MAXN_DATA / "chance.yaml"), "dice")
    assert spec["nodes"]["B"]["probabilities"] == [0.25, 0.75]
    assert spec["nodes"]["C"]["probabilities"] == pytest.approx([1 / 3, 2 / 3])
    assert spec["nodes"]["C"]["children"] == ["C1", "C2"]


# -- the game object --------------------------------------------------------------------
def test_the_game_object_gives_components_vectors_players_and_coalitions(three_player):
    game, root = make_game(spec_of(three_player, "three-player-alliance"))
    assert game.players() == ("A", "B", "C")
    assert game.to_move(root) == "A"
    assert game.utility("L1.1", "B") == 5
    assert game.utilities("L1.1") == (8, 5, 1)
    assert game.coalition("C") == ("B", "C") and game.coalition("A") == ("A",)
    with pytest.raises(ValueError, match="unknown player 'D'"):
        game.utility("L1.1", "D")
    assert game.visit_log()["utility_calls"] == ["L1.1", "L1.1", "L1.1"]   # every ask is logged


def test_the_game_object_gives_the_probability_of_a_chance_edge():
    course = load_course(MAXN_DATA / "chance.yaml")
    game, _ = make_game(spec_of(course, "dice"))
    assert game.probability("B", "B1") == 0.25 and game.probability("B", "B2") == 0.75
    game, _ = make_game({"kind": "tree", "root": "A", "players": ["MAX", "CHANCE"], "nodes": {
        "A": {"children": ["B"]}, "B": {"children": ["B1", "B2", "B3"]},
        "B1": {"value": 1}, "B2": {"value": 2}, "B3": {"value": 3}}})
    assert game.probability("B", "B2") == pytest.approx(1 / 3)   # equal when none is given


# -- the reference, by hand ---------------------------------------------------------------
def test_maxn_on_the_course_tree(three_player):
    # C: L1 -> (4,2,7), L2 tie on 1 -> (3,9,1), M1 -> (7,2,9), M2 -> (5,4,7);
    # B: L -> (3,9,1) (9 > 2), M -> (5,4,7) (4 > 2); A: 5 > 3, so M.
    result = answer(three_player, "three-player")
    assert result["value"] == [5, 4, 7] and result["action"] == "M"
    assert result["action_values"] == [["L", [3, 9, 1]], ["M", [5, 4, 7]]]
    assert result["optimal_actions"] == ["M"]
    assert len(result["visits"]) == 15
    assert result["values"]["L2"] == [3, 9, 1]


def test_the_textbook_three_player_tree():
    # Russell & Norvig's figure of max^n: the root's vector is (1, 2, 6).
    leaves = [[1, 2, 6], [4, 2, 3], [6, 1, 2], [7, 4, 1],
              [5, 1, 1], [1, 5, 2], [7, 7, 1], [5, 4, 5]]
    nodes = {"R": {"children": ["X", "Y"]}, "X": {"children": ["X1", "X2"]},
             "Y": {"children": ["Y1", "Y2"]}}
    for index, parent in enumerate(["X1", "X2", "Y1", "Y2"]):
        nodes[parent] = {"children": [f"{parent}.1", f"{parent}.2"]}
        nodes[f"{parent}.1"] = {"value": leaves[2 * index]}
        nodes[f"{parent}.2"] = {"value": leaves[2 * index + 1]}
    game, root = make_game({"kind": "tree", "root": "R", "players": ["A", "B", "C"],
                            "vector": True, "nodes": nodes})
    assert maxn(game, root) == ([1, 2, 6], "X")


@pytest.mark.parametrize("task_id, value, action", [
    ("ties-first", [4, 5], "X"),       # B keeps (4,5) at X, (0,2) at Z: A takes X
    ("ties-spiteful", [3, 0], "Y"),    # B gives A the least: (1,5) at X, (0,2) at Z: A takes Y
    ("ties-generous", [6, 2], "Z"),    # B gives A the most: (4,5) at X, (6,2) at Z: A takes Z
])
def test_each_tie_rule_decides_among_equally_good_children(task_id, value, action):
    result = answer(load_course(MAXN_DATA / "ties.yaml"), task_id)
    assert (result["value"], result["action"]) == (value, action)


def test_an_alliance_maximises_the_sum_of_its_members(three_player):
    # B and C maximise x_B + x_C: L1 -> (4,2,7) (9 > 6), L2 -> (3,9,1) (10 > 6), L -> (3,9,1)
    # (10 > 9); M1 -> (1,9,6) (15 > 11), M2 -> (5,4,7) (11 > 9), M -> (1,9,6) (15 > 11);
    # A: 3 > 1, so L.
    result = answer(three_player, "three-player-alliance")
    assert result["value"] == [3, 9, 1] and result["action"] == "L"


def test_paranoid_is_two_player_minimax_on_the_root_players_component(three_player):
    # B and C minimise x_A: L1 -> 4, L2 -> 3, L -> 3; M1 -> 1, M2 -> 4, M -> 1; A takes L (3).
    minimax = answer(three_player, "three-player-paranoid", "minimax")
    alphabeta = answer(three_player, "three-player-paranoid", "alphabeta")
    assert (minimax["value"], minimax["action"]) == (3, "L")
    assert (alphabeta["value"], alphabeta["action"]) == (3, "L")
    assert len(minimax["visits"]) == 15
    # alpha = 3 after L; at M1 the leaf M1.1 (x_A = 1) gives beta = 1 <= alpha: M2 is cut
    assert len(alphabeta["visits"]) == 11
    assert {"M2", "M2.1", "M2.2"}.isdisjoint(alphabeta["visits"])


def test_chance_nodes_weigh_their_children_by_the_given_probabilities():
    course = load_course(MAXN_DATA / "chance.yaml")
    dice = answer(course, "dice")
    assert dice["action_values"] == [["B", 5.0], ["C", 7.0]]   # .25*8 + .75*4; 9/3 + 2*6/3
    assert dice["action"] == "C"
    assert dice["values"]["B"] == 5.0 and dice["values"]["C"] == 7.0   # the picture's values
    three = answer(course, "dice-three")
    # X: B takes (1,9) and (2,8), X = (1.5, 8.5); Y = .9*(3,3) + .1*(9,0) = (3.6, 2.7)
    assert same_number(three["value"], [3.6, 2.7]) and three["action"] == "Y"
    assert three["chance"] is True


def test_every_maxn_mistake_changes_the_root_vector_on_the_course_tree(three_player):
    spec = spec_of(three_player, "three-player")
    for mistake in MAXN_MISTAKES:
        game, root = make_game(spec)
        assert maxn_family(game, root, mistake=mistake)[0] != [5, 4, 7], mistake


# -- vectors in the checks ------------------------------------------------------------------
def test_same_number_compares_vectors_element_by_element_and_numbers_as_before():
    assert same_number([1, 2.0, 3], [1, 2, 3 + 1e-12])
    assert not same_number([1, 2, 3], [1, 2, 4])
    assert not same_number([1, 2], [1, 2, 3])
    assert not same_number(3, [3, 3]) and not same_number([3, 3], 3)
    assert same_number(3, 3) and same_number(0.1 + 0.2, 0.3) and not same_number(1, 2)


def test_a_scalar_where_a_vector_is_due_is_the_wrong_shape():
    reference = {"value": [5, 4, 7], "action": "M", "action_values": [["L", []], ["M", []]]}
    assert read_answer([[5, 4, 7], "M"], reference) == ([5, 4, 7], "M", None)
    _, _, problem = read_answer([5, "M"], reference)
    assert problem["problem"] == "vector" and problem["players"] == 3
    _, _, problem = read_answer([[5, 4], "M"], reference)
    assert problem["problem"] == "vector"
    text = Catalogue("en").text("reason.result.shape", **problem)
    assert "utility vector, action) of 3 finite numbers" in text
    assert format_number([5, 4.0, 7]) == "(5, 4.0, 7)"


# -- pictures -------------------------------------------------------------------------------
def test_the_text_tree_shows_players_and_vectors(three_player):
    spec = spec_of(three_player, "three-player")
    result = answer(three_player, "three-player")
    lines = text_tree(spec, result["values"], result["visits"], result["visits"])
    assert lines[0] == "R ◆A (5, 4, 7) ✓"
    assert "└─ M2.2 ■ (5, 4, 7) ✓" in lines[-1]
    assert any("L2 ◆C (3, 9, 1)" in line for line in lines)


def render_svg(layout) -> str:
    """The tree as the feedback page draws it (the page imports the same macro)."""
    from grader.report.templating import TEMPLATES
    from grader.report.writers import _ui
    page = TEMPLATES.from_string('{% from "tree.svg.j2" import tree_svg %}{{ tree_svg(t, ui) }}')
    return page.render(t=layout, ui=_ui(Catalogue("en"), True))


def test_the_svg_draws_vectors_beside_diamonds_and_probabilities_on_chance_edges():
    course = load_course(MAXN_DATA / "chance.yaml")
    spec = spec_of(course, "dice-three")
    result = answer(course, "dice-three")
    layout = tree_layout(spec, result["values"], result["visits"], result["visits"])
    svg = render_svg(layout)
    assert svg.count("<polygon") == 3          # the diamonds of R, X1 and X2 (A and B)
    assert svg.count("<circle") == 2           # the chance nodes X and Y
    assert '>(1, 9)</text>' in svg and '>(3.6, 2.7)</text>' in svg
    labels = re.findall(r'<text class="action"[^>]*>([^<]*)</text>', svg)
    assert labels == ["0.5", "0.5", "0.9", "0.1"]
    assert len(svg) < 6000
    lines = text_tree(spec, result["values"], result["visits"], result["visits"])
    assert any("p=0.9 → Y1 ■ (3, 3)" in line for line in lines)


def test_the_svg_escapes_what_the_task_file_names():
    spec = {"kind": "tree", "root": "R", "players": ["A", "B"], "vector": True, "nodes": {
        "R": {"children": ["X"], "actions": ["<b>go</b>"]}, "X": {"value": [1, 2]}}}
    svg = render_svg(tree_layout(spec, {"R": [1, 2], "X": [1, 2]}, ["R", "X"], ["R", "X"]))
    assert "<b>" not in svg and "&lt;b&gt;go&lt;/b&gt;" in svg


# -- the course, graded in the sandbox ----------------------------------------------------
@pytest.fixture(scope="module")
def graded(three_player, grade):
    folders = ROOT / "courses" / "three-player" / "submissions"
    return {name: grade(folders / name, three_player) for name in ("korrekt", "zwei-spieler")}


def test_the_correct_student_gets_full_marks(graded, three_player):
    result = graded["korrekt"]
    assert result.score == result.max_score == three_player.max_score == 11
    assert all(v.passed for v in result.verdicts)


def test_the_student_who_plays_two_player_minimax_is_caught_and_named(graded):
    result = graded["zwei-spieler"]
    failed = {v.check.id: v for v in result.verdicts if not v.passed}
    assert set(failed) == {"three-player/maxn/value", "three-player/maxn/action"}
    assert failed["three-player/maxn/value"].facts["observed"] == [3, 9, 1]
    assert failed["three-player/maxn/value"].facts["diagnosis"] == ["paranoid"]
    assert result.score == 8
    # the paranoid task asks for exactly this search of minimax and alphabeta: full marks there
    assert all(v.passed for v in result.verdicts if v.check.task_id == "three-player-paranoid")


def test_the_feedback_names_the_mistake_in_the_lectures_words(graded, three_player):
    from grader.report.views import student_view
    catalogue = Catalogue("de")
    view = student_view(graded["zwei-spieler"], three_player, catalogue, html=False)
    text = " ".join(str(c["message"]) for task in view["tasks"] for c in task["checks"])
    assert "Dein Wert an der Wurzel ist (3, 9, 1), richtig ist (5, 4, 7)." in text
    assert catalogue.lookup("mistake.paranoid") in text


def test_the_course_pins_match_the_reference(capsys):
    from grader.cli import main
    assert main(["validate", str(COURSE)]) == 0
    assert "every pinned answer matches the reference" in capsys.readouterr().out


def test_a_student_weighing_chance_edges_in_the_sandbox_gets_full_marks(grade):
    course = load_course(MAXN_DATA / "chance.yaml")
    result = grade(MAXN_DATA / "chance-student", course)
    assert [v.reason for v in result.verdicts if not v.passed] == []
    assert result.score == result.max_score == 4
