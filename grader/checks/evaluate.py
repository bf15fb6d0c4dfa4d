"""``evaluate``: the student's evaluation function at one position, against the reference
evaluation (``board``, ``player``; the value is from ``player``'s point of view)."""

from ..calls import Call, canonical
from ..games.tictactoe import normalise_board
from . import failed, passed
from .common import SEARCH_FUNCTIONS, describe, is_number, run_failure, same_number

KIND = "evaluate"
OPTIONS = ("board", "player", "expect")


def applies_to(reference):
    return reference not in SEARCH_FUNCTIONS


def parse_options(item, context, line):
    board = item.get("board")
    try:
        board = normalise_board(board) if isinstance(board, str) else None
    except ValueError as error:
        context.problem(item.line_of("board"), str(error))
        board = None
    if board is None and "board" not in item:
        context.problem(line, "an evaluate check needs board: \"X../.O./...\"")
    player = item.get("player", "X")
    if player not in ("X", "O"):
        context.problem(item.line_of("player"), "player must be X or O")
    options = {"board": board, "player": player}
    if "expect" in item:
        options["expect"] = item["expect"]
    return options


def calls(task, check):
    item = canonical([check.option("board"), check.option("player")])
    return [Call(module=task.module_of(check.function), function=check.function,
                 convention="plain", items=(item,), time_limit=task.limits.call_seconds,
                 reference=task.reference_of(check.function))]


def judge(check, observations, answers):
    failure = run_failure(check, observations[0])
    if failure:
        return failure
    board, player = check.option("board"), check.option("player")
    expected = answers[0][0]["value"]
    observed = observations[0].items[0].returned
    if not is_number(observed):
        return failed(check, "evaluate.shape", board=board, player=player,
                      observed=describe(observed))
    if not same_number(observed, expected):
        return failed(check, "evaluate.wrong", board=board, player=player, expected=expected,
                      observed=observed)
    return passed(check, board=board, player=player, observed=observed)
