"""YAML with line numbers, for error messages that say ``file:line: what is wrong``.

``load(path)`` parses with PyYAML's safe loader and returns plain-looking values whose
mappings and sequences remember where they came from: ``Located`` dicts and lists carry
``.line`` (1-based) and ``.line_of(key_or_index)``.  Duplicate keys are reported, because
a silently overwritten check or node is exactly the mistake a task author would not see.
``load_plain(path)`` is ``yaml.safe_load`` (the message catalogues).

What a file parsed to is kept in the cache folder (``$GRADER_CACHE_DIR/documents``, as JSON
under the SHA-256 of the file's text): a self-check reads the course's task files and a
message catalogue again each time, and parsing them (and importing PyYAML) was a tenth of a
check.  A kept document is read only from a file of ours that nobody else can write, and only
if it is exactly of the shape written here; anything else is parsed afresh.  Files that parse
to a value JSON cannot bring back exactly (``!!binary``) are not kept.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a task file, written for the person who must fix it."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


class LocatedDict(dict):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.line = 0
        self._key_lines: dict = {}

    def line_of(self, key) -> int:
        return self._key_lines.get(key, self.line)


class LocatedList(list):
    def __init__(self, *args):
        super().__init__(*args)
        self.line = 0
        self._item_lines: list = []

    def line_of(self, index) -> int:
        return self._item_lines[index] if 0 <= index < len(self._item_lines) else self.line


def _fast_loader():
    """libyaml's parser where PyYAML was built with it (15x faster; the same nodes and marks).
    PyYAML is imported only when a file is parsed, not read from the cache."""
    import yaml
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def line_of(value, default: int = 0) -> int:
    return getattr(value, "line", default) or default


class _Builder:
    def __init__(self, file: str):
        import yaml
        self.file = file
        self.constructor = yaml.SafeLoader("")
        self.mapping, self.sequence = yaml.MappingNode, yaml.SequenceNode
        self.problems: list[Problem] = []

    def build(self, node):
        line = node.start_mark.line + 1
        if isinstance(node, self.mapping):
            result = LocatedDict()
            result.line = line
            result._key_lines = {}
            self.constructor.flatten_mapping(node)
            for key_node, value_node in node.value:
                key = self.build(key_node)
                if isinstance(key, (LocatedDict, LocatedList)):
                    self.problems.append(Problem(self.file, key_node.start_mark.line + 1,
                                                 "a mapping key must be a plain value"))
                    continue
                if key in result:
                    self.problems.append(Problem(
                        self.file, key_node.start_mark.line + 1,
                        f"duplicate key {key!r} (first at line {result._key_lines[key]}); "
                        "remove or rename one of them"))
                    continue
                result[key] = self.build(value_node)
                result._key_lines[key] = key_node.start_mark.line + 1
            return result
        if isinstance(node, self.sequence):
            result = LocatedList(self.build(item) for item in node.value)
            result.line = line
            result._item_lines = [item.start_mark.line + 1 for item in node.value]
            return result
        return self.constructor.construct_object(node, deep=True)


def load(path: Path | str) -> tuple[object, list[Problem]]:
    """Parse ``path``; return the located document and the problems found while reading it."""
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return None, [Problem(file, 1, f"cannot read the file: {error}")]
    kept = _kept("located", text)
    if kept is not None:
        try:
            return (_located(kept["document"]),
                    [Problem(file, line, message) for line, message in kept["problems"]])
        except (KeyError, TypeError, ValueError):
            pass        # not of the shape written here: parsed afresh
    import yaml
    try:
        node = yaml.compose(text, Loader=_fast_loader())
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        reason = getattr(error, "problem", None) or str(error)
        return None, [Problem(file, line, f"not valid YAML: {reason}")]
    if node is None:
        return None, [Problem(file, 1, "the file is empty")]
    builder = _Builder(file)
    try:
        document = builder.build(node)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        return None, [Problem(file, line, f"not valid YAML: {error}")]
    try:
        _keep("located", text, {"document": _located_json(document), "problems": [
            [problem.line, problem.message] for problem in builder.problems]})
    except (_Unkept, RecursionError):
        pass
    return document, builder.problems


def load_plain(path: Path | str):
    """``path`` parsed by PyYAML's safe loader (OSError, UnicodeDecodeError and
    ``yaml.YAMLError`` as they come)."""
    from .answer_cache import Unencodable, decode, dumps
    text = Path(path).read_text(encoding="utf-8")
    kept = _kept("plain", text)
    if kept is not None and type(kept.get("value")) is str:
        try:
            return decode(kept["value"])      # answer_cache's exact encoding, as JSON text
        except (TypeError, ValueError, RecursionError):
            pass
    import yaml
    value = yaml.load(text, Loader=_fast_loader())
    try:
        _keep("plain", text, {"value": dumps(value)})
    except (Unencodable, ValueError, RecursionError):
        pass
    return value


# -- the parsed documents kept in the cache folder ------------------------------------------

DOCUMENTS = "documents"
DOCUMENT_FORMAT = "gametree-grader document 1"
KEEP_DOCUMENTS = 200        # files kept (newest first): every edit of a task file makes one


class _Unkept(ValueError):
    """A value the kept form cannot bring back exactly."""


def _document_path(kind: str, text: str) -> Path | None:
    from .answer_cache import private_folder
    folder = private_folder(DOCUMENTS)
    if folder is None:
        return None
    digest = hashlib.sha256(f"{DOCUMENT_FORMAT}\0{kind}\0{text}".encode("utf-8", "surrogatepass"))
    return folder / f"{digest.hexdigest()}.json"


def _kept(kind: str, text: str) -> dict | None:
    """The kept form of ``text`` parsed as ``kind``, or None."""
    from .answer_cache import kept_json
    path = _document_path(kind, text)
    return kept_json(path, DOCUMENT_FORMAT) if path is not None else None


def _keep(kind: str, text: str, content: dict) -> None:
    from .answer_cache import keep, prune
    path = _document_path(kind, text)
    if path is None:
        return
    try:
        payload = json.dumps({"format": DOCUMENT_FORMAT, **content}, ensure_ascii=False,
                             allow_nan=False, separators=(",", ":"))
    except (ValueError, RecursionError):
        return
    if keep(path, payload.encode("utf-8", "surrogatepass")):
        prune(path.parent, "*.json", KEEP_DOCUMENTS)


# A located mapping is {"m": line, "k": [[key, line, value], ...]}, a located sequence
# {"s": line, "i": [[line, value], ...]}; a scalar JSON cannot say is {"f": "inf"} (also
# "-inf", "nan"), {"d": "2026-12-01"} (a date) or {"t": ISO text} (a date and time).  No other
# object appears, so nothing a task file holds can pass for one.

def _located_json(value):
    if isinstance(value, LocatedDict):
        return {"m": value.line, "k": [[_scalar_json(key), value.line_of(key), _located_json(item)]
                                       for key, item in value.items()]}
    if isinstance(value, LocatedList):
        return {"s": value.line, "i": [[value.line_of(index), _located_json(item)]
                                       for index, item in enumerate(value)]}
    return _scalar_json(value)


def _scalar_json(value):
    kind = type(value)
    if kind in (str, int, bool) or value is None:
        return value
    if kind is float:
        if math.isfinite(value):
            return value
        return {"f": "nan" if value != value else ("inf" if value > 0 else "-inf")}
    if kind is datetime:
        return {"t": value.isoformat()}
    if kind is date:
        return {"d": value.isoformat()}
    raise _Unkept(f"a {kind.__name__} is not kept")


_FLOATS = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


def _located(value):
    """The located document of its kept form (KeyError, TypeError or ValueError for anything
    not of that form)."""
    if type(value) is not dict:
        return _located_scalar(value)
    if value.keys() == {"m", "k"}:
        result = LocatedDict()
        result.line, lines = _line(value["m"]), result._key_lines
        for key, line, item in value["k"]:
            key = _located_scalar(key)
            if key in result:
                raise ValueError("a key twice")
            result[key] = _located(item)
            lines[key] = _line(line)
        return result
    if value.keys() == {"s", "i"}:
        result = LocatedList(_located(item) for _, item in value["i"])
        result.line = _line(value["s"])
        result._item_lines = [_line(line) for line, _ in value["i"]]
        return result
    return _located_scalar(value)


def _located_scalar(value):
    if type(value) is list:
        raise TypeError("a list outside a located sequence")
    if type(value) is not dict:
        return value
    if value.keys() == {"f"}:
        return _FLOATS[value["f"]]
    if value.keys() == {"d"} and type(value["d"]) is str:
        return date.fromisoformat(value["d"])
    if value.keys() == {"t"} and type(value["t"]) is str:
        return datetime.fromisoformat(value["t"])
    raise ValueError("an object of no kept form")


def _line(value) -> int:
    if type(value) is not int:
        raise TypeError("a line that is not a number")
    return value
