"""Judging the questions of a hand exercise: pure functions of (what the answer file says,
the reference answer), as every verdict is.

A question is a list of *fields* (a node's value, a node's interval, a cut edge, ...), each
worth an equal share of the check's points.  A field is

* ``right``: what the reference says;
* ``follow-on``: wrong, but right given the student's own answers elsewhere (a node's value
  from the values the student wrote for its children; an interval from the student's interval
  of the parent and the values the student says its earlier siblings returned; a returned
  value from the student's interval of the node and its children's returns; a cut edge, or
  a missing one, from the student's own run; a count from the student's own cut edges; a
  move from the student's values at the root's children).  It earns its share: the mistake
  was charged where it was made;
* ``wrong`` (charged), or ``missing`` (not answered, or not readable: the problem is said at
  its line).

The student's own run (``OwnRun``) is the lecture's alpha-beta where every node is entered
with the interval the student wrote for it (else the one its parent passes in this run) and
every child returns what the student wrote for it (else what this run computes): what the
student's answers imply, node by node.

Where a wrong field fits a misconception, it is named (``MISTAKES``; the words are the
catalogue's ``hand.mistake.*``): a MIN node maximising, α and β swapped, the window not
passed on, a pruned node counted as visited, the returned value taken for the minimax
value or clamped to the window (fail-hard), pruning the first child, the cut tested on the
wrong side, the other cut rule.

Never imports ``reference``: the reference's answers come in as data.
"""

from __future__ import annotations

from math import inf

from ..checks.verdict import Verdict
from . import notation

QUESTIONS = ("values", "intervals", "returns", "cuts", "visited", "orders", "move")
MISTAKES = ("min-maximising", "max-minimising", "swapped", "window-not-passed",
            "pruned-visited", "minimax-return", "fail-hard", "first-child", "wrong-side",
            "strict-rule", "equality-rule", "pruned-counted", "no-pruning")
MAX_DRAWN = 60          # nodes of a tree the feedback draws


# -- the student's own run -------------------------------------------------------------

class OwnRun:
    """The lecture's alpha-beta on the student's own answers (see the module docstring):
    ``window`` (node -> the interval its parent passes), ``returns`` (node -> what its own
    loop returns), ``entered`` and ``cut`` (parent -> children it never enters)."""

    def __init__(self, answer: dict, reading: dict):
        self.answer, self.reading = answer, reading
        self.window, self.returns, self.entered, self.cut = {}, {}, set(), {}
        self.run(answer["root"], -inf, inf)

    def given_interval(self, node):
        entry = self.reading["intervals"].get(node)
        return entry[0] if entry and entry[0] != "pruned" else None

    def given_return(self, node):
        entry = self.reading["returns"].get(node)
        return entry[0] if entry and entry[0] != "pruned" else None

    def run(self, node, alpha, beta):
        self.window[node] = [alpha, beta]
        self.entered.add(node)
        answer = self.answer
        if node in answer["leaves"]:
            value = _scalar(answer, answer["leaves"][node])
            self.returns[node] = value
            return value
        own = self.given_interval(node)
        if own is not None:
            alpha, beta = own
        maximising = answer["player"][node] == answer["root_player"]
        best = -inf if maximising else inf
        children = answer["children"][node]
        for index, child in enumerate(children):
            value = self.run(child, alpha, beta)
            given = self.given_return(child)
            value = given if given is not None else value
            if maximising:
                best = max(best, value)
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                beta = min(beta, best)
            if _cuts(alpha, beta, answer["prune_on_equality"]) and index < len(children) - 1:
                self.cut[node] = children[index + 1:]
                break
        self.returns[node] = best
        return best

    def cut_children(self) -> set:
        return {child for children in self.cut.values() for child in children}


def _cuts(alpha, beta, on_equality) -> bool:
    return beta <= alpha if on_equality else beta < alpha


def _scalar(answer, value):
    if isinstance(value, list) and answer.get("players"):
        return value[answer["players"].index(answer["root_player"])]
    return value


# -- fields ------------------------------------------------------------------------------

def _field(node, given, expected, mark, line=None, mistake=None, own=None, show=None,
           problem=None) -> dict:
    show = show or notation.show
    field = {"node": node, "given": show(given) if given is not None else None,
             "expected": show(expected), "mark": mark, "line": line}
    if mistake:
        field["mistake"] = mistake
    if own is not None:
        field["own"] = show(own)
    if problem:
        field["problem"] = problem
    return field


def _asked(check, answer, default: str) -> list:
    """The nodes a check asks about: ``inner`` (every inner node), ``all`` or a list."""
    nodes = check.option("nodes", default)
    order = answer["order"]
    if nodes == "inner":
        return [n for n in order if n in answer["children"]]
    if nodes == "all":
        return list(order)
    if nodes == "visited":
        visited = set(answer["alphabeta"]["visits"])
        return [n for n in order if n in visited and n in answer["children"]]
    return [n for n in order if n in set(nodes)]


def questions_of(task, answer: dict) -> list[dict]:
    """The task's questions as the sheet, the form and the Moodle export ask them: kind,
    points, and the nodes they are about."""
    result = []
    for check in task.checks:
        if not check.kind.startswith("hand-"):
            continue
        entry = {"kind": check.kind, "points": check.points, "hidden": check.visibility
                 != "visible", "function": check.function}
        if check.kind in ("hand-values", "hand-intervals", "hand-returns"):
            entry["nodes"] = _asked(check, answer, "inner")
        elif check.kind == "hand-order":
            entry["nodes"] = list(check.option("nodes") or ())
        result.append(entry)
    return result


def _problems_of(reading, question) -> dict:
    """The unreadable entries of a question, by line (a field without an answer but with a
    problem says what was wrong where)."""
    return {p["line"]: p for p in reading.get("problems", ()) if p.get("question") == question}


def values_fields(check, reading, answer) -> list:
    values = answer["values"]
    given = reading["values"]
    fields = []
    for node in _asked(check, answer, "inner"):
        expected = values[node]
        entry = given.get(node)
        if entry is None:
            fields.append(_field(node, None, expected, "missing"))
            continue
        value, line = entry
        if notation.same(value, expected):
            fields.append(_field(node, value, expected, "right", line))
            continue
        own, children = _own_value(answer, reading, node)
        changed = any(child in given and not notation.same(given[child][0], values[child])
                      for child in answer["children"].get(node, ()))
        if own is not None and changed and notation.same(value, own):
            fields.append(_field(node, value, expected, "follow-on", line, own=own))
            continue
        fields.append(_field(node, value, expected, "wrong", line,
                             mistake=_value_mistake(answer, node, value, children)))
    return fields


def _own_value(answer, reading, node):
    """The node's value from the student's values of its children (the reference's where
    the student gave none), by the rule of the player who moves there."""
    children = answer["children"].get(node)
    if not children:
        return None, []
    given = reading["values"]
    values = [given[c][0] if c in given else answer["values"][c] for c in children]
    mover = answer["player"][node]
    if answer["kind"] == "maxn" and mover != "CHANCE":
        players = answer["players"]
        if not all(isinstance(v, list) and len(v) == len(players) for v in values):
            return None, values
        index = players.index(mover)
        best = values[0]
        for vector in values[1:]:
            if vector[index] > best[index]:
                best = vector
        return best, values
    if any(isinstance(v, list) for v in values):
        return None, values
    if mover == "CHANCE":
        weights = answer["probabilities"][node]
        if answer["kind"] == "maxn":
            return None, values
        if len(set(weights)) <= 1:
            return sum(values) / len(values), values
        return sum(w * v for w, v in zip(weights, values)), values
    if mover == answer["root_player"]:
        return max(values), values
    return min(values), values


def _value_mistake(answer, node, value, children):
    if not children or any(isinstance(v, list) for v in children) or isinstance(value, list):
        return None
    mover = answer["player"][node]
    if mover == "CHANCE":
        return None
    maximising = mover == answer["root_player"]
    if not maximising and notation.same(value, max(children)):
        return "min-maximising"
    if maximising and notation.same(value, min(children)):
        return "max-minimising"
    return None


def intervals_fields(check, reading, answer) -> list:
    return _run_fields(check, reading, answer, "intervals", "window",
                       lambda node, value, expected: _interval_mistake(value, expected),
                       notation.show_interval)


def _interval_mistake(value, expected):
    if expected == "pruned" and value != "pruned":
        return "pruned-visited"
    if value == "pruned" or expected == "pruned":
        return None
    if notation.same(value, [expected[1], expected[0]]):
        return "swapped"
    if notation.same(value, [-inf, inf]):
        return "window-not-passed"
    return None


def returns_fields(check, reading, answer) -> list:
    return _run_fields(check, reading, answer, "returns", "returns",
                       lambda node, value, expected: _return_mistake(answer, node, value,
                                                                     expected))


def _run_fields(check, reading, answer, question: str, own_run: str, mistake,
                show=None) -> list:
    """The fields of a question about alpha-beta's run at every asked inner node (its
    ``intervals`` or its ``returns``): right, missing, a follow-on error (what ``OwnRun``'s
    attribute ``own_run`` holds for a node the student's own run entered) or wrong, with
    ``mistake(node, value, expected)`` naming a known one."""
    run = answer["alphabeta"][question]
    own = OwnRun(answer, reading)
    own_values = getattr(own, own_run)
    given = reading[question]
    fields = []
    for node in _asked(check, answer, "inner"):
        expected = run.get(node, "pruned")
        entry = given.get(node)
        if entry is None:
            fields.append(_field(node, None, expected, "missing", show=show))
            continue
        value, line = entry
        if notation.same(value, expected):
            fields.append(_field(node, value, expected, "right", line, show=show))
            continue
        mine = own_values.get(node) if node in own.entered else "pruned"
        if notation.same(value, mine):
            fields.append(_field(node, value, expected, "follow-on", line, own=mine, show=show))
            continue
        fields.append(_field(node, value, expected, "wrong", line, show=show,
                             mistake=mistake(node, value, expected)))
    return fields


def _return_mistake(answer, node, value, expected):
    if expected == "pruned":
        return "pruned-visited" if value != "pruned" else None
    if value == "pruned":
        return None
    if notation.same(value, _scalar(answer, answer["values"][node])):
        return "minimax-return"
    alpha, beta = answer["alphabeta"]["intervals"][node]
    if notation.same(value, min(max(expected, alpha), beta)):
        return "fail-hard"
    return None


def cuts_fields(check, reading, answer) -> tuple[list, list]:
    """The reference's cut edges as fields, and the student's other edges: ``extra`` (charged
    unless the student's own run cuts there too) or ``below`` (inside a subtree already cut
    off: neither credited nor charged)."""
    run = answer["alphabeta"]
    parent_of = {c: p for p, children in answer["children"].items() for c in children}
    expected = {child for _, child in run["cut_edges"]}
    named = {child: line for child, line in (reading["cuts"] or [])}
    own = OwnRun(answer, reading)
    own_cut = own.cut_children()
    pruned = set(run["pruned"])
    fields = []
    for parent, child in run["cut_edges"]:
        edge = f"{parent}→{child}"
        if child in named:
            fields.append(_field(edge, edge, edge, "right", named[child], show=str))
        elif reading["cuts"] is None:
            fields.append(_field(edge, None, edge, "missing", show=str))
        elif child not in own_cut:
            fields.append(_field(edge, None, edge, "follow-on", show=str))
        else:
            fields.append(_field(edge, None, edge, "wrong", show=str))
    if not run["cut_edges"]:
        mark = "missing" if reading["cuts"] is None else ("right" if not named else "wrong")
        fields.append(_field("—", None if reading["cuts"] is None else "—", "—", mark,
                             show=str))
    extras = []
    first_children = {children[0] for children in answer["children"].values()}
    for child, line in named.items():
        if child in expected:
            continue
        edge = f"{parent_of[child]}→{child}"
        if child in pruned:
            extras.append({"edge": edge, "mark": "below", "line": line})
        elif child in own_cut:
            extras.append({"edge": edge, "mark": "follow-on", "line": line})
        else:
            extras.append({"edge": edge, "mark": "wrong", "line": line,
                           "mistake": "first-child" if child in first_children else None})
    return fields, extras


def _cuts_mistake(answer, reading) -> str | None:
    """A misconception that explains the student's whole set of cut edges."""
    if reading["cuts"] is None:
        return None
    named = sorted(child for child, _ in reading["cuts"])
    correct = sorted(child for _, child in answer["alphabeta"]["cut_edges"])
    if named == correct:
        return None
    for rule, edges in answer.get("variants", {}).items():
        if named == sorted(child for _, child in edges) and named != correct:
            if rule == "wrong-side":
                return "wrong-side"
            return "strict-rule" if answer["prune_on_equality"] else "equality-rule"
    return None


def visited_fields(check, reading, answer) -> list:
    run = answer["alphabeta"]
    expected = len(run["visits"])
    entry = reading["visited"]
    if entry is None:
        return [_field("#", None, expected, "missing")]
    value, line = entry
    if value == expected:
        return [_field("#", value, expected, "right", line)]
    own = None
    if reading["cuts"] is not None:
        below = set()
        for child, _ in reading["cuts"]:
            below |= _subtree(answer, child)
        own = len(answer["order"]) - len(below)
    if own is not None and value == own and own != expected:
        return [_field("#", value, expected, "follow-on", line, own=own)]
    mistake = None
    if value == len(answer["order"]):
        mistake = "no-pruning"
    elif value == expected + len(run["cut_edges"]):
        mistake = "pruned-counted"
    return [_field("#", value, expected, "wrong", line, mistake=mistake)]


def _subtree(answer, node) -> set:
    found, stack = set(), [node]
    while stack:
        name = stack.pop()
        found.add(name)
        stack += answer["children"].get(name, ())
    return found


def orders_fields(check, reading, answer) -> list:
    fields = []
    for node in check.option("nodes") or ():
        table = answer["orders"][node]
        best = [order for order, count in table["orders"] if count == table["fewest"]]
        shown = ", ".join(best[0])
        entry = reading["orders"].get(node)
        if entry is None:
            fields.append(_field(node, None, shown, "missing", show=str))
            continue
        value, line = entry
        count = next(c for order, c in table["orders"] if order == value)
        fields.append({**_field(node, ", ".join(value), shown, "right" if count ==
                                table["fewest"] else "wrong", line, show=str),
                       "visited": count, "fewest": table["fewest"],
                       "best": [", ".join(order) for order in best]})
    return fields


def move_fields(check, reading, answer) -> list:
    optimal = answer["optimal_moves"]
    shown = ", ".join(optimal)
    entry = reading["move"]
    if entry is None:
        return [_field(answer["root"], None, shown, "missing", show=str)]
    value, line = entry
    if value in optimal:
        return [_field(answer["root"], value, shown, "right", line, show=str)]
    given = reading["values"]
    children = answer["children"][answer["root"]]
    own = [given[c][0] if c in given else answer["values"][c] for c in children]
    if all(not isinstance(v, list) for v in own) and any(c in given for c in children):
        best = max(own)
        if own[children.index(value)] == best and not all(
                notation.same(given.get(c, [answer["values"][c]])[0], answer["values"][c])
                for c in children):
            return [_field(answer["root"], value, shown, "follow-on", line, show=str)]
    return [_field(answer["root"], value, shown, "wrong", line, show=str)]


FIELDS = {"values": values_fields, "intervals": intervals_fields, "returns": returns_fields,
          "visited": visited_fields, "orders": orders_fields, "move": move_fields}


# -- the verdict --------------------------------------------------------------------------

def judge(question: str, check, observation, answer: dict) -> Verdict:
    """The verdict of one question: a share of the points per field."""
    if observation.status != "ok":
        error = observation.error or {}
        return Verdict(check, False, 0.0, "hand", {
            "question": question, "unusable": True, "problem": error.get("key", "missing"),
            "line": error.get("line", 0), "file": error.get("file"),
            "details": {k: v for k, v in error.items() if k not in ("key", "line", "file")}})
    reading = observation.items[0].returned
    extras = []
    if question == "cuts":
        fields, extras = cuts_fields(check, reading, answer)
    else:
        fields = FIELDS[question](check, reading, answer)
    given = reading.get("variant")
    foreign = bool(given and answer.get("variant") and given.strip().upper() != answer["variant"])
    if foreign:
        # Follow-on credit presumes answers worked out on the student's own tree; a file
        # written for another variant (a classmate's) was not.
        for entry in fields + extras:
            if entry["mark"] == "follow-on":
                entry["mark"] = "wrong"
    earned = sum(1 for f in fields if f["mark"] in ("right", "follow-on"))
    charged = sum(1 for e in extras if e["mark"] == "wrong")
    total = len(fields)
    share = check.points / total if total else 0.0
    score = max(0.0, min(check.points, share * (earned - charged)))
    wrong = [f for f in fields if f["mark"] in ("wrong", "missing")] + \
        [e for e in extras if e["mark"] == "wrong"]
    mistakes = [f["mistake"] for f in fields + extras if f.get("mistake")]
    whole = _cuts_mistake(answer, reading) if question == "cuts" else None
    if whole:
        mistakes.insert(0, whole)
    problems = [p for p in reading.get("problems", ()) if p.get("question") == question]
    if question == "values":   # keys no question claims are said once, with the values
        problems += [p for p in reading.get("problems", ()) if p.get("question") is None]
    facts = {"question": question, "file": reading.get("file"), "fields": fields,
             "extras": extras, "right": sum(1 for f in fields if f["mark"] == "right"),
             "follow_on": sum(1 for f in fields if f["mark"] == "follow-on"),
             "total": total, "mistakes": list(dict.fromkeys(mistakes)),
             "problems": problems[:20], "variant": answer.get("variant"),
             "variant_given": given if foreign else None, "drawing": drawing(answer)}
    if question in ("intervals", "returns", "cuts") or question == "visited":
        facts["rule"] = "equal" if answer["prune_on_equality"] else "strict"
    return Verdict(check, not wrong, round(score, 6), "hand", facts)


def drawing(answer: dict, limit: int | None = MAX_DRAWN) -> dict | None:
    """The tree as the feedback draws it (its shape and leaf values), or None when it has
    more than ``limit`` nodes (a sheet draws any size: ``limit=None``)."""
    if limit is not None and len(answer["order"]) > limit:
        return None
    return {"root": answer["root"], "children": answer["children"],
            "player": answer["player"], "players": answer.get("players"),
            "leaves": {name: notation.show(value) for name, value in answer["leaves"].items()},
            "probabilities": {name: [notation.show(p) for p in ps]
                              for name, ps in answer.get("probabilities", {}).items()},
            "vector": answer.get("vector", False)}
