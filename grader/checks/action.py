"""``action``: the action returned at the root is optimal (``accept: any``, the default) or
the first optimal one in action order (``accept: first``), and the search earned it: the
action's child was searched down to a node whose value the game gives.  A reply of the wrong
shape (an action that is not one of the root's among them) earns nothing.

An action is optimal when its exact minimax value (depth-limited when the task is) equals the
root value, so an alpha-beta that picks a later action on a tie with a *bound* is caught.
Actions are compared as moves (``grader.games.moves``): ``8.0`` or ``True`` is not the game's
action 8 or 1, and earns nothing (``result.shape``, saying that its type differs).
"""

from ..games.moves import is_move_of, same_move
from .verdict import failed, passed
from .common import (SEARCH_FUNCTIONS, action_justified, read_answer, search_failure,
                     single_search_call, value_of_move)

KIND = "action"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {
    "accept": {"enum": ["any", "first"], "default": "any",
               "description": "any: any optimal action passes; first: only the first optimal "
                              "action in action order"},
}
# What a self-check kit keeps, sealed, of this kind's answers (grader.answers.sealed.seal_answer).
SEALED_PARTS = ("optimal_actions",)


def applies_to(function):
    return function in SEARCH_FUNCTIONS


def parse_options(item, context, line):
    accept = item.get("accept", "any")
    if accept not in ("any", "first"):
        context.problem(item.line_of("accept"), "accept must be 'any' (any optimal action) "
                        "or 'first' (the first optimal action in action order)")
    if context.game == "none":
        context.problem(line, "an action check needs the task's game")
    return {"accept": accept}


calls = single_search_call


def judge(check, observations, answers):
    answer = answers[0][0]
    failure = search_failure(check, observations[0], answer, need_search=False)
    if failure:
        return failure
    item = observations[0].items[0]
    _, action, _ = read_answer(item.returned, answer)
    verdict = _judge_action(check, action, answer)
    if verdict.passed and not action_justified(action, item.log or {}, answer):
        return failed(check, "action.no-evidence", observed=action)
    return verdict


def _judge_action(check, action, answer):
    if check.option("accept") == "first":
        if not same_move(action, answer["action"]):
            return failed(check, "action.not-first", observed=action,
                          expected=answer["action"], optimal=answer["optimal_actions"])
        return passed(check, observed=action)
    if not is_move_of(action, answer["optimal_actions"]):
        return failed(check, "action.suboptimal", observed=action,
                      observed_value=value_of_move(action, answer["action_values"]),
                      value=answer["value"], optimal=answer["optimal_actions"])
    return passed(check, observed=action)
