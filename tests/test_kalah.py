"""Kalah, where a move into one's own store gives another turn: its rules, its task files,
the reference's answers checked against a brute force of its own, and the Kalah course graded
for real (a correct student, one that alternates blindly, one whose negamax negates on every
ply)."""

import json
import random
import re

import pytest

from grader.games import make_game, make_rules
from grader.report.messages import Catalogue
from grader.report.writers import render_student
from grader.tasks import TaskFileError, load_course
from reference.minimax import alphabeta, minimax, negamax

from conftest import DATA, ROOT

COURSE = ROOT / "courses" / "kalah" / "tasks"
STUDENTS = ROOT / "courses" / "kalah" / "submissions"


def kalah(board, to_move="MAX"):
    return make_rules({"kind": "kalah", "board": board, "to_move": to_move})


# -- the rules --------------------------------------------------------------------------
def test_the_initial_position_and_the_movers_pits_in_the_boards_numbering():
    rules = make_rules({"kind": "kalah", "pits": 3, "stones": 3})
    assert rules.initial_state() == ((3, 3, 3, 0, 3, 3, 3, 0), "MAX")
    assert rules.actions(rules.initial_state()) == [0, 1, 2]
    assert rules.actions(((3, 3, 3, 0, 3, 0, 3, 0), "MIN")) == [4, 6]
    default = make_rules({"kind": "kalah"})
    assert default.initial_state() == ((4,) * 6 + (0,) + (4,) * 6 + (0,), "MAX")


def test_sowing_goes_counter_clockwise_and_the_other_player_moves_next():
    rules = make_rules({"kind": "kalah", "pits": 3, "stones": 3})
    # pit 1's three stones go to pit 2, MAX's store 3 and MIN's pit 4
    assert rules.result(rules.initial_state(), 1) == ((3, 0, 4, 1, 4, 3, 3, 0), "MIN")


def test_sowing_skips_the_opponents_store():
    # MIN sows 4 stones from pit 4: its store 5, MAX's pits 0 and 1, not MAX's store 2, pit 3
    rules = kalah([1, 1, 0, 1, 4, 0])
    assert rules.result(((1, 1, 0, 1, 4, 0), "MIN"), 4) == ((2, 2, 0, 2, 0, 1), "MAX")
    # and MAX's 8 stones from pit 2 go all the way round: store 3, pits 4-6, not MIN's store
    # 7, pits 0-2 (the emptied pit too) and the store again, the last one: another turn
    rules = kalah([0, 0, 8, 0, 1, 1, 1, 0])
    assert rules.result(rules.initial_state(), 2) == ((1, 1, 1, 2, 2, 2, 2, 0), "MAX")


def test_the_last_stone_in_ones_own_store_gives_another_turn():
    rules = make_rules({"kind": "kalah", "pits": 3, "stones": 3})
    after = rules.result(rules.initial_state(), 0)
    assert after == ((0, 4, 4, 1, 3, 3, 3, 0), "MAX")
    assert rules.to_move(after) == "MAX"
    # MIN too: the stone from pit 6 lands in MIN's store 7, and MIN moves again
    again = rules.result(((1, 1, 0, 0, 2, 0, 1, 0), "MIN"), 6)
    assert again == ((1, 1, 0, 0, 2, 0, 0, 1), "MIN")
    assert rules.actions(again) == [4]


def test_a_capture_takes_the_opposite_stones_and_the_capturing_stone():
    rules = kalah([1, 0, 2, 0, 1, 2, 0, 0])
    # the stone from pit 0 lands in the empty pit 1, facing pit 5 with 2 stones: 3 to the store
    assert rules.result(rules.initial_state(), 0) == ((0, 0, 2, 3, 1, 0, 0, 0), "MIN")


def test_no_capture_opposite_an_empty_pit_nor_on_the_opponents_side():
    rules = kalah([1, 0, 2, 0, 1, 0, 0, 0])
    assert rules.result(rules.initial_state(), 0) == ((0, 1, 2, 0, 1, 0, 0, 0), "MIN")
    # MAX's last stone lands in MIN's empty pit 4: nothing is captured
    rules = kalah([1, 0, 2, 0, 0, 1, 1, 0])
    assert rules.result(rules.initial_state(), 2) == ((1, 0, 0, 1, 1, 1, 1, 0), "MIN")
    # the emptied pit, sown into on the way round, captures (it was empty when the last stone came)
    rules = kalah([7, 0, 0, 0, 0, 0, 1, 0])
    # (7 stones: pits 1-2, store 3, pits 4-6, not store 7, pit 0; pit 6 then holds 2)
    assert rules.result(rules.initial_state(), 0) == ((0, 1, 1, 4, 1, 1, 0, 0), "MIN")


def test_an_empty_side_ends_the_game_and_the_rest_goes_to_its_owner():
    rules = kalah([0, 0, 1, 5, 2, 1, 0, 3])
    end = rules.result(rules.initial_state(), 2)
    assert end == ((0, 0, 0, 6, 0, 0, 0, 6), "MAX")
    assert rules.is_terminal(end) and rules.actions(end) == []
    assert rules.utility(end, "MAX") == 0
    # a task's own position with an empty side is over too, and counts the same way
    over = kalah([0, 0, 0, 4, 1, 2, 0, 3])
    assert over.is_terminal(over.initial_state())
    assert over.utility(over.initial_state(), "MAX") == -2
    assert over.utility(over.initial_state(), "MIN") == 2


def test_utility_and_heuristic_are_store_differences_from_the_askers_view():
    rules = kalah([1, 0, 2, 5, 1, 2, 0, 3])
    state = rules.initial_state()
    assert rules.evaluate(state, "MAX") == 2 and rules.evaluate(state, "MIN") == -2
    with pytest.raises(ValueError, match="not a terminal state"):
        rules.utility(state, "MAX")
    with pytest.raises(ValueError, match="unknown player"):
        rules.evaluate(state, "X")
    with pytest.raises(ValueError, match="may sow from"):
        rules.result(state, 1)                     # empty
    with pytest.raises(ValueError, match="may sow from"):
        rules.result(state, 4)                     # MIN's pit


def test_nodes_are_named_by_their_action_paths_and_states_print_like_plain_tuples():
    game, root = make_game({"kind": "kalah", "pits": 2, "stones": 2})
    child = game.result(game.result(root, 1), 3)
    game.is_terminal(child)
    assert game.visit_log()["visits"] == ["1-3"]
    assert isinstance(root, tuple) and repr(root) == "((2, 2, 0, 2, 2, 0), 'MAX')"


# -- task files -------------------------------------------------------------------------
def test_kalah_task_file_errors_are_reported_with_file_and_line():
    with pytest.raises(TaskFileError) as error:
        load_course(DATA / "kalah" / "bad.yaml")
    problems = {(p.line, p.message) for p in error.value.problems}
    assert all(str(DATA / "kalah" / "bad.yaml") == p.file for p in error.value.problems)
    expected = {6: "stones: 0 is not a number of stones per pit",
                11: "is not a Kalah board",
                17: "to_move 'X' is not a player of Kalah",
                23: "give either stones (every pit alike) or a board",
                28: "pits: 3 disagrees with the board, which has 2 pits",
                36: "the negamax-sign convention gives the student no way to ask whose turn",
                43: "'pits' belongs to a kalah task",
                51: "a horizon check needs a depth-limited task"}
    for line, fragment in expected.items():
        assert any(at == line and fragment in message for at, message in problems), \
            (line, sorted(problems))
    assert len(problems) == len(expected), sorted(problems)


def test_the_course_makes_canonical_specs_and_accepts_depth_and_horizon_on_kalah():
    course = load_course(COURSE)
    specs = {task.id: json.loads(task.game_spec) for task in course.tasks}
    assert specs["kalah-2x3"] == {"kind": "kalah", "pits": 2, "stones": 3, "to_move": "MAX"}
    assert specs["kalah-min-am-zug"] == {"kind": "kalah", "board": [2, 2, 0, 3, 3, 2, 0, 4],
                                         "to_move": "MIN"}
    deep = course.task("kalah-3x3-tiefe6")
    assert deep.depth == 6 and "horizon" in {check.kind for check in deep.checks}


# -- the reference against a brute force of the test's own ------------------------------
class Position:
    """Kalah written afresh, in other terms than grader/games/kalah.py: each side's pits from
    its owner's left, the stores apart, the mover as 0 (MAX) or 1 (MIN)."""

    def __init__(self, sides, stores, mover):
        self.sides, self.stores, self.mover = sides, stores, mover

    @classmethod
    def from_board(cls, board, to_move):
        n = len(board) // 2 - 1
        return cls((tuple(board[:n]), tuple(board[n + 1:2 * n + 1])),
                   (board[n], board[2 * n + 1]), 0 if to_move == "MAX" else 1)

    def over(self):
        return not any(self.sides[0]) or not any(self.sides[1])

    def moves(self):
        return [] if self.over() else [i for i, s in enumerate(self.sides[self.mover]) if s]

    def play(self, pit):
        n, me = len(self.sides[0]), self.mover
        sides, stores = [list(self.sides[0]), list(self.sides[1])], list(self.stores)
        hand, sides[me][pit] = sides[me][pit], 0
        side, index = me, pit
        while hand:
            index += 1
            if index == n:                   # past the last pit: a store, or the other side
                if side == me:
                    stores[me] += 1
                    hand -= 1
                    if not hand:
                        break
                side, index = 1 - side, -1
                continue
            sides[side][index] += 1
            hand -= 1
        ended_in_store = index == n
        if not ended_in_store and side == me and sides[me][index] == 1 \
                and sides[1 - me][n - 1 - index]:
            stores[me] += 1 + sides[1 - me][n - 1 - index]
            sides[me][index] = sides[1 - me][n - 1 - index] = 0
        if not any(sides[0]) or not any(sides[1]):
            for owner in (0, 1):
                stores[owner] += sum(sides[owner])
                sides[owner] = [0] * n
        return Position((tuple(sides[0]), tuple(sides[1])), tuple(stores),
                        me if ended_in_store else 1 - me)

    def action(self, pit):
        """The move's name in the grader's board numbering."""
        return pit if self.mover == 0 else len(self.sides[0]) + 1 + pit


def brute_force(position, depth, root_mover):
    """(root value, [(action, value)], nodes within the depth): plain minimax by whose turn it
    is, store differences at the end and at the horizon, from the root mover's view."""
    def diff(p):
        return p.stores[root_mover] - p.stores[1 - root_mover]

    def value(p, d):
        if p.over():
            left = sum(p.sides[root_mover]) - sum(p.sides[1 - root_mover])
            return diff(p) + left, 1
        if d == 0:
            return diff(p), 1
        results = [value(p.play(m), None if d is None else d - 1) for m in p.moves()]
        pick = max if p.mover == root_mover else min
        return pick(v for v, _ in results), 1 + sum(c for _, c in results)

    children = [(position.action(m), value(position.play(m), None if depth is None
                                             else depth - 1)) for m in position.moves()]
    best = max(v for _, (v, _) in children)
    return best, [(a, v) for a, (v, _) in children], 1 + sum(c for _, (_, c) in children)


def reference_answers(spec, depth):
    answers = {}
    for name, search in (("minimax", minimax), ("alphabeta", alphabeta), ("negamax", negamax)):
        game, root = make_game(spec)
        value, action = search(game, root, depth)
        answers[name] = (value, action, len(game.visit_log()["visits"]))
    return answers


@pytest.mark.parametrize("task_id", ["kalah-2x3", "kalah-3x3-tiefe6", "kalah-min-am-zug"])
def test_the_courses_answers_agree_with_an_independent_brute_force(task_id):
    task = load_course(COURSE).task(task_id)
    spec = json.loads(task.game_spec)
    rules = make_rules(spec)
    board, to_move = rules.initial_state()
    expected, action_values, nodes = brute_force(Position.from_board(board, to_move),
                                                 task.depth, 0 if to_move == "MAX" else 1)
    first_optimal = next(a for a, v in action_values if v == expected)
    answers = reference_answers(spec, task.depth)
    for name, (value, action, visited) in answers.items():
        assert (value, action) == (expected, first_optimal), name
    assert answers["minimax"][2] == answers["negamax"][2] == nodes
    assert answers["alphabeta"][2] < nodes
    pins = {function: dict((k, v) for k, v, _ in fields) for function, fields, _ in task.pins}
    assert pins["minimax"]["value"] == expected and pins["minimax"]["action"] == first_optimal


def test_the_searched_lines_have_extra_turns():
    # A course on extra turns must search lines where a player moves twice in a row.
    for task in load_course(COURSE).tasks:
        game, root = make_game(json.loads(task.game_spec))
        rules = game._rules
        again, frontier = 0, [(root, 0)]
        while frontier:
            state, level = frontier.pop()
            if rules.is_terminal(state) or level == task.depth:
                continue
            for action in rules.actions(state):
                child = rules.result(state, action)
                again += child[1] == state[1] and not rules.is_terminal(child)
                frontier.append((child, level + 1))
        assert again >= 20, task.id


def test_the_reference_agrees_with_the_brute_force_on_random_positions():
    rng = random.Random(12)
    checked = 0
    while checked < 40:
        pits = rng.choice((2, 3))
        board = [rng.randint(0, 3) for _ in range(2 * pits + 2)]
        to_move = rng.choice(("MAX", "MIN"))
        spec = {"kind": "kalah", "board": board, "to_move": to_move}
        rules = make_rules(spec)
        if rules.is_terminal(rules.initial_state()):
            continue
        depth = rng.choice((None, 3, 4))
        expected, action_values, nodes = brute_force(Position.from_board(board, to_move),
                                                     depth, 0 if to_move == "MAX" else 1)
        first_optimal = next(a for a, v in action_values if v == expected)
        for name, (value, action, visited) in reference_answers(spec, depth).items():
            assert (value, action) == (expected, first_optimal), (name, spec, depth)
            if name != "alphabeta":
                assert visited == nodes, (name, spec, depth)
        checked += 1


# -- the course, graded for real --------------------------------------------------------
@pytest.fixture(scope="module")
def graded(grade):
    course = load_course(COURSE)
    return course, {student: grade(STUDENTS / student, course)
                    for student in ("korrekt", "abwechselnd", "negamax-jede-ebene")}


def diagnoses(result):
    return {name for v in result.verdicts if not v.passed
            for name in v.facts.get("diagnosis") or ()}


def test_the_correct_student_who_asks_to_move_gets_full_marks(graded):
    course, results = graded
    result = results["korrekt"]
    assert result.score == result.max_score == course.max_score
    assert all(v.passed for v in result.verdicts)


def test_a_search_that_alternates_blindly_is_caught_and_named(graded):
    course, results = graded
    result = results["abwechselnd"]
    failed = [v for v in result.verdicts if not v.passed]
    assert {v.check.function for v in failed} == {"minimax", "alphabeta"}
    assert {v.check.task_id for v in failed} == {t.id for t in course.tasks}
    assert diagnoses(result) == {"strict-alternation"}
    markdown = render_student(result, course, Catalogue("de"))["feedback.md"]
    assert Catalogue("de").lookup("mistake.strict-alternation") in markdown
    assert "zieht noch einmal (Zusatzzug)" in markdown


def test_a_negamax_that_negates_on_every_ply_is_caught_and_named(graded):
    course, results = graded
    result = results["negamax-jede-ebene"]
    failed = [v for v in result.verdicts if not v.passed]
    assert failed and {v.check.function for v in failed} == {"negamax"}
    assert diagnoses(result) == {"negate-every-ply"}
    english = render_student(result, course, Catalogue("en"))["feedback.md"]
    assert Catalogue("en").lookup("mistake.negate-every-ply") in english


def test_visit_tables_draw_kalah_boards_with_a_legend(graded):
    course, results = graded
    files = render_student(results["abwechselnd"], course, Catalogue("en"))
    html, markdown = files["feedback.html"], files["feedback.md"]
    section = html[html.index('<section id="kalah-min-am-zug">'):].split("</section>")[0]
    assert "In the task's position MIN is to move." in section
    boards = re.findall(r'<span class="kalah" role="img" aria-label="([^"]*)"', section)
    assert len(boards) > 10
    # the board of 4-5-1 (MIN sowed from 4, again from 5, then MAX from 1): MAX's pit 1 is
    # marked as the last move's
    assert ('aria-label="[6] 2 0 0 / 3 0 1 [4]" style="grid-template-columns: repeat(5, 1.25rem)">'
            '<span class="store min">6</span><span class="top">2</span><span class="top">0</span>'
            '<span class="top">0</span><span class="store max">4</span>'
            '<span class="bottom">3</span><span class="bottom last">0</span>'
            '<span class="bottom">1</span></span>') in section
    assert "MAX to move again (extra turn)" in section
    assert '<span class="kalah numbers" role="img" aria-label="[7] 6 5 4 / 0 1 2 [3]"' in section
    assert "MAX sows from pits 0, 1, 2, MIN from pits 4, 5, 6" in section
    assert "then MIN sows again from pit 5" in section, "the example path shows an extra turn"
    assert "src=" not in section and "url(" not in section, "the page needs nothing else"
    assert "`4-5-1`: `[6] 2 0 0 / 3 0 1 [4]`, MAX to move again (extra turn)" in markdown
    assert "the places are numbered [7] 6 5 4 / 0 1 2 [3]" in markdown


def test_the_self_check_kit_names_blind_alternation_without_the_reference(tmp_path):
    # The kit carries the course as JSON and the answers precomputed: the Kalah spec must
    # survive that, and the student sees the same feedback as from `grader check --tasks`.
    from test_kit import kit_feedback_as_grader_s
    mine = kit_feedback_as_grader_s(COURSE, STUDENTS / "abwechselnd", tmp_path)
    assert any(Catalogue("de").lookup("mistake.strict-alternation") in test["output"]
               for test in mine["tests"])
