"""A move is the game's move only as a value of the game's own type: 8.0 is not cell 8, True
is not column 1, "3" is not 3.  The rule itself (grader/games/moves.py), the boundary that
must hand the judges a float as a float, and correct searches that return their moves as
floats, graded for real in the sandbox: the line, action, iterations, ordering and
killer-move checks and a match each refuse them with a message that says the type differs.
The students are tests/data/move-types/ (each wraps a correct solution, suche.py)."""

import json
import math

import pytest

from grader.sandbox.boundary import CallReply, decode
from grader.games.moves import is_move_of, move_index, same_move, type_mismatch
from grader.play import baseline, play_game
from grader.play.players import SandboxedPlayer
from grader.report.messages import Catalogue
from grader.report.views import student_view
from grader.tasks import load_course

from conftest import DATA, ROOT

STUDENTS = DATA / "move-types"


def test_a_move_equals_only_a_value_of_its_own_type():
    assert same_move(8, 8) and same_move("a", "a") and same_move([1, 2], (1, 2))
    for returned, move in ((8.0, 8), (True, 1), (False, 0), ("3", 3), (1, True),
                           ([1.0, 2], [1, 2]), ([1, 2], [1, 2, 3]), (None, 0)):
        assert not same_move(returned, move), (returned, move)
    assert move_index(6, [0, 3, 6]) == 2 and move_index(6.0, [0, 3, 6]) is None
    assert is_move_of("b", ["a", "b"]) and not is_move_of(1, ["a", "b"])


def test_a_move_of_another_type_says_which_types_differ():
    assert type_mismatch(8.0, [0, 8]) == {"observed_type": "float", "expected_type": "int"}
    assert type_mismatch(True, [0, 1]) == {"observed_type": "bool", "expected_type": "int"}
    assert type_mismatch("3", [3]) == {"observed_type": "str", "expected_type": "int"}
    assert type_mismatch(0, ["a", "b"]) == {"observed_type": "int", "expected_type": "str"}
    assert type_mismatch({"__float__": "nan"}, [1])["observed_type"] == "float"
    # a move of the right type that is just wrong, no move, or no moves: not a type problem
    assert type_mismatch(9, [0, 8]) is None and type_mismatch(None, [0]) is None
    assert type_mismatch(1.5, []) is None


def test_the_boundary_hands_the_judges_floats_as_floats_and_ints_as_ints():
    line = json.dumps({"status": "ok", "items": [{"status": "ok", "returned":
                       [3, [8.0, 1, True, "3", 6.0]]}]}).encode()
    reply = decode(line, CallReply)
    assert isinstance(reply, CallReply)
    value, moves = reply.items[0].returned
    assert type(value) is int and value == 3
    assert [type(move) for move in moves] == [float, int, bool, str, float]
    assert moves == [8.0, 1, True, "3", 6.0]


# -- graded for real --------------------------------------------------------------------------

def messages(result, course, language):
    view = student_view(result, course, Catalogue(language), html=False)
    return {check["id"]: str(check["message"]) for task in view["tasks"]
            for check in task["checks"]}


@pytest.fixture(scope="module")
def vertiefung():
    return load_course(ROOT / "courses" / "vertiefung" / "tasks")


def test_a_principal_variation_of_floats_is_refused_as_another_type(grade, vertiefung):
    result = grade(STUDENTS / "vertiefung-float", vertiefung)
    assert result.isolation != "process"
    lines = [v for v in result.verdicts if v.check.kind == "line"]
    assert lines and all(v.reason == "line.move-type" and v.score == 0 for v in lines)
    for verdict in lines:
        assert verdict.facts["observed_type"] == "float"
        assert verdict.facts["expected_type"] == "int"
        assert verdict.facts["move"] == 1
        assert all(type(move) is float for move in verdict.facts["observed_line"])
    iterations = [v for v in result.verdicts if v.check.kind == "iterations"]
    assert iterations and all(v.reason == "iterations.shape" and
                              v.facts["observed_type"] == "float" for v in iterations)
    # the visits of each iteration are right: only the moves' type costs points
    assert all(v.passed for v in result.verdicts if v.check.kind == "iteration-visits")
    first = next(v.check.id for v in lines if v.check.task_id == "ttt-z1-tiefe3")
    german = messages(result, vertiefung, "de")[first]
    assert "Zug 1 deiner Zugfolge [8.0, 1.0, 6.0], 8.0, ist an der Wurzel kein Zug: sein " \
           "Typ ist float, die Züge des Spiels sind aber vom Typ int" in german
    english = messages(result, vertiefung, "en")[first]
    assert "its type is float, but the game's moves are of type int" in english


def test_actions_returned_as_floats_earn_nothing_where_the_game_s_moves_are_ints(grade,
                                                                               course):
    result = grade(STUDENTS / "blatt3-float")
    games = {task.id: task.game for task in course.tasks}
    failed = [v for v in result.verdicts if not v.passed]
    assert failed
    for verdict in failed:
        assert games[verdict.check.task_id] in ("tictactoe", "nim"), verdict.check.id
        assert verdict.reason == "result.shape"
        assert verdict.facts["problem"] == "action"
        assert (verdict.facts["observed_type"], verdict.facts["expected_type"]) == \
            ("float", "int")
    # a tree's actions are labels (text), returned as they were: those tasks keep every point
    assert all(v.passed for v in result.verdicts if games[v.check.task_id] == "tree")
    # said once per task, above its checks (one failure of one run)
    action = next(v for v in failed if v.check.kind == "action")
    view = student_view(result, course, Catalogue("en"), html=False)
    notes = [str(note["message"]) for task in view["tasks"]
             if task["id"] == action.check.task_id for note in task["notes"]]
    said = (f"The action is not one of them. {action.facts['observed_move']} is of type "
            f"float, but the game's actions are of type int")
    assert action.facts["observed_move"].endswith(".0") and any(said in n for n in notes)


def test_an_ordering_and_a_killer_search_of_floats_are_refused_as_another_type(grade):
    course = load_course(ROOT / "courses" / "zugsortierung" / "tasks")
    result = grade(STUDENTS / "zugsortierung-float", course)
    orderings = [v for v in result.verdicts if v.check.kind == "ordering"]
    assert orderings and all(v.reason == "ordering.not-permutation" and
                             v.facts["observed_type"] == "float" for v in orderings)
    killers = [v for v in result.verdicts if v.check.function == "alphabeta_killer"]
    assert killers and all(v.reason == "result.shape" and
                           v.facts["observed_type"] == "float" for v in killers)
    text = messages(result, course, "de")[orderings[0].check.id]
    assert "ist vom Typ float, die Züge des Spiels sind aber vom Typ int" in text


def test_a_player_whose_moves_are_floats_forfeits_and_the_replay_says_why(child_script):
    with SandboxedPlayer(STUDENTS / "blatt3-float", child_script, depth=2) as player:
        game = play_game({"kind": "connect4"}, (player, baseline("random")), seed=3)
    forfeit = game.replay["forfeit"]
    assert (game.result, forfeit["reason"]) == ("loss", "illegal")
    assert type(forfeit["detail"]["action"]) is float
    assert math.isclose(forfeit["detail"]["action"], round(forfeit["detail"]["action"]))
    assert (forfeit["detail"]["observed_type"], forfeit["detail"]["expected_type"]) == \
        ("float", "int")
    text = Catalogue("en").text("tournament.reason", reason="illegal",
                                detail=forfeit["detail"])
    assert "not a legal move: its type is float, the game's moves are of type int" in text
