"""The task-file schema applied to a located YAML value: what does not fit, at its line.

The schema (``grader.tasks.schema``) is JSON Schema, draft-07, and this module is the loader's
reading of the part of it that the schema uses: ``type``, ``enum``, ``const``, the bounds of
numbers and lists, ``pattern``, ``items``, ``properties``, ``required``,
``additionalProperties``, ``minProperties``/``maxProperties``, ``anyOf``, ``allOf``,
``if``/``then``/``else`` and local ``$ref``s.  A keyword outside that part is a mistake in the
schema and raises ``ValueError`` at once, so the loader never silently ignores a constraint
that an editor's validator would apply.

What a schema check gives back is the problems (``Finding``: the line, a message written for
the person who must fix the file, and the key it is about), and the value with what it
refused taken out: a mapping loses the keys whose values do not fit and remembers them
(``LocatedDict.without``), so that the readers report every other problem of the file and
none twice; a list fits whole or not at all (but a mapping among its items that does not fit
is only left out of it).

Messages are made from the schema's own words: "``depth`` must be a whole number >= 1".
Three annotations of ours (``x-`` keywords, which JSON Schema validators ignore) say more
where the plain words would not do: ``x-hint``, the whole message when a value does not fit
(``{key}``, ``{value!r}`` and ``{choices}`` are filled in); ``x-missing``, the message for a
required key that is missing; ``x-words``, how to call a valid value ("a Python module
name"); ``x-unknown``, the message for a key the mapping does not know (``{key!r}``,
``{known}``).

YAML is read as YAML 1.1 (PyYAML), editors read it as YAML 1.2: a date such as
``2026-12-01`` is a string to them, and counts as one here.
"""

from __future__ import annotations

import datetime
import re
from typing import NamedTuple

from ..yamlsrc import LocatedDict, LocatedList

CONSTRAINTS = {"type", "enum", "const", "minimum", "maximum", "exclusiveMinimum",
               "exclusiveMaximum", "pattern", "minLength", "items", "minItems", "maxItems",
               "properties", "required", "additionalProperties", "minProperties",
               "maxProperties", "anyOf", "allOf", "if", "then", "else", "$ref"}
ANNOTATIONS = {"$schema", "$id", "$comment", "title", "description", "default", "examples",
               "definitions", "x-hint", "x-missing", "x-words", "x-unknown", "x-group"}
# How a list of values of one type is called in a message.
PLURALS = {"string": "texts", "integer": "whole numbers", "number": "numbers",
           "boolean": "true/false values", "object": "mappings", "array": "lists",
           "null": "empty values"}
SINGULARS = {"string": "text", "integer": "a whole number", "number": "a number",
             "boolean": "true or false", "object": "a mapping", "null": "empty"}


class Finding(NamedTuple):
    """One thing that does not fit: where, the message, the key of the mapping it is about
    (None: the value itself), and whether that key is one the mapping does not know."""

    line: int
    message: str
    key: object = None
    unknown: bool = False


class _Refused:
    """The clean value of a value that does not fit at all."""

    def __repr__(self) -> str:
        return "REFUSED"


REFUSED = _Refused()


def json_type(value) -> str:
    """The JSON type a YAML value is to a YAML 1.2 editor."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, (str, datetime.date)):     # datetime is a date
        return "string"
    if value is None:
        return "null"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _fits_type(wanted, value) -> bool:
    actual = json_type(value)
    wanted = [wanted] if isinstance(wanted, str) else wanted
    return actual in wanted or (actual == "integer" and "number" in wanted)


def _same(value, choice) -> bool:
    """JSON's equality: true is not 1, 1 is 1.0."""
    if isinstance(value, bool) or isinstance(choice, bool):
        return value is choice
    return json_type(value) in ("integer", "number") and json_type(choice) in (
        "integer", "number") and value == choice or type(value) is type(choice) and value == choice


def _plain(choice) -> str:
    if isinstance(choice, bool):
        return "true" if choice else "false"
    return str(choice)


def _shown(value) -> str:
    """A value of the file as a message quotes it."""
    if value is None:
        return "an empty value"
    return repr(value) if isinstance(value, str) else _plain(value)


def _number(value) -> str:
    return str(value) if isinstance(value, int) else f"{value:g}"


class Checker:
    """Checks located values against the fragments of one schema (``root``).

    ``sections`` name the definitions that their own readers check: a ``$ref`` to one of them
    is not followed (a task's checks are checked one by one, by the reader of checks)."""

    def __init__(self, root: dict, sections=()):
        self.root = root
        self.sections = {f"#/definitions/{name}" for name in sections}
        self.read: set[int] = set()     # ids of the fragments whose keywords were looked at
        self.quiet = 0                  # > 0: only whether a value fits counts (an if:)
        self.switches: dict[int, tuple | None] = {}

    # -- the schema's fragments ------------------------------------------------------------
    def resolve(self, fragment: dict) -> dict:
        while "$ref" in fragment:
            ref = fragment["$ref"]
            if not ref.startswith("#/definitions/"):
                raise ValueError(f"the schema refers to {ref!r}: only #/definitions/ are read")
            fragment = self.root["definitions"][ref[len("#/definitions/"):]]
        if id(fragment) not in self.read:
            unknown = set(fragment) - CONSTRAINTS - ANNOTATIONS
            if unknown:
                raise ValueError(f"the schema uses {', '.join(sorted(unknown))}, which the "
                                 "loader does not read (grader/tasks/validate.py)")
            self.read.add(id(fragment))
        return fragment

    def switch(self, fragment: dict) -> tuple | None:
        """``allOf`` as a switch on one key, ``(key, {text: then})``, where every part is
        ``{if: {properties: {key: {const: text}}, required: [key]}, then: ...}`` (the check
        kinds': a check's ``kind`` names the definition it must fit); None otherwise."""
        if id(fragment) not in self.switches:
            cases, keys = {}, set()
            for part in fragment.get("allOf", ()):
                test = part.get("if", {})
                properties = test.get("properties", {})
                if set(part) != {"if", "then"} or set(test) != {"properties", "required"} \
                        or len(properties) != 1:
                    break
                [(key, wanted)] = properties.items()
                if set(wanted) != {"const"} or not isinstance(wanted["const"], str) \
                        or test["required"] != [key]:
                    break
                keys.add(key)
                cases[wanted["const"]] = part["then"]
            else:
                self.switches[id(fragment)] = (keys.pop(), cases) if len(keys) == 1 else None
            self.switches.setdefault(id(fragment), None)
        return self.switches[id(fragment)]

    def types(self, fragment: dict) -> set:
        """The JSON types a fragment may accept (empty: any)."""
        fragment = self.resolve(fragment)
        if "type" in fragment:
            wanted = fragment["type"]
            return {wanted} if isinstance(wanted, str) else set(wanted)
        if "enum" in fragment or "const" in fragment:
            return {json_type(v) for v in fragment.get("enum", [fragment.get("const")])}
        if "anyOf" in fragment:
            kinds = [self.types(alternative) for alternative in fragment["anyOf"]]
            return set() if any(not k for k in kinds) else set().union(*kinds)
        return set()

    def words(self, fragment: dict) -> str:
        """What a value that fits the fragment is, in words: "a whole number from 1 to 12"."""
        fragment = self.resolve(fragment)
        if "x-words" in fragment:
            return fragment["x-words"]
        if "enum" in fragment:
            return "one of " + ", ".join(_plain(choice) for choice in fragment["enum"])
        if "const" in fragment:
            return _plain(fragment["const"])
        if "anyOf" in fragment:
            return " or ".join(self.words(alternative) for alternative in fragment["anyOf"])
        wanted = fragment.get("type", [])
        wanted = [wanted] if isinstance(wanted, str) else wanted
        if not wanted:
            return "a value"
        return " or ".join(self.list_words(fragment) if kind == "array" else
                           SINGULARS[kind] + self.bounds(fragment) for kind in wanted)

    def plural(self, fragment: dict) -> str:
        fragment = self.resolve(fragment)
        if "enum" in fragment:
            return ", ".join(_plain(choice) for choice in fragment["enum"])
        if "anyOf" in fragment:
            return " or ".join(self.plural(alternative) for alternative in fragment["anyOf"])
        wanted = fragment.get("type", [])
        wanted = [wanted] if isinstance(wanted, str) else wanted
        if not wanted:
            return "values"
        return " or ".join(PLURALS[kind] + self.bounds(fragment) for kind in wanted)

    def list_words(self, fragment: dict) -> str:
        least, most = fragment.get("minItems"), fragment.get("maxItems")
        if least is not None and least == most:
            count = f"a list of {least} "
        elif least is not None and most is not None:
            count = f"a list of {least} to {most} "
        elif least == 1:
            count = "a non-empty list of "
        elif least:
            count = f"a list of at least {least} "
        elif most is not None:
            count = f"a list of at most {most} "
        else:
            count = "a list of "
        return count + (self.plural(fragment["items"]) if "items" in fragment else "values")

    @staticmethod
    def bounds(fragment: dict) -> str:
        low, high = fragment.get("minimum"), fragment.get("maximum")
        above, below = fragment.get("exclusiveMinimum"), fragment.get("exclusiveMaximum")
        if above is not None and below is not None:
            return f" between {_number(above)} and {_number(below)}"
        if low is not None and high is not None:
            return f" from {_number(low)} to {_number(high)}"
        parts = [f">= {_number(low)}" if low is not None else "",
                 f"> {_number(above)}" if above is not None else "",
                 f"<= {_number(high)}" if high is not None else "",
                 f"< {_number(below)}" if below is not None else ""]
        parts = [part for part in parts if part]
        return " " + " and ".join(parts) if parts else ""

    def message(self, fragment: dict, value, key, whole: dict | None = None,
                about: str | None = None) -> str:
        """The message for ``value`` (at ``key``) that does not fit ``fragment``: its
        ``x-hint``, or what it must be and what the key is for.  ``whole``: the list the value
        is an item of; ``about``: the key's description, where ``fragment`` is a part of
        the key's schema."""
        fragment = self.resolve(fragment)
        if whole is not None and "x-hint" not in fragment:
            outer = self.resolve(whole)
            if "x-words" in fragment:
                return f"{_shown(value)} in {key} is not {fragment['x-words']}"
            return self.message(outer, value, key, about=about)
        if "x-hint" in fragment:
            choices = ", ".join(_plain(choice) for choice in fragment.get("enum", ()))
            return fragment["x-hint"].format(key=key, value=value, choices=choices)
        about = fragment.get("description", about)
        return f"{key} must be {self.words(fragment)}" + (f": {about}" if about else "")

    # -- checking --------------------------------------------------------------------------
    def refuse(self, fragment, value, line, key, whole, about) -> tuple[list, object]:
        message = "" if self.quiet else self.message(fragment, value, key, whole, about)
        return [Finding(line, message, key)], REFUSED

    def fits(self, fragment: dict, value, line: int, key=None) -> bool:
        """Whether ``value`` fits, without a word on why not."""
        self.quiet += 1
        try:
            return not self.check(fragment, value, line, key)[0]
        finally:
            self.quiet -= 1

    def check(self, fragment: dict, value, line: int, key=None,
              whole: dict | None = None, about: str | None = None) -> tuple[list, object]:
        """``(problems, clean value)`` of ``value`` (written at ``line``, the value of
        ``key``): ``problems`` lists ``Finding``s; the clean value is ``REFUSED``
        where the value does not fit at all.  ``whole``: the list ``value`` is an item of;
        ``about``: the key's description, where ``fragment`` is part of its schema."""
        if fragment.get("$ref") in self.sections:
            return [], value
        fragment = self.resolve(fragment)
        about = fragment.get("description", about)
        if "anyOf" in fragment:
            # only the alternatives of the value's type can fit it
            outcomes = [self.check(alternative, value, line, key, about=about)
                        for alternative in fragment["anyOf"]
                        if _fits_type(self.types(alternative) or json_type(value), value)]
            fitting = [clean for problems, clean in outcomes if not problems]
            if fitting:
                value = fitting[0]
            elif len(outcomes) == 1 and isinstance(value, (list, dict)) \
                    and "x-hint" not in fragment and whole is None:
                return outcomes[0]    # a list or mapping of its one shape: what is inside
            else:
                return self.refuse(fragment, value, line, key, whole, about)
        if ("type" in fragment and not _fits_type(fragment["type"], value)) \
                or not self.fits_scalar(fragment, value):
            return self.refuse(fragment, value, line, key, whole, about)
        if isinstance(value, list):
            return self.check_list(fragment, value, line, key, whole, about)
        if isinstance(value, dict):
            return self.check_mapping(fragment, value, line, key, whole, about)
        return [], value

    def fits_scalar(self, fragment: dict, value) -> bool:
        """``enum``, ``const``, the bounds of numbers, ``pattern`` and ``minLength``."""
        if "enum" in fragment and not any(_same(value, c) for c in fragment["enum"]):
            return False
        if "const" in fragment and not _same(value, fragment["const"]):
            return False
        if json_type(value) in ("integer", "number"):
            for bound, fits in (("minimum", lambda b: value >= b),
                                ("maximum", lambda b: value <= b),
                                ("exclusiveMinimum", lambda b: value > b),
                                ("exclusiveMaximum", lambda b: value < b)):
                if bound in fragment and not fits(fragment[bound]):
                    return False
        if isinstance(value, str):
            if "pattern" in fragment and not re.search(fragment["pattern"], value):
                return False
            if len(value) < fragment.get("minLength", 0):
                return False
        return True

    def check_list(self, fragment, value, line, key, whole, about) -> tuple[list, object]:
        """A list fits whole or not at all; but a mapping among its items that does not
        fit is only left out of it (a leaderboard's other columns are still read)."""
        least, most = fragment.get("minItems", 0), fragment.get("maxItems")
        if len(value) < least or (most is not None and len(value) > most):
            return self.refuse(fragment, value, line, key, whole, about)
        if "items" not in fragment:
            return [], value
        mappings = self.types(fragment["items"]) == {"object"}
        problems, dropped, refused = [], [], False
        for index, item in enumerate(value):
            item_line = value.line_of(index) if isinstance(value, LocatedList) else line
            item_problems, _ = self.check(fragment["items"], item, item_line, key,
                                          whole=fragment, about=about)
            problems += item_problems
            if item_problems and mappings and isinstance(item, dict):
                dropped.append(index)
            elif item_problems:
                refused = True
        if refused:
            return problems, REFUSED
        if not dropped:
            return problems, value
        if isinstance(value, LocatedList):
            return problems, value.without(dropped)
        return problems, [item for index, item in enumerate(value) if index not in dropped]

    def check_mapping(self, fragment, value, line, key, whole, about) -> tuple[list, object]:
        """A mapping loses the keys whose values do not fit (and remembers them); it is
        refused whole only for the number of its keys (a tree's one root)."""
        def line_of(name):
            return value.line_of(name) if isinstance(value, LocatedDict) else line
        if len(value) < fragment.get("minProperties", 0) or len(value) > fragment.get(
                "maxProperties", len(value)):
            return self.refuse(fragment, value, line, key, whole, about)
        problems, refused, cleaned = [], set(), {}
        properties = fragment.get("properties", {})
        extra = fragment.get("additionalProperties", True)
        for name, item in value.items():
            if name in properties:
                item_problems, clean = self.check(properties[name], item, line_of(name), name)
            elif extra is False:
                template = fragment.get("x-unknown", "unknown key {key!r}; known keys here: "
                                                     "{known}")
                item_problems, clean = [Finding(line_of(name), template.format(
                    key=name, known=", ".join(map(str, properties)) or "none"), name,
                    unknown=True)], REFUSED
            elif isinstance(extra, dict):
                item_problems, clean = self.check(extra, item, line_of(name), name)
            else:
                continue
            problems += item_problems
            if item_problems and self.quiet:
                return problems, REFUSED        # whether it fits is all an if: asks
            if clean is REFUSED:
                refused.add(name)
            elif clean is not item:
                cleaned[name] = clean
        for name in fragment.get("required", ()):
            if name not in value:
                wanted = self.resolve(properties.get(name, {}))
                missing = wanted.get("x-missing") or (
                    f"{name} is missing: {wanted['description']}" if "description" in wanted
                    else f"{name} is missing")
                problems.append(Finding(line, missing, name))
        switch = self.switch(fragment) if "allOf" in fragment else None
        if switch is not None:       # the one part whose if: holds, found by its key's value
            chosen = value.get(switch[0])
            if isinstance(chosen, str) and chosen in switch[1]:
                problems += self.check(switch[1][chosen], value, line, key)[0]
        else:
            for part in fragment.get("allOf", ()):
                problems += self.check(part, value, line, key)[0]
        if "if" in fragment:
            branch = "then" if self.fits(fragment["if"], value, line, key) else "else"
            if branch in fragment:
                problems += self.check(fragment[branch], value, line, key)[0]
        if not refused and not cleaned:
            return problems, value
        if isinstance(value, LocatedDict):
            clean = value.without(refused)
        else:
            clean = {name: item for name, item in value.items() if name not in refused}
        clean.update(cleaned)
        return problems, clean
