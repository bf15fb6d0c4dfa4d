"""The reference reproduces every figure of the exercise sheet (seeds/002) and the lecture."""

import pytest

from grader.games import make_game
from reference.evaluation import tictactoe_lines
from reference.minimax import action_values, alphabeta, minimax, negamax

SHEET_TREE = {"kind": "tree", "root": "A", "nodes": {
    "A": {"children": ["B", "C", "D"]},
    "B": {"children": ["B1", "B2", "B3"]}, "B1": {"value": 8}, "B2": {"value": 7}, "B3": {"value": 3},
    "C": {"children": ["E", "F", "G"]},
    "E": {"children": ["E1", "E2", "E3"]}, "E1": {"value": 9}, "E2": {"value": 1}, "E3": {"value": 6},
    "F": {"children": ["F1", "F2", "F3"]}, "F1": {"value": 2}, "F2": {"value": 1}, "F3": {"value": 1},
    "G": {"children": ["G1", "G2", "G3"]}, "G1": {"value": 6}, "G2": {"value": 5}, "G3": {"value": 2},
    "D": {"children": ["D1", "D2", "D3"]}, "D1": {"value": 2}, "D2": {"value": 1}, "D3": {"value": 3},
}}


def run(search, spec, **options):
    game, root = make_game(spec)
    value, action = search(game, root, **options)
    return value, action, game.visit_log()["visits"]


@pytest.mark.parametrize("search", [minimax, alphabeta, negamax])
def test_sheet_tree_has_value_3_and_action_b(search):
    value, action, _ = run(search, SHEET_TREE)
    assert (value, action) == (3, "B")


def test_alphabeta_on_the_sheet_tree_never_visits_g_nor_ds_last_two_leaves():
    _, _, visits = run(alphabeta, SHEET_TREE)
    _, _, everything = run(minimax, SHEET_TREE)
    assert sorted(set(everything) - set(visits)) == ["D2", "D3", "G", "G1", "G2", "G3"]


@pytest.mark.parametrize("board, value, action, minimax_nodes, alphabeta_nodes", [
    ("X.O/.X./..O", 0, 5, 186, 88),     # position A, X to move
    ("XOX/XO./...", 1, 7, 38, 28),      # position B, O to move: +1 for O, the side to move
])
def test_tictactoe_node_counts_of_the_sheet(board, value, action, minimax_nodes, alphabeta_nodes):
    spec = {"kind": "tictactoe", "board": board}
    assert run(minimax, spec)[:2] == (value, action)
    assert len(run(minimax, spec)[2]) == minimax_nodes
    assert len(run(negamax, spec)[2]) == minimax_nodes
    assert run(alphabeta, spec)[:2] == (value, action)
    assert len(run(alphabeta, spec)[2]) == alphabeta_nodes


def test_strict_pruning_visits_more_nodes_than_pruning_on_equality():
    spec = {"kind": "tictactoe", "board": "X.O/.X./..O"}
    assert len(run(alphabeta, spec, prune_on_equality=False)[2]) > 88
    assert run(alphabeta, spec, prune_on_equality=False)[:2] == (0, 5)


def test_matchsticks_first_player_wins_by_taking_one():
    spec = {"kind": "nim", "sticks": 5, "max_take": 2, "last_loses": True}
    assert run(minimax, spec)[:2] == (1, 1)
    game, root = make_game(spec)
    assert action_values(game, root) == {1: 1, 2: -1}


@pytest.mark.parametrize("board, expected", [
    ("X...O....", -1),   # Z1: X on (1,1), O on (2,2)
    ("XX..O....", 2),    # Z2: X on (1,1), (1,2), O on (2,2)
    ("X..OO..X.", -2),   # Z3: X on (1,1), (3,2), O on (2,1), (2,2)
])
def test_sheet_evaluation_of_the_three_positions(board, expected):
    assert tictactoe_lines(board, "X") == expected
    assert tictactoe_lines(board, "O") == -expected


def test_depth_limited_search_evaluates_exactly_at_the_horizon():
    spec = {"kind": "tree", "root": "A", "nodes": {
        "A": {"children": ["B", "C"]},
        "B": {"children": ["B1"], "eval": 5}, "B1": {"children": ["B1.1"], "eval": 1},
        "B1.1": {"value": 9}, "C": {"value": 2}}}
    game, root = make_game(spec)
    assert minimax(game, root, 2) == (2, "C")     # B1 is evaluated at depth 2: 1
    log = game.visit_log()
    assert log["evaluate_calls"] == ["B1"] and "B1.1" not in log["visits"]
    assert log["utility_calls"] == ["C"]


def test_catalogue_variants_without_a_mistake_are_the_reference():
    """The variants differ from the reference by their one mistake and nothing else."""
    from grader.random_tree_generator import generate
    from reference.variants import expectimax_family, minimax_family, negamax_family
    from reference.minimax import expectimax
    families = {"minimax": (minimax, lambda g, s, d: minimax_family(g, s, d, pruning=False)),
                "alphabeta": (alphabeta, lambda g, s, d: minimax_family(g, s, d)),
                "negamax": (negamax, lambda g, s, d: negamax_family(g, s, d)),
                "expectimax": (expectimax, lambda g, s, d: expectimax_family(g, s, d))}
    for spec in generate(3, 60):
        for depth in (None, 2):
            for name, (search, family) in families.items():
                g1, r1 = make_game(spec)
                g2, r2 = make_game(spec)
                assert search(g1, r1, depth) == family(g2, r2, depth), name
                assert g1.visit_log() == g2.visit_log(), name


@pytest.mark.parametrize("course", ["tasks", "courses/kalah/tasks", "courses/tictactoe-depth/tasks",
                                    "tests/data/maxn/chance.yaml"])
def test_answers_value_the_root_actions_as_the_model_solutions_action_values(course):
    """A search's answer takes the root actions' values from the walk of the tree facts
    (grader.answers.facts) instead of searching the tree again: they must be what the model
    solution's action_values says, in its order, for every input of every search call."""
    from pathlib import Path

    from grader.answers.facts import facts_and_action_values, reference_depth
    from grader.grading import Plan
    from grader.tasks import load_course
    root = Path(__file__).resolve().parent.parent
    plan = Plan.of(load_course(root / course))
    compared = 0
    for call in plan.calls:
        if call.convention in ("plain", "by-hand", "ordering") or call.reference in ("maxn",
                                                                                   "quiescence"):
            continue
        chance = call.reference == "expectimax"
        for spec in call.inputs():
            depth = reference_depth(call, spec)
            _, walked = facts_and_action_values(spec, depth, chance=chance)
            game, state = make_game(spec)
            exact = action_values(game, state, depth, chance=chance)
            if walked is None:    # a root not searched on: the answer asks the model solution
                continue
            assert list(walked.items()) == list(exact.items()), (call.function, spec.get("root"))
            compared += 1
    assert compared
