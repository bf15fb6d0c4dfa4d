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
        self.refused: frozenset = frozenset()   # keys a schema took out (see ``without``)

    def line_of(self, key) -> int:
        return self._key_lines.get(key, self.line)

    def without(self, keys) -> LocatedDict:
        """A copy without ``keys``, which it remembers as ``refused``: a reader then knows
        that the file gave them (and that their problem is reported already)."""
        copy = LocatedDict((key, value) for key, value in self.items() if key not in keys)
        copy.line, copy._key_lines = self.line, dict(self._key_lines)
        copy.refused = self.refused | frozenset(keys)
        return copy

    def given(self, key) -> bool:
        """Whether the file sets ``key``, even where a schema refused its value."""
        return key in self or key in self.refused


class LocatedList(list):
    def __init__(self, *args):
        super().__init__(*args)
        self.line = 0
        self._item_lines: list = []

    def line_of(self, index) -> int:
        return self._item_lines[index] if 0 <= index < len(self._item_lines) else self.line

    def without(self, indices) -> LocatedList:
        """A copy without the items at ``indices`` (the others keep their lines)."""
        dropped = set(indices)
        kept = [index for index in range(len(self)) if index not in dropped]
        copy = LocatedList(self[index] for index in kept)
        copy.line, copy._item_lines = self.line, [self.line_of(index) for index in kept]
        return copy


def _fast_loader():
    """libyaml's parser where PyYAML was built with it (15x faster; the same nodes and marks).
    PyYAML is imported only when a file is parsed, not read from the cache."""
    import yaml
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def line_of(value, default: int = 0) -> int:
    return getattr(value, "line", default) or default


def parse_number(value):
    """A finite int or float from YAML (which reads ``1e9`` as a string), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip()
        try:
            value = int(text)
        except ValueError:
            try:
                value = float(text)
            except ValueError:
                return None
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return value
    return value if isinstance(value, int) else None


# A task file is small and shallow: its deepest values are a tree's nodes, a dozen levels
# down.  Beyond these bounds a file is refused at the line where it crosses them, before it
# costs anything: an alias bomb (aliases of aliases, each doubling what the last expands to)
# once ran a minute and took 1.4 GB, and deep nesting ran out of Python's stack.
MAX_DEPTH = 64           # levels of mappings and lists inside one another
MAX_ALIASED = 10_000     # values that aliases (and merge keys) bring in, in the whole file


class _Refused(Exception):
    """The document crosses one of the bounds, or holds a value YAML cannot construct."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


class _Builder:
    """The composed node graph -> located values, within ``MAX_DEPTH`` and ``MAX_ALIASED``.

    PyYAML composes an alias as the very node its anchor names, so a node reached a second
    time is an alias's value being built again: every value built that way counts."""

    MERGE = "tag:yaml.org,2002:merge"

    def __init__(self, file: str):
        import yaml
        self.file = file
        self.constructor = yaml.SafeLoader("")
        self.mapping, self.sequence = yaml.MappingNode, yaml.SequenceNode
        self.problems: list[Problem] = []
        self.built: set[int] = set()   # ids of the nodes built once
        self.expanding = 0             # > 0 while an alias's value is built again
        self.alias_line = 0            # where the outermost alias being built is written
        self.aliased = 0

    def build(self, node, line: int = 0, depth: int = 0):
        """``node`` as a located value; ``line``: where the value is written (an alias's
        node carries its anchor's line, not the alias's)."""
        line = line or node.start_mark.line + 1
        again = id(node) in self.built
        if again:
            self.expanding += 1
            if self.expanding == 1:
                self.alias_line = line
        self.built.add(id(node))
        try:
            if self.expanding:
                self.aliased += 1
                if self.aliased > MAX_ALIASED:
                    raise _Refused(self.alias_line, f"the aliases of this file expand to more "
                                   f"than {MAX_ALIASED:,} values; a task file needs far "
                                   "fewer: write the values out, or alias less")
            if isinstance(node, (self.mapping, self.sequence)) and depth >= MAX_DEPTH:
                raise _Refused(line, f"the values here are nested more than {MAX_DEPTH} "
                               "levels deep; a task file needs far fewer (a tree a dozen "
                               "levels deep is already large)")
            if isinstance(node, self.mapping):
                return self.build_mapping(node, depth)
            if isinstance(node, self.sequence):
                # an alias among the items: its node has the anchor's line, so the list's
                result = LocatedList(
                    self.build(item, node.start_mark.line + 1 if id(item) in self.built else 0,
                               depth + 1) for item in node.value)
                result.line = node.start_mark.line + 1
                result._item_lines = [item.start_mark.line + 1 for item in node.value]
                return result
            try:
                return self.constructor.construct_object(node, deep=True)
            except (ValueError, OverflowError) as error:   # e.g. a date 2026-13-45
                raise _Refused(line, f"not valid YAML: {error}") from None
        finally:
            if again:
                self.expanding -= 1

    def build_mapping(self, node, depth: int) -> LocatedDict:
        result = LocatedDict()
        result.line = node.start_mark.line + 1
        result._key_lines = {}
        merged: list[LocatedDict] = []
        for key_node, value_node in node.value:
            key_line = key_node.start_mark.line + 1
            if key_node.tag == self.MERGE:
                merged += self.merge_sources(value_node, key_line, depth)
                continue
            key = self.build(key_node, key_line, depth + 1)
            if isinstance(key, (LocatedDict, LocatedList)):
                self.problems.append(Problem(self.file, key_line,
                                             "a mapping key must be a plain value"))
                continue
            if key in result:
                self.problems.append(Problem(
                    self.file, key_line,
                    f"duplicate key {key!r} (first at line {result._key_lines[key]}); "
                    "remove or rename one of them"))
                continue
            result[key] = self.build(value_node, key_line, depth + 1)
            result._key_lines[key] = key_line
        # YAML's merge key (<<): the mapping's own keys win, then the sources in their order
        for source in merged:
            for key, value in source.items():
                if key not in result:
                    result[key] = value
                    result._key_lines[key] = source.line_of(key)
        return result

    def merge_sources(self, value_node, line: int, depth: int) -> list[LocatedDict]:
        sources = value_node.value if isinstance(value_node, self.sequence) else [value_node]
        if not all(isinstance(source, self.mapping) for source in sources):
            raise _Refused(line, "not valid YAML: a merge key (<<) takes a mapping or a list "
                           "of mappings")
        return [self.build(source, line, depth + 1) for source in sources]


def load(path: Path | str, data: bytes | None = None) -> tuple[object, list[Problem]]:
    """Parse ``path`` (whose bytes are ``data`` where the caller has read them already);
    return the located document and the problems found while reading it."""
    file = str(path)
    try:
        text = (Path(path).read_bytes() if data is None else data).decode("utf-8")
        text = text.replace("\r\n", "\n").replace("\r", "\n")   # as text mode reads it
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
    except RecursionError:      # PyYAML's own composer, where libyaml is missing
        return None, [Problem(file, 1, f"not valid YAML: nested more than {MAX_DEPTH} levels "
                              "deep; a task file needs far fewer")]
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
    except _Refused as refused:
        return None, [Problem(file, refused.line, refused.message)]
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
    from .cache import Unencodable, decode, dumps
    text = Path(path).read_text(encoding="utf-8")
    kept = _kept("plain", text)
    if kept is not None and type(kept.get("value")) is str:
        try:
            return decode(kept["value"])      # grader.cache's exact encoding, as JSON text
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
    from .cache import private_folder
    folder = private_folder(DOCUMENTS)
    if folder is None:
        return None
    digest = hashlib.sha256(f"{DOCUMENT_FORMAT}\0{kind}\0{text}".encode("utf-8", "surrogatepass"))
    return folder / f"{digest.hexdigest()}.json"


def _kept(kind: str, text: str) -> dict | None:
    """The kept form of ``text`` parsed as ``kind``, or None."""
    from .cache import kept_json
    path = _document_path(kind, text)
    return kept_json(path, DOCUMENT_FORMAT) if path is not None else None


def _keep(kind: str, text: str, content: dict) -> None:
    from .cache import keep, prune
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
