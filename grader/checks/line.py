"""``line``: the principal variation, ``(value, [a1, a2, ...])``.

The value must be the root's (depth-limited) minimax value, earned as ``value`` checks do (up
to sign the value of a terminal or horizon node the search visited).  The line must be a line
of optimal play from the root: every move legal where it is played, every node it reaches has
the root's value (so each move is optimal for the player who makes it), and it is as long as
the depth limit, shorter only where the game ends.  Any optimal line is accepted.  The line
must be earned: the search visited every node on it and scored its last one (``evaluate`` at
the horizon, ``utility`` at a terminal node).  Its moves are the game's own values
(``grader.games.moves``): ``[8.0, 1.0, 6.0]`` is not the line ``[8, 1, 6]``, and the message
says that the move's type differs (``line.move-type``).
"""

from ..games.moves import same_move, type_mismatch
from .verdict import failed, passed
from .common import describe, run_failure, value_justified
from ..answers.numbers import is_number, same_number
from .common import single_search_call

KIND = "line"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {}
# What a self-check kit keeps, sealed, of this kind's answers (grader.answers.sealed.seal_answer).
SEALED_PARTS = ("values",)
REFERENCES = ("principal_variation",)


def applies_to(function):
    return function in REFERENCES


def parse_options(item, context, line):
    if not context.depth:
        context.problem(line, "a line check needs a depth-limited task (depth: d): the "
                        "principal variation is d moves long")
    if context.game == "none":
        context.problem(line, "a line check needs the task's game")
    return {}


calls = single_search_call


def read_line(returned):
    """``(value, line)`` or None when the reply is not a number and a list of moves."""
    if isinstance(returned, list) and len(returned) == 2 and is_number(returned[0]) \
            and isinstance(returned[1], list):
        return returned[0], returned[1]
    return None


def follow(line: list, answer: dict, value=None):
    """The nodes the line reaches, or the facts of the first problem on it; ``value``: the
    root's, which every node on the line must have (the judge passes the student's, found
    right: a self-check kit holds the reference's values sealed, and compares them with plain
    ones only)."""
    values, root = answer["values"], answer["root"]
    value = values[root] if value is None else value
    node, nodes = root, []
    for move, action in enumerate(line, start=1):
        pairs = answer["children"].get(node)
        if pairs is None:
            return nodes, {"reason": "line.too-long", "move": move, "node": node,
                           "terminal": node in set(answer["terminals"])}
        child = next((c for a, c in pairs if same_move(action, a)), None)
        if child is None:
            legal = [a for a, _ in pairs]
            mismatch = type_mismatch(action, legal)
            return nodes, {"reason": "line.move-type" if mismatch else "line.illegal",
                           "move": move, "node": node, "observed": describe(action),
                           "legal": legal, **(mismatch or {})}
        if not same_number(values[child], value):
            return nodes, {"reason": "line.not-optimal", "move": move, "node": node,
                           "observed": action, "observed_value": values[child],
                           "optimal": [a for a, c in pairs if same_number(values[c], value)]}
        nodes.append(child)
        node = child
    if node in answer["children"]:
        return nodes, {"reason": "line.too-short", "length": len(line), "node": node}
    return nodes, None


def judge(check, observations, answers):
    answer = answers[0][0]
    failure = run_failure(check, observations[0])
    if failure:
        return failure
    item = observations[0].items[0]
    reply = read_line(item.returned)
    if reply is None:
        return failed(check, "line.shape", observed=describe(item.returned))
    value, line = reply
    expected, log = answer["value"], item.log or {}
    facts = {"observed_line": line, "depth": answer["depth"]}
    if not same_number(value, expected):
        return failed(check, "line.value", observed=value, expected=expected, **facts)
    if not value_justified(value, log, answer):
        return failed(check, "value.no-evidence", observed=value,
                      visited=len(log.get("visits", ())))
    nodes, problem = follow(line, answer, value)
    if problem:
        return failed(check, problem.pop("reason"), **problem, **facts)
    visited = set(log.get("visits", ()))
    unvisited = [n for n in nodes if n not in visited]
    scored = set(log.get("evaluate_calls") or ()) | set(log.get("utility_calls") or ())
    if unvisited or (nodes and nodes[-1] not in scored):
        return failed(check, "line.no-evidence", nodes=unvisited or nodes[-1:], **facts)
    return passed(check, value=value, **facts)
