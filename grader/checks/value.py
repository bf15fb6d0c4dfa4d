"""``value``: the value the search returns at the root equals the reference's."""

from . import failed, passed
from .common import (SEARCH_FUNCTIONS, describe, read_search_result, run_failure,
                     same_number, single_search_call)

KIND = "value"
OPTIONS = ()


def applies_to(function):
    return function in SEARCH_FUNCTIONS


def parse_options(item, context, line):
    if context.game == "none":
        context.problem(line, "a value check needs the task's game (tree, tictactoe or nim)")
    return {}


calls = single_search_call


def judge(check, observations, answers):
    failure = run_failure(check, observations[0])
    if failure:
        return failure
    expected = answers[0][0]["value"]
    returned = observations[0].items[0].returned
    value, _, _ = read_search_result(returned)
    if value is None:
        return failed(check, "result.shape", observed=describe(returned))
    if not same_number(value, expected):
        return failed(check, "value.wrong", expected=expected, observed=value)
    return passed(check, expected=expected, observed=value)
