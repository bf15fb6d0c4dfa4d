"""``window``: a zero-window search (``negascout``, ``mtdf``) gives alpha-beta's value, visits
no more nodes than minimax on the same call (and at most ``at_most``, where the task sets
it), and its visited nodes prove the value (``grader/answers/proof.py``).

The count is a bound, not the reference's exact count: the textbook variants re-search with
the window (v, beta) or (alpha, beta), fail hard or soft, and MTD(f)'s passes meet the table
in different states, and each visits other nodes, all of them right.  A task that wants a
tighter bound sets ``at_most``.  What visits cannot show is a null window: plain alpha-beta
handed in as ``negascout`` passes this check.
"""

from .common import single_search_call
from .table import judge_bounded, parse_at_most

KIND = "window"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {
    "at_most": {"type": "integer", "minimum": 1,
                "description": "the most nodes the student's search may visit"},
}
# What a self-check kit keeps, sealed, of this kind's answers (grader.answers.sealed.seal_answer).
SEALED_PARTS = ("compared",)
FUNCTIONS = ("negascout", "mtdf")


def applies_to(function):
    return function in FUNCTIONS


def parse_options(item, context, line):
    return parse_at_most(item, context, line, KIND)


calls = single_search_call


def judge(check, observations, answers):
    return judge_bounded(check, observations, answers, than="minimax", ask_saving=False)
