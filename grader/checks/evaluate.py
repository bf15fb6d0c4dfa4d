"""``evaluate``: the student's evaluation function at one position, against the reference
evaluation (``board``, ``player``; the value is from ``player``'s point of view).

Evidence: a right value is credited only if the function also tells this position apart from
one where the reference's value differs (the empty board, or the same board for the other
player; the first of them that differs).  Its value there need not be right, only different:
a constant function earns nothing, whichever constant it returns.  The position is then
evaluated once more and must give the same value (a random answer earns nothing either).
"""

from ..calls import Call, canonical
from ..games.tictactoe import normalise_board
from .verdict import failed, passed
from .common import SEARCH_FUNCTIONS, describe, run_failure
from ..answers.numbers import is_number, same_number

KIND = "evaluate"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {
    "board": {"type": "string", "x-words": "a tic-tac-toe board such as \"X../.O./...\"",
              "description": "the position evaluated: tic-tac-toe rows of X, O and ., "
                             "separated by /"},
    "player": {"enum": ["X", "O"], "default": "X",
               "description": "whose point of view the evaluation takes"},
    "expect": {"type": "number",
               "description": "the value the reference must give (a pin verified by grader "
                              "validate)"},
}
# What a self-check kit keeps, sealed, of this kind's answers (grader.answers.sealed.seal_answer).
SEALED_PARTS = ()


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


def contrasts(board: str, player: str) -> list:
    """The positions a right value must be told apart from, in order of preference."""
    other = "O" if player == "X" else "X"
    return [["." * 9, player], [board, other]]


def calls(task, check):
    board, player = check.option("board"), check.option("player")
    items = tuple(canonical(item) for item in
                  [[board, player], *contrasts(board, player), [board, player]])
    return [Call(module=task.module_of(check.function), function=check.function,
                 convention="plain", items=items, time_limit=task.limits.call_seconds,
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
    again = observations[0].items[-1]
    if again.status != "ok" or not is_number(again.returned) \
            or not same_number(again.returned, observed):
        return failed(check, "evaluate.unstable", board=board, player=player, observed=observed,
                      again=describe(again.returned) if again.status == "ok" else None)
    contrast = next((index for index in range(1, len(answers[0]) - 1)
                     if not same_number(answers[0][index]["value"], expected)), None)
    if contrast is not None:
        other = observations[0].items[contrast]
        told_apart = other.status == "ok" and is_number(other.returned) \
            and not same_number(other.returned, observed)
        if not told_apart:
            position = contrasts(board, player)[contrast - 1]
            return failed(check, "evaluate.no-evidence", board=board, player=player,
                          observed=observed, other_board=position[0], other_player=position[1],
                          other=describe(other.returned) if other.status == "ok" else None)
    return passed(check, board=board, player=player, observed=observed)
