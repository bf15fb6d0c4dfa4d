"""``value``: the value the search returns at the root equals the reference's, and the search
earned it: up to sign it is the value of a terminal or horizon node the search visited (with
chance nodes: within the range of those values).  A reply of the wrong shape earns nothing.

For max^n the value is a utility vector, compared element by element; it is earned when it is
the vector of a leaf the search visited (under chance nodes: each component within the range
of the visited leaves' components)."""

from .verdict import failed, passed
from .common import (SEARCH_FUNCTIONS, read_answer, search_failure, single_search_call,
                     value_justified)
from ..answers.numbers import same_number

KIND = "value"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {}
# What a self-check kit keeps, sealed, of this kind's answers (grader.answers.sealed.seal_answer).
SEALED_PARTS = ()


def applies_to(function):
    return function in SEARCH_FUNCTIONS


def parse_options(item, context, line):
    if context.game == "none":
        context.problem(line, "a value check needs the task's game (tree, tictactoe or nim)")
    return {}


calls = single_search_call


def judge(check, observations, answers):
    answer = answers[0][0]
    failure = search_failure(check, observations[0], answer, need_search=False)
    if failure:
        return failure
    expected = answer["value"]
    item = observations[0].items[0]
    value, _, _ = read_answer(item.returned, answer)
    if value is None:     # a convention whose functions return no value: nothing to judge
        return failed(check, "result.shape", observed="None", shape="action", legal=[],
                      problem="value")
    if not same_number(value, expected):
        return failed(check, "value.wrong", expected=expected, observed=value)
    if not value_justified(value, item.log or {}, answer,
                           chance=check.function == "expectimax" or answer.get("chance", False)):
        return failed(check, "value.no-evidence", observed=value,
                      visited=len((item.log or {}).get("visits", ())))
    return passed(check, expected=expected, observed=value)
