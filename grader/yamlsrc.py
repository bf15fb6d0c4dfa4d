"""YAML with line numbers, for error messages that say ``file:line: what is wrong``.

``load(path)`` parses with PyYAML's safe loader and returns plain-looking values whose
mappings and sequences remember where they came from: ``Located`` dicts and lists carry
``.line`` (1-based) and ``.line_of(key_or_index)``.  Duplicate keys are reported, because
a silently overwritten check or node is exactly the mistake a task author would not see.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml


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


# libyaml's parser where PyYAML was built with it (15x faster; the same nodes and marks).
FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def line_of(value, default: int = 0) -> int:
    return getattr(value, "line", default) or default


class _Builder:
    def __init__(self, file: str):
        self.file = file
        self.constructor = yaml.SafeLoader("")
        self.problems: list[Problem] = []

    def build(self, node):
        line = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
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
        if isinstance(node, yaml.SequenceNode):
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
    try:
        node = yaml.compose(text, Loader=FAST_LOADER)
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
    return document, builder.problems
