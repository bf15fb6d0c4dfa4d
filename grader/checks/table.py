"""``table``: alpha-beta with a transposition table (``alphabeta_tt``) gives plain alpha-beta's
value, visits no more nodes than plain alpha-beta on the same call, and shows that it uses
its table.

Passes only if

* the value at the root is the reference's (which is plain alpha-beta's: the task's positions
  are always reached after the same number of plies, or searched to the end);
* the search visits at most as many nodes as plain alpha-beta with the task's cut rule (and
  at most ``at_most`` nodes, where the task sets that option);
* the visited nodes prove the value (``grader/answers/proof.py``): a search that visits little and
  answers a memorised value earns nothing;
* where even the most frugal correct table saves nodes (it asks ``is_terminal`` before the
  table and keeps no leaves), the search visits fewer nodes than plain alpha-beta: that is the
  evidence that a table is used.  The verdict names both counts.

The visit *sequence* is not compared: whether a search looks a state up before or after it
asks ``is_terminal``, and whether it keeps leaves, are equally right and visit different nodes.
"""

from .verdict import failed, passed
from .common import number_of, read_answer, search_failure, single_search_call, visit_count
from ..answers.numbers import same_number
from ..answers.proof import proves

KIND = "table"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {
    "at_most": {"type": "integer", "minimum": 1,
                "description": "the most nodes the student's search may visit"},
}
# What a self-check kit keeps, sealed, of this kind's answers (grader.answers.sealed.seal_answer).
SEALED_PARTS = ("compared",)
FUNCTIONS = ("alphabeta_tt",)


def applies_to(function):
    return function in FUNCTIONS


def parse_options(item, context, line):
    return parse_at_most(item, context, line, KIND)


def parse_at_most(item, context, line, kind):
    at_most = item.get("at_most")
    if at_most is not None and (isinstance(at_most, bool) or not isinstance(at_most, int)
                                or at_most < 1):
        context.problem(item.line_of("at_most"), "at_most must be a whole number of nodes >= 1")
        at_most = None
    if context.game in ("none", "tree"):
        context.problem(line, f"a {kind} check needs a game with positions that recur "
                        "(tictactoe, connect4, kalah)")
    return {} if at_most is None else {"at_most": at_most}


calls = single_search_call


def judge(check, observations, answers):
    return judge_bounded(check, observations, answers, than="alphabeta",
                         ask_saving=True)


def judge_bounded(check, observations, answers, than: str, ask_saving: bool):
    """The verdict of a ``table`` (``than="alphabeta"``, a saving asked for) or ``window``
    (``than="minimax"``) check."""
    answer = answers[0][0]
    failure = search_failure(check, observations[0], answer)
    if failure:
        return failure
    item = observations[0].items[0]
    log = item.log or {}
    if log.get("foreign_states"):
        return failed(check, "visited.foreign", count=log["foreign_states"])
    value, _, _ = read_answer(item.returned, answer)
    observed = len(log.get("visits", ()))
    # counts of the reference's searches: sealed in a self-check kit, and not in its words
    facts = {"observed": observed, "compared": answer["compared"][than], "than": than,
             "reference": visit_count(answer), "least": answer["least_saving"]}
    compared = number_of(facts["compared"])
    if value is None or not same_number(value, answer["value"]):
        return failed(check, f"{check.kind}.value", expected=answer["value"],
                      observed_value=value, **facts)
    if observed > compared:
        return failed(check, f"{check.kind}.too-many", **facts)
    at_most = check.option("at_most")
    if at_most is not None and observed > at_most:
        return failed(check, f"{check.kind}.at-most", at_most=at_most, **facts)
    if not proves(value, log.get("visits", ()), answer):
        return failed(check, f"{check.kind}.no-proof", value=value, **facts)
    if ask_saving and answer["table_saves"] and observed >= compared:
        return failed(check, f"{check.kind}.no-saving", **facts)
    return passed(check, **facts)
