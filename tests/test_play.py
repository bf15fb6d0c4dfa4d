"""Matches between sandboxed players (issue 13, step 1): the referee, the players, replays.

Students play in the real sandbox (the strongest level this machine has), from the real
folders of the bundled course (``submissions/korrekt``) and the players under
``tests/data/play/``.  Nothing here depends on how fast the machine is: the per-move limits
are CPU seconds, and only the hanging player ever reaches one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.games import make_rules
from grader.play import (Limits, SandboxedPlayer, baseline, play_game, play_pair,
                         random_opening, replay)
from grader.play.referee import plain_state

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = Path(__file__).resolve().parent / "data" / "play"
KORREKT = ROOT / "submissions" / "korrekt"
CONNECT4 = {"kind": "connect4"}
TICTACTOE = {"kind": "tictactoe", "board": "........."}


@pytest.fixture
def student(child_script):
    """A sandboxed player from a submission folder, closed after the test."""
    opened = []

    def make(folder: Path, **options) -> SandboxedPlayer:
        player = SandboxedPlayer(folder, child_script, **options)
        opened.append(player)
        return player

    yield make
    for player in opened:
        player.close()


def test_a_correct_student_wins_a_pair_against_random_at_connect_four(student):
    pair = play_pair(CONNECT4, student(KORREKT, depth=3), baseline("random"), seed=1,
                     opening=2)
    assert pair.score == 2.0
    first, second = pair.games
    assert (first.result, first.reason) == ("win", "end")      # the student moves first
    assert (second.result, second.reason) == ("loss", "end")   # random moves first and loses
    # both games start from the same random opening, made by no player
    openings = [[m for m in game.replay["moves"] if m.get("opening")] for game in pair.games]
    assert openings[0] == openings[1] and len(openings[0]) == 2
    assert first.replay["players"]["X"]["name"] == "korrekt"
    assert second.replay["players"]["O"]["name"] == "korrekt"


def test_a_correct_student_with_full_search_never_loses_a_tictactoe_pair(student):
    pair = play_pair(TICTACTOE, student(KORREKT), baseline("random"), seed=4, opening=1)
    assert pair.score >= 1.0
    assert all(game.reason == "end" for game in pair.games)
    assert pair.games[0].result in ("win", "draw") and pair.games[1].result in ("loss", "draw")


@pytest.mark.parametrize("folder, reason, detail", [
    ("abstuerzend", "crashed", {"detail": "exit status 3"}),
    ("ausnahme", "exception", {"type": "IndexError", "file": "minimax.py", "line": 6}),
    ("regelwidrig", "illegal", {"action": 7, "legal": [0, 1, 2, 3, 4, 5, 6]}),
])
def test_a_failing_player_loses_with_its_reason(student, folder, reason, detail):
    game = play_game(CONNECT4, (student(PLAYERS / folder, depth=2), baseline("random")),
                     seed=3)
    assert (game.result, game.reason, game.score) == ("loss", reason, None)
    forfeit = game.replay["forfeit"]
    assert forfeit["player"] == "X" and forfeit["reason"] == reason
    assert detail.items() <= forfeit["detail"].items()
    json.dumps(game.replay)  # the replay, reason included, is plain JSON


def test_a_hanging_player_loses_on_its_move_limit_and_the_game_ends(student):
    hanging = student(PLAYERS / "endlos", depth=2)
    game = play_game(CONNECT4, (baseline("random"), hanging), seed=3,
                     limits=Limits(move_seconds=1.0, game_seconds=10.0))
    assert (game.result, game.reason) == ("win", "timeout")
    assert game.replay["forfeit"]["player"] == "O"
    assert game.replay["forfeit"]["seconds"] >= 1.0
    assert game.replay["forfeit"]["detail"]["seconds"] == 1.0
    # the same player, its child restarted, plays (and hangs) again in the next game
    again = play_game(CONNECT4, (hanging, baseline("random")), seed=4,
                      limits=Limits(move_seconds=1.0, game_seconds=10.0))
    assert (again.result, again.reason) == ("loss", "timeout")


def test_a_player_whose_game_budget_runs_out_loses_on_the_budget(student):
    # 0.4 s per move: the first two moves fit the game's 1 s, the third has 0.2 s left
    game = play_game(CONNECT4, (student(PLAYERS / "langsam"), baseline("random")), seed=3,
                     limits=Limits(move_seconds=1.0, game_seconds=1.0))
    assert (game.result, game.reason) == ("loss", "game-budget")
    own = [m for m in game.replay["moves"] if m["player"] == "X"]
    assert len(own) in (1, 2) and all(m["seconds"] >= 0.4 for m in own)
    # with a larger budget the same player finishes its game
    game = play_game(CONNECT4, (student(PLAYERS / "langsam"), baseline("random")), seed=3,
                     limits=Limits(move_seconds=1.0, game_seconds=30.0))
    assert game.reason == "end"


def test_a_replay_replays_to_the_same_final_position(student, tmp_path):
    game = play_game(CONNECT4, (student(KORREKT, depth=2), baseline("greedy")), seed=5,
                     opening=3)
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(game.replay))
    loaded = json.loads(saved.read_text())
    assert plain_state(replay(loaded)) == loaded["final"] == game.replay["final"]
    assert make_rules(CONNECT4).is_terminal(replay(loaded))
    # a replay whose moves were tampered with is refused
    loaded["moves"][4]["player"] = loaded["moves"][3]["player"]
    with pytest.raises(ValueError, match="move 5 was made by"):
        replay(loaded)


def test_the_same_seed_gives_the_same_game(student):
    korrekt = student(KORREKT, depth=2)
    games = [play_game(CONNECT4, (baseline("random"), korrekt), seed=11, opening=2)
             for _ in range(2)]
    strip = [[(m["player"], m["action"]) for m in g.replay["moves"]] for g in games]
    assert strip[0] == strip[1]
    assert games[0].replay["final"] == games[1].replay["final"]
    other = play_game(CONNECT4, (baseline("random"), korrekt), seed=12, opening=2)
    assert [(m["player"], m["action"]) for m in other.replay["moves"]] != strip[0]
    assert random_opening(CONNECT4, 11, 2) == [m["action"] for m in
                                               games[0].replay["moves"][:2]]


class Counting:
    """A player that passes every question on to another and remembers who was asked."""

    def __init__(self, player, asked):
        self.player, self.asked = player, asked

    def describe(self):
        return self.player.describe()

    def start_game(self, seed, seat):
        self.seat = seat
        self.player.start_game(seed, seat)

    def choose(self, spec, moves, state, limit):
        self.asked.append((self.seat, len(moves)))
        return self.player.choose(spec, moves, state, limit)


def test_kalah_extra_turns_ask_the_same_player_again(student):
    # 3 pits of 3 stones: sowing MAX's pit 0 ends in MAX's store (pit 3), an extra turn; a
    # depth-1 search takes it (pits 0, 1 and 2 all gain one stone; ties keep the first).
    spec = {"kind": "kalah", "pits": 3, "stones": 3}
    asked = []
    game = play_game(spec, (Counting(student(KORREKT, depth=1), asked),
                            Counting(baseline("random"), asked)), seed=2)
    moves = game.replay["moves"]
    assert moves[0] == {"player": "MAX", "action": 0, "seconds": moves[0]["seconds"]}
    assert moves[1]["player"] == "MAX"
    assert asked[:2] == [("MAX", 0), ("MAX", 1)]
    # every move was asked of the player the game said was to move, and only of it
    assert [seat for seat, _ in asked] == [m["player"] for m in moves]
    assert plain_state(replay(game.replay)) == game.replay["final"]
    rules = make_rules(spec)
    final = replay(game.replay)
    assert game.score == rules.utility(final, "MAX") and game.reason == "end"


def test_the_students_own_evaluation_function_is_the_games_heuristic(student):
    # At depth 1 the search plays the move its heuristic likes best: Connect Four's window
    # count likes the centre column, this student's evaluation the left-most columns.
    spec = CONNECT4
    own = play_game(spec, (student(PLAYERS / "eigene-bewertung", depth=1,
                                    evaluation="evaluation.evaluate"),
                           baseline("random")), seed=1)
    builtin = play_game(spec, (student(PLAYERS / "eigene-bewertung", depth=1),
                               baseline("random")), seed=1)
    assert own.replay["moves"][0]["action"] == 0
    assert builtin.replay["moves"][0]["action"] == 3
    assert own.replay["players"]["X"]["evaluation"] == "evaluation.evaluate"


def test_a_missing_evaluation_module_loses_with_an_exception_that_says_so(student):
    game = play_game(CONNECT4, (student(PLAYERS / "regelwidrig", depth=1,
                                        evaluation="evaluation.evaluate"),
                                baseline("random")), seed=1)
    assert game.reason == "exception"
    assert "no evaluation.py" in game.replay["forfeit"]["detail"]["message"]


def test_baselines_are_ordered_by_strength_on_connect_four():
    pair = play_pair(CONNECT4, baseline("alphabeta:3"), baseline("random"), seed=2, opening=2)
    assert pair.score == 2.0
    pair = play_pair(CONNECT4, baseline("greedy"), baseline("random"), seed=2, opening=2)
    assert pair.score == 2.0
    pair = play_pair(CONNECT4, baseline("alphabeta:3"), baseline("greedy"), seed=2, opening=2)
    assert pair.score >= 1.5
    with pytest.raises(ValueError, match="unknown baseline"):
        baseline("minimax:3")


def test_the_referee_refuses_a_game_of_three_players():
    tree = {"kind": "tree", "root": "A", "players": ["A", "B", "C"],
            "nodes": {"A": {"children": ["L", "R"]}, "L": {"value": [1, 2, 3]},
                      "R": {"value": [3, 2, 1]}}}
    with pytest.raises(ValueError, match="games of two players"):
        play_game(tree, (baseline("random"), baseline("random")), seed=1)


def test_the_child_refuses_a_position_the_moves_do_not_reach():
    from grader.conventions.play import chosen_action, position
    rules = make_rules(CONNECT4)
    assert position(rules, [3, 3]) == "......./......./......./......./...O.../...X..."
    with pytest.raises(ValueError, match="not legal"):
        position(rules, [0] * 7)   # the seventh disc into a full column
    assert chosen_action((0.25, 3)) == 3 and chosen_action(3) == 3


def test_a_move_is_legal_only_as_a_value_of_the_actions_type():
    from grader.play.referee import legal
    assert legal(1, [0, 1, 2])
    assert not legal(True, [0, 1, 2]) and not legal(1.0, [0, 1, 2]) and not legal("1", [0, 1])


def test_tictactoes_baselines_use_the_sheets_evaluation_not_the_neutral_one():
    # The sheet's evaluation likes the centre (four lines) best after one ply; the game's
    # built-in heuristic is 0 everywhere, with which greedy would take cell 0.
    game = play_game(TICTACTOE, (baseline("greedy"), baseline("random")), seed=1)
    assert game.replay["moves"][0]["action"] == 4
    assert game.replay["players"]["X"] == {"kind": "baseline", "name": "greedy"}


def test_a_courses_own_game_is_played_like_the_bundled_ones(student):
    source = (ROOT / "tests" / "data" / "plugin-game" / "games" / "race.py").read_text()
    spec = {"kind": "plugin", "name": "race", "source": source, "path": "./games/race.py",
            "options": {"target": 10, "step": 2}}
    pair = play_pair(spec, student(KORREKT), baseline("random"), seed=1, opening=1)
    assert all(game.reason == "end" for game in pair.games)
    assert pair.score == 2.0      # the full search wins both seats from this opening
    for game in pair.games:
        assert plain_state(replay(game.replay)) == game.replay["final"]
