"""``action``: the action returned at the root is optimal (``accept: any``, the default) or
the first optimal one in action order (``accept: first``).

An action is optimal when its exact minimax value (depth-limited when the task is) equals the
root value, so an alpha-beta that picks a later action on a tie with a *bound* is caught.
"""

from . import failed, passed
from .common import (SEARCH_FUNCTIONS, describe, read_search_result, run_failure,
                     single_search_call)

KIND = "action"
OPTIONS = ("accept",)


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
    failure = run_failure(check, observations[0])
    if failure:
        return failure
    answer = answers[0][0]
    returned = observations[0].items[0].returned
    _, action, shape_ok = read_search_result(returned)
    if not shape_ok:
        return failed(check, "result.shape", observed=describe(returned))
    values = dict((a, v) for a, v in answer["action_values"])
    legal = [a for a, _ in answer["action_values"]]
    if action not in legal:
        return failed(check, "action.illegal", observed=describe(action), legal=legal)
    if check.option("accept") == "first":
        if action != answer["action"]:
            return failed(check, "action.not-first", observed=action,
                          expected=answer["action"], optimal=answer["optimal_actions"])
        return passed(check, observed=action)
    if action not in answer["optimal_actions"]:
        return failed(check, "action.suboptimal", observed=action, observed_value=values[action],
                      value=answer["value"], optimal=answer["optimal_actions"])
    return passed(check, observed=action)
