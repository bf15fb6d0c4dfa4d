"""The games students search, and what counts as a visit."""

import pytest

from grader.games import make_game, make_rules
from grader.games.tictactoe import normalise_board


def test_tree_actions_are_children_in_file_order_and_players_alternate():
    spec = {"kind": "tree", "root": "A",
            "nodes": {"A": {"children": ["B", "C"]}, "B": {"children": ["B1"]},
                      "C": {"value": 4}, "B1": {"value": -2}}}
    rules = make_rules(spec)
    assert rules.actions("A") == ["B", "C"]
    assert [rules.to_move(n) for n in ("A", "B", "B1")] == ["MAX", "MIN", "MAX"]
    assert rules.utility("B1", "MAX") == -2 and rules.utility("B1", "MIN") == 2
    with pytest.raises(ValueError, match="not an action"):
        rules.result("A", "B1")


def test_tictactoe_moves_are_empty_cells_in_increasing_order():
    rules = make_rules({"kind": "tictactoe", "board": "X.O/.X./..O"})
    state = rules.initial_state()
    assert state == "X.O.X...O"
    assert rules.to_move(state) == "X"
    assert rules.actions(state) == [1, 3, 5, 6, 7]
    assert rules.result(state, 5) == "X.O.XX..O"
    assert rules.utility("XXXOO....", "X") == 1 and rules.utility("XXXOO....", "O") == -1


def test_tictactoe_rejects_impossible_boards():
    with pytest.raises(ValueError, match="9 cells"):
        normalise_board("XO")
    with pytest.raises(ValueError, match="X moves first"):
        normalise_board("OO.......")


def test_nim_last_stick_loses_by_default_and_wins_as_an_option():
    losing = make_rules({"kind": "nim", "sticks": 1, "max_take": 2})
    after = losing.result(losing.initial_state(), 1)
    assert after == (0, "MIN")
    assert losing.utility(after, "MAX") == -1      # MAX took the last stick and loses
    winning = make_rules({"kind": "nim", "sticks": 1, "max_take": 2, "last_loses": False})
    assert winning.utility(winning.result(winning.initial_state(), 1), "MAX") == 1


def test_result_alone_visits_nothing_and_successors_visit_only_the_parent():
    game, root = make_game({"kind": "tictactoe", "board": "XOXXO...."})
    children = game.successors(root)
    game.result(children[0][1], 6)
    assert game.visit_log()["visits"] == ["root"]


def test_a_board_reached_by_two_move_orders_is_two_nodes():
    game, root = make_game({"kind": "tictactoe", "board": "........."})
    one = game.result(game.result(game.result(root, 0), 1), 2)     # X0, O1, X2
    other = game.result(game.result(game.result(root, 2), 1), 0)   # X2, O1, X0
    assert one == other == "XOX......"
    game.is_terminal(one)
    game.is_terminal(other)
    assert game.visit_log()["visits"] == ["0-1-2", "2-1-0"]


def test_states_behave_like_plain_values():
    game, root = make_game({"kind": "tictactoe", "board": "X.O/.X./..O"})
    assert isinstance(root, str) and root == "X.O.X...O" and hash(root) == hash("X.O.X...O")
    assert repr(root) == repr("X.O.X...O")
    nim, start = make_game({"kind": "nim", "sticks": 5})
    assert start == (5, "MAX") and isinstance(start, tuple)


def test_states_made_by_the_student_are_counted_as_foreign():
    game, root = make_game({"kind": "tictactoe", "board": "X.O/.X./..O"})
    game.is_terminal("X.O.X...O")  # a plain copy the student built himself
    assert game.visit_log()["foreign_states"] == 1
