"""The aima convention: the searches of AIMA's games.py as students complete them, graded as
they are (state first, the action returned, AIMA's Game methods, its cutoff depth), and the
textbook's classic mistakes named on that code.

The example students of ``courses/aima/`` are written for this project in the textbook's style
(AIMA's own file is graded by ``bench/aima_games.py`` from a mirror of the repository)."""

import difflib
import math

import pytest

from grader.conventions import aima
from grader.games import make_game
from grader.tasks import load_course

from conftest import ROOT

COURSE = ROOT / "courses" / "aima"
STUDENTS = COURSE / "submissions"
# Each example student: one edit of korrekt/games.py, the function it breaks, the mistake the
# feedback names.
MUTANTS = {
    "root-minimises": ("minmax_decision", "root-minimises"),
    "no-terminal-test": ("minmax_decision", "no-terminal-test-max"),
    "utility-for-mover": ("minmax_decision", "utility-side-to-move"),
    "v-starts-at-0": ("alpha_beta_search", "init-zero-max"),
    "strict-cut-max": ("alpha_beta_search", "strict-cut-max"),
    "root-alpha-dropped": ("alpha_beta_search", "root-no-alpha"),
    "last-action": ("alpha_beta_search", "last-action"),
    "depth-from-0": ("alpha_beta_cutoff_search", "depth-off-by-one"),
    "strict-cut-min": ("alpha_beta_cutoff_search", "strict-cut-min"),
}


@pytest.fixture(scope="module")
def aima_course():
    return load_course(COURSE / "tasks")


def test_the_textbooks_searches_get_full_marks_without_an_adapter(aima_course, grade):
    result = grade(STUDENTS / "korrekt", aima_course)
    assert [(v.check.id, v.reason) for v in result.verdicts if not v.passed] == []
    assert result.max_score == 37
    assert {v.check.task_id for v in result.verdicts} == {
        "sheet-tree", "figure-5-2", "tictactoe", "tree-depth-3", "tictactoe-depth-2",
        "random-trees"}


def test_every_example_student_is_one_edit_of_the_correct_file():
    correct = (STUDENTS / "korrekt" / "games.py").read_text().splitlines()
    assert sorted(p.name for p in STUDENTS.iterdir()) == sorted([*MUTANTS, "korrekt"])
    for name in MUTANTS:
        mutant = (STUDENTS / name / "games.py").read_text().splitlines()
        changes = [group for group in difflib.SequenceMatcher(None, correct, mutant)
                   .get_grouped_opcodes(0)]
        assert len(changes) == 1, f"{name}: {len(changes)} places differ"


@pytest.mark.parametrize("student", sorted(MUTANTS))
def test_a_mutant_loses_points_on_its_function_only_and_is_named(student, aima_course, grade):
    function, mistake = MUTANTS[student]
    result = grade(STUDENTS / student, aima_course)
    failed = [v for v in result.verdicts if not v.passed]
    assert failed and {v.check.function for v in failed} == {function}
    assert {tuple(v.facts.get("diagnosis") or ()) for v in failed} == {(mistake,)}


def test_the_cutoff_search_is_called_with_the_textbooks_d_and_an_eval_fn():
    def cutoff(state, game, d=4, cutoff_test=None, eval_fn=None):
        pass

    def named_depth(state, game, depth):
        pass

    evaluation = object()
    assert aima.fit(cutoff, "cutoff", (3,), evaluation) == ({"d": 2, "eval_fn": evaluation},
                                                            None)
    assert aima.fit(cutoff, "cutoff", (), evaluation) == ({"d": math.inf,
                                                           "eval_fn": evaluation}, None)
    assert aima.fit(named_depth, "f", (1,)) == ({"depth": 0}, None)


def test_a_search_that_cannot_take_the_depth_is_told_its_signature_differs():
    def alpha_beta_search(state, game):
        pass

    def needs_more(state, game, table):
        pass

    _, report = aima.fit(alpha_beta_search, "alpha_beta_search", (2,))
    assert report == {"student": "alpha_beta_search(state, game)",
                      "expected": "alpha_beta_search(state, game, d)", "adapted": False}
    assert aima.fit(needs_more, "f", ())[1]["adapted"] is False


def test_the_game_offers_aimas_methods_and_eval_fn_scores_like_the_textbook():
    spec = {"kind": "tree", "root": "A", "nodes": {
        "A": {"children": ["B", "C"]}, "B": {"children": ["B1"], "eval": 4},
        "B1": {"value": 8}, "C": {"value": -2}}}
    game, root = make_game(spec)
    board = aima.AimaGame(game, root)
    assert board.initial == "A" and board.to_move("A") == "MAX"
    assert board.actions("A") == ["B", "C"] and not board.terminal_test("A")
    child = board.result("A", "C")
    assert board.terminal_test(child) and board.utility(child, "MIN") == 2
    eval_fn = aima.evaluation_for(game, "MAX")
    assert eval_fn(board.result("A", "B")) == 4 and eval_fn(child) == -2
    log = game.visit_log()
    assert (log["evaluate_calls"], log["utility_calls"]) == (["B"], ["C", "C"])


def test_players_that_take_the_game_first_are_called_that_way():
    from grader.conventions.signature import arranged

    def alpha_beta_player(game, state):
        pass

    def minmax_decision(state, game):
        pass

    assert arranged(alpha_beta_player, "state", "GAME", "STATE") == ("GAME", "STATE")
    assert arranged(minmax_decision, "state", "GAME", "STATE") == ("STATE", "GAME")


@pytest.fixture
def aima_standins():
    """The stand-in modules games and utils, imported as a student's file imports them."""
    import importlib
    import sys
    from grader.conventions import STANDINS
    names = ("games", "utils")
    saved = {name: sys.modules.pop(name) for name in names if name in sys.modules}
    sys.path.insert(0, STANDINS)
    try:
        yield {name: importlib.import_module(name) for name in names}
    finally:
        sys.path.remove(STANDINS)
        for name in names:
            sys.modules.pop(name, None)
        sys.modules.update(saved)


def test_what_aima_students_import_loads_and_the_framework_works(aima_standins):
    games, utils = aima_standins["games"], aima_standins["utils"]
    namespace = {}
    exec("from utils import *\nfrom games import *", namespace)
    assert namespace["vector_add"]((1, 2), (3, 4)) == (4, 6)
    assert namespace["argmax"]([3, 1, 2], key=lambda x: -x) == 1
    assert utils.infinity == utils.inf == math.inf
    ttt = games.TicTacToe()
    state = ttt.initial
    for move in [(1, 1), (2, 1), (1, 2), (2, 2), (1, 3)]:
        state = ttt.result(state, move)
    assert ttt.terminal_test(state) and ttt.utility(state, "X") == 1
    figure = games.Fig52Game()
    assert figure.actions("A") == ["a1", "a2", "a3"] and figure.utility("C3", "MIN") == -6
    assert isinstance(state, games.GameState)


def test_what_is_only_a_stand_in_stops_the_function_that_uses_it(aima_standins):
    from grader.conventions.stubs import StandInUnavailable
    games, utils = aima_standins["games"], aima_standins["utils"]
    for use in (lambda: games.alpha_beta_search("A", games.Fig52Game()),
                lambda: games.Backgammon(), lambda: utils.expr("P & Q")):
        with pytest.raises(StandInUnavailable):
            use()
