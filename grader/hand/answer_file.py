"""A student's answer file, read in the parent as hostile input.

The file is the student's: it may be huge, not UTF-8, nested thousands of levels deep, an
alias bomb, tagged to build objects, full of NaN and 10^400, or simply a shopping list.
None of that may crash a batch or cost more than a glance, and each problem is said where it
is (``aufgabe1.yaml:7``) in words the student can act on.  So:

* at most ``MAX_BYTES`` are read (from the staged copy, links never followed); UTF-8 (a
  byte-order mark allowed, UTF-16 with its mark too); a NUL byte or a bad byte is refused
  with its line;
* the YAML is read as events (libyaml's parser where PyYAML has it): anchors, aliases and tags
  are refused before anything is built, at most ``MAX_EVENTS`` events and ``MAX_DEPTH``
  levels; one document.  JSON is YAML, so ``.json`` files are read the same way;
* nothing is constructed by YAML: every scalar stays the text the student wrote, and
  ``grader.hand.notation`` reads it (so ``no`` is not False, ``1:30`` is not 90, ``.inf`` is
  a bound and ``.nan`` a problem);
* a field that cannot be read costs that field only, with a problem at its line; a file that
  cannot be read at all (``AnswerFileError``) costs the task's questions, with the reason.

The layout (keys in English or German, node names in any case)::

    student: mmuster            # optional; written by the template
    variant: 7KQ2MX             # optional; the variant the template was written for
    values:    {A: 3, B: 3, C: 2, D: 1, E: 9, F: 2, G: 6}
    intervals: {A: "[-inf, inf]", B: "[-inf, inf]", C: "[3, inf]", G: "-"}
    returns:   {A: 3, B: 3, C: 2, G: "-"}
    cuts:      [C->G, D->D2, D->D3]
    visited:   16
    orders:    {C: [F, E, G]}
    move:      B
"""

from __future__ import annotations

import codecs
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from . import notation

MAX_BYTES = 64 * 1024
MAX_EVENTS = 5000
MAX_DEPTH = 6
SUFFIXES = (".yaml", ".yml", ".json")
SEARCH_DEPTH = 3        # how deep a submission folder is searched for the answer file

# The keys of the questions, with the other names people give them.
QUESTIONS = {
    "values": ("values", "werte", "minimax", "minimaxwerte", "minimax-werte", "expectimax",
               "maxn", "wert", "value"),
    "intervals": ("intervals", "intervalle", "intervall", "interval", "fenster", "windows"),
    "returns": ("returns", "rückgaben", "rueckgaben", "rückgabewerte", "rueckgabewerte",
                "rückgabe", "rueckgabe", "returned", "return"),
    "cuts": ("cuts", "cut_edges", "cut-edges", "schnitte", "schnittkanten",
             "abgeschnitten", "abgeschnittene_kanten", "pruned", "kanten"),
    "visited": ("visited", "besucht", "besuchte_knoten", "besuchte knoten", "anzahl",
                "knoten_besucht", "visited_nodes"),
    "orders": ("orders", "order", "reihenfolge", "reihenfolgen", "beste_reihenfolge",
               "best_order", "zugreihenfolge"),
    "move": ("move", "zug", "bester_zug", "best_move", "action", "aktion"),
}
HEADER = {"student": ("student", "name", "matrikel", "username"),
          "variant": ("variant", "variante", "code", "variantencode"),
          "comment": ("comment", "kommentar", "notes", "bemerkung", "anmerkung")}


class AnswerFileError(Exception):
    """The answer file cannot be used at all: ``key`` (``missing``, ``ambiguous``,
    ``too-large``, ``encoding``, ``nul``, ``yaml``, ``alias``, ``tag``, ``too-deep``,
    ``too-many``, ``documents``, ``not-mapping``, ``unreadable``), the ``line`` (0: none)
    and facts for the message."""

    def __init__(self, key: str, line: int = 0, **facts):
        super().__init__(key)
        self.key, self.line, self.facts = key, line, facts


# -- finding the file -----------------------------------------------------------------------

def locate(folder: Path, stem: str) -> Path:
    """The answer file ``stem`` (``.yaml``, ``.yml`` or ``.json``, any case) in a staged
    submission: at the top, else the only one in the shallowest folder within
    ``SEARCH_DEPTH`` that holds one (an LMS download's ``Abgabe/aufgabe1.yaml``)."""
    wanted = {(stem + suffix).casefold() for suffix in SUFFIXES}
    level = [Path(folder)]
    for depth in range(SEARCH_DEPTH + 1):
        found = []
        for where in level:
            try:
                entries = sorted(os.scandir(where), key=lambda e: e.name)
            except OSError:
                continue
            found += [Path(e.path) for e in entries if e.name.casefold() in wanted
                      and e.is_file(follow_symlinks=False)]
        if len(found) == 1:
            return found[0]
        if found:
            raise AnswerFileError("ambiguous", files=[str(p.relative_to(folder))
                                                      for p in found])
        level = [Path(e.path) for where in level for e in _entries(where)
                 if e.is_dir(follow_symlinks=False) and not e.name.startswith((".", "__"))]
    raise AnswerFileError("missing", file=stem + ".yaml")


def _entries(folder: Path) -> list:
    try:
        return sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []


def read_bytes(path: Path) -> bytes:
    """At most ``MAX_BYTES`` of the file, opened without following a link."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as error:
        raise AnswerFileError("unreadable", reason=error.strerror or str(error)) from None
    with os.fdopen(descriptor, "rb") as stream:
        data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise AnswerFileError("too-large", limit=MAX_BYTES // 1024)
    return data


def decode(data: bytes) -> str:
    """UTF-8 (a byte-order mark allowed), or UTF-16 with its mark; else the line of the first
    byte that is not UTF-8."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise AnswerFileError("encoding", line=1) from None
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise AnswerFileError("encoding", line=data[:error.start].count(b"\n") + 1) \
                from None
    if "\x00" in text:
        raise AnswerFileError("nul", line=text[:text.index("\x00")].count("\n") + 1)
    return text


# -- YAML as events ------------------------------------------------------------------------

@dataclass
class Scalar:
    text: str | None          # None: an empty or null field
    line: int


@dataclass
class Sequence:
    items: list
    line: int


@dataclass
class Mapping:
    pairs: list = field(default_factory=list)    # (Scalar key, node)
    line: int = 0


def parse(text: str):
    """The document's top node, built from the parser's events without YAML's
    constructors; ``AnswerFileError`` for anything an answer file has no use for."""
    import yaml
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    stack: list = []
    top = None
    documents = 0
    events = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            events += 1
            line = event.start_mark.line + 1 if event.start_mark else 0
            if events > MAX_EVENTS:
                raise AnswerFileError("too-many", line=line, limit=MAX_EVENTS)
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise AnswerFileError("alias", line=line)
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise AnswerFileError("documents", line=line)
                continue
            if isinstance(event, (yaml.ScalarEvent, yaml.SequenceStartEvent,
                                  yaml.MappingStartEvent)):
                tag = getattr(event, "tag", None)
                if tag is not None and tag != "!" and not (
                        isinstance(event, yaml.ScalarEvent) and event.implicit[0]):
                    raise AnswerFileError("tag", line=line, tag=str(tag).replace(
                        "tag:yaml.org,2002:", "!!")[:60])
            if isinstance(event, yaml.ScalarEvent):
                value = event.value
                if event.style is None and value.strip() in ("", "~", "null", "Null", "NULL"):
                    value = None
                node = Scalar(value, line)
            elif isinstance(event, yaml.SequenceStartEvent):
                node = Sequence([], line)
            elif isinstance(event, yaml.MappingStartEvent):
                node = Mapping([], line)
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                done = stack.pop()
                if isinstance(done, Mapping) and len(done.pairs) and done.pairs[-1][1] is None:
                    raise AnswerFileError("yaml", line=line, reason="a key without value")
                _attach(stack, done) if stack else None
                if not stack:
                    top = done
                continue
            else:
                continue
            if isinstance(node, (Sequence, Mapping)):
                if len(stack) >= MAX_DEPTH:
                    raise AnswerFileError("too-deep", line=line, limit=MAX_DEPTH)
                stack.append(node)
            elif stack:
                _attach(stack, node)
            else:
                top = node
    except AnswerFileError:
        raise
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise AnswerFileError("yaml", line=mark.line + 1 if mark else 0,
                              reason=str(problem)[:200]) from None
    except (RecursionError, MemoryError, ValueError) as error:
        raise AnswerFileError("yaml", line=0, reason=type(error).__name__) from None
    return top


def _attach(stack: list, node) -> None:
    parent = stack[-1]
    if isinstance(parent, Sequence):
        parent.items.append(node)
    elif parent.pairs and parent.pairs[-1][1] is None:
        parent.pairs[-1] = (parent.pairs[-1][0], node)
    else:
        if not isinstance(node, Scalar):
            raise AnswerFileError("yaml", line=node.line, reason="a key that is not a name")
        parent.pairs.append((node, None))


def plain(node):
    """A node as text, None, lists and dicts (keys as text): what ``notation`` reads."""
    if isinstance(node, Scalar):
        return node.text
    if isinstance(node, Sequence):
        return [plain(item) for item in node.items]
    return {str(key.text): plain(value) for key, value in node.pairs}


# -- the answers ---------------------------------------------------------------------------

@dataclass
class Reading:
    """What an answer file says, question by question (each entry with its line), and the
    problems of the entries that could not be read."""
    file: str
    student: str | None = None
    variant: str | None = None
    values: dict = field(default_factory=dict)       # node -> [value, line]
    intervals: dict = field(default_factory=dict)    # node -> [[α, β] | "pruned", line]
    returns: dict = field(default_factory=dict)      # node -> [value | "pruned", line]
    cuts: list | None = None                         # [[child, line], ...]; None: no answer
    visited: list | None = None                      # [count, line]
    orders: dict = field(default_factory=dict)       # node -> [children, line]
    move: list | None = None                         # [child, line]
    lines: dict = field(default_factory=dict)        # question -> line of its key
    problems: list = field(default_factory=list)     # {"line", "question", "key", "facts"}

    def as_json(self) -> dict:
        return {name: getattr(self, name) for name in (
            "file", "student", "variant", "values", "intervals", "returns", "cuts",
            "visited", "orders", "move", "lines", "problems")}


def read_answers(path: Path, tree: dict, shown_name: str | None = None) -> dict:
    """The answers of the file at ``path`` on ``tree`` (the reference's ``shape``: names,
    children, leaves; ``vector`` for utility vectors), as plain data (``Reading.as_json``).
    Raises ``AnswerFileError`` when the file cannot be used at all."""
    text = decode(read_bytes(path))
    top = parse(text)
    name = shown_name or Path(path).name
    if top is None or (isinstance(top, Scalar) and top.text is None):
        raise AnswerFileError("empty")
    if not isinstance(top, Mapping):
        raise AnswerFileError("not-mapping", line=top.line)
    return read_document(top, tree, name).as_json()


def read_document(top: Mapping, tree: dict, name: str) -> Reading:
    reading = Reading(name)
    names = notation.Names(tree["order"])
    parent_of = {child: parent for parent, children in tree["children"].items()
                 for child in children}
    seen: dict = {}
    for key, value in top.pairs:
        question = _question(key.text)
        if question is None:
            reading.problems.append({"line": key.line, "question": None, "key": "unknown-key",
                                     "facts": {"given": notation._shown(key.text)}})
            continue
        if question in seen:
            reading.problems.append({"line": key.line, "question": question,
                                     "key": "twice", "facts": {"first": seen[question]}})
            continue
        seen[question] = key.line
        reading.lines[question] = key.line
        if question in HEADER:
            if question != "comment" and isinstance(value, Scalar) and value.text:
                setattr(reading, question, value.text.strip()[:80])
            continue
        _READERS[question](reading, value, tree, names, parent_of)
    return reading


def _question(text) -> str | None:
    if not isinstance(text, str):
        return None
    folded = text.strip().casefold().replace(" ", "_")
    for question, names in {**QUESTIONS, **HEADER}.items():
        if folded in {n.replace(" ", "_") for n in names}:
            return question
    return None


def _problem(reading, line, question, problem) -> None:
    key, facts = problem
    reading.problems.append({"line": line, "question": question, "key": key, "facts": facts})


def _per_node(reading, value, names, question, inner_only=False, tree=None):
    """The entries ``node: answer`` of a question, each node found by name."""
    if value is None or (isinstance(value, Scalar) and value.text is None):
        return []
    if not isinstance(value, Mapping):
        _problem(reading, value.line, question, ("section-shape", {}))
        return []
    entries = []
    for key, item in value.pairs:
        node, problem = names.node(key.text)
        if problem:
            _problem(reading, key.line, question, problem)
            continue
        if inner_only and node in tree["leaves"]:
            _problem(reading, key.line, question, ("leaf", {"node": node}))
            continue
        if any(node == other for other, _, _ in entries):
            _problem(reading, key.line, question, ("node-twice", {"node": node}))
            continue
        entries.append((node, item, key.line))
    return entries


def _read_values(reading, value, tree, names, parent_of):
    for node, item, line in _per_node(reading, value, names, "values"):
        raw = plain(item)
        if notation.is_empty(raw):
            continue
        if tree.get("vector"):
            parsed, problem = _vector(raw, len(tree["players"]))
        else:
            parsed, problem = notation.number(raw)
        if problem:
            _problem(reading, item.line, "values", problem)
        else:
            reading.values[node] = [parsed, item.line]


def _vector(raw, size):
    if isinstance(raw, str):
        text = raw.strip().strip("()[]")
        raw = [part for part in text.split(";" if ";" in text else ",")]
    if not isinstance(raw, list) or len(raw) != size:
        return None, ("vector-shape", {"given": notation._shown(raw), "size": size})
    result = []
    for part in raw:
        number, problem = notation.number(part)
        if problem:
            return None, problem
        result.append(number)
    return result, None


def _read_intervals(reading, value, tree, names, parent_of):
    for node, item, line in _per_node(reading, value, names, "intervals"):
        raw = plain(item)
        if notation.is_empty(raw):
            continue
        parsed, problem = notation.interval(raw)
        if problem:
            _problem(reading, item.line, "intervals", problem)
        else:
            reading.intervals[node] = [parsed, item.line]


def _read_returns(reading, value, tree, names, parent_of):
    for node, item, line in _per_node(reading, value, names, "returns"):
        raw = plain(item)
        if notation.is_empty(raw):
            continue
        if notation.is_pruned(raw):
            reading.returns[node] = ["pruned", item.line]
            continue
        parsed, problem = notation.number(raw)
        if problem:
            _problem(reading, item.line, "returns", problem)
        else:
            reading.returns[node] = [parsed, item.line]


def _read_cuts(reading, value, tree, names, parent_of):
    if isinstance(value, Sequence):
        reading.cuts = []
        for item in value.items:
            raw = plain(item)
            if notation.is_empty(raw):
                continue
            children, problems = notation.edges(raw, names, parent_of)
            for problem in problems:
                _problem(reading, item.line, "cuts", problem)
            reading.cuts += [[child, item.line] for child in children
                             if child not in [c for c, _ in reading.cuts]]
        return
    raw = plain(value)
    if not isinstance(raw, str) and raw is not None:
        _problem(reading, value.line, "cuts", ("edge-shape", {"given": notation._shown(raw)}))
        return
    if raw is None:
        return
    children, problems = notation.edges(raw, names, parent_of)
    for problem in problems:
        _problem(reading, value.line, "cuts", problem)
    reading.cuts = [[child, value.line] for child in children]


def _read_visited(reading, value, tree, names, parent_of):
    raw = plain(value)
    if notation.is_empty(raw):
        return
    parsed, problem = notation.count(raw)
    if problem:
        _problem(reading, value.line, "visited", problem)
    else:
        reading.visited = [parsed, value.line]


def _read_orders(reading, value, tree, names, parent_of):
    for node, item, line in _per_node(reading, value, names, "orders", inner_only=True,
                                      tree=tree):
        raw = plain(item)
        if notation.is_empty(raw):
            continue
        children = tree["children"][node]
        parsed, problem = notation.order(raw, children, names)
        if problem:
            _problem(reading, item.line, "orders", problem)
        else:
            reading.orders[node] = [parsed, item.line]


def _read_move(reading, value, tree, names, parent_of):
    raw = plain(value)
    if notation.is_empty(raw):
        return
    root = tree["root"]
    labels = dict(zip(tree["actions"].get(root, ()), tree["children"].get(root, ())))
    if isinstance(raw, str) and raw.strip() in labels:
        reading.move = [labels[raw.strip()], value.line]
        return
    child, problem = notation.edge(raw, names, parent_of)
    if problem is None and parent_of.get(child) != root:
        problem = ("not-root-child", {"given": child})
    if problem:
        _problem(reading, value.line, "move", problem)
    else:
        reading.move = [child, value.line]


_READERS = {"values": _read_values, "intervals": _read_intervals, "returns": _read_returns,
            "cuts": _read_cuts, "visited": _read_visited, "orders": _read_orders,
            "move": _read_move}


# -- the observation of a by-hand call -----------------------------------------------------

def spec_shape(spec: dict) -> dict:
    """What reading an answer file needs of a tree spec: ``root``, ``order`` (preorder),
    ``children``, ``actions`` (edge labels), ``leaves``, ``vector`` and ``players``."""
    nodes = spec["nodes"]
    tree = {"root": spec["root"], "order": [], "children": {}, "actions": {}, "leaves": {},
            "vector": bool(spec.get("vector"))}
    cycle = [p for p in dict.fromkeys(spec.get("players") or ("MAX", "MIN")) if p != "CHANCE"]
    tree["players"] = cycle
    stack = [spec["root"]]
    while stack:
        name = stack.pop()
        tree["order"].append(name)
        node = nodes[name]
        children = node.get("children")
        if children:
            tree["children"][name] = list(children)
            tree["actions"][name] = list(node.get("actions") or children)
            stack += reversed(children)
        else:
            tree["leaves"][name] = node.get("value")
    return tree


def observe(call, folder: Path):
    """The ``Observation`` of a by-hand call: the answers of the student's file in the staged
    ``folder``, or why the file cannot be used (status ``answer-file``).  Never raises."""
    from ..calls import ItemOutcome, Observation
    item = json.loads(call.items[0])
    stem = item["answers"]
    try:
        path = locate(Path(folder), stem)
        shown = str(path.relative_to(folder))
        reading = read_answers(path, spec_shape(item["tree"]), shown)
    except AnswerFileError as error:
        return Observation("answer-file", error={
            "key": error.key, "line": error.line,
            "file": locals().get("shown") or f"{stem}.yaml", **error.facts})
    except Exception as error:  # noqa: BLE001 - one student's file never stops a batch
        return Observation("answer-file", error={"key": "unreadable", "line": 0,
                                                 "file": f"{stem}.yaml",
                                                 "reason": type(error).__name__})
    return Observation("ok", (ItemOutcome("ok", returned=reading),))
