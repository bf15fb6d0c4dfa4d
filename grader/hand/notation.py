"""The ways people write the same answer, read one value at a time.

Every reader takes what the answer file held at one place (text, ``None`` for an empty
field, a list or a mapping of such) and returns ``(value, problem)``: the value in the
grader's form, or ``None`` and a problem ``(key, facts)`` whose words are in the message
catalogue (``reason.hand.file`` lists them).  Nothing here raises on what a student wrote.

Accepted, case and spacing aside:

* numbers: ``3``, ``-2``, ``−2`` (the minus sign), ``2.5``, ``2,5`` (a decimal comma),
  ``1e3``; finite, at most 10^15 in size; never NaN;
* infinities (interval bounds only): ``inf``, ``+inf``, ``infinity``, ``∞``, ``+∞``,
  ``unendlich``, ``.inf``, ``oo``, ``\\infty``, each with ``-``, ``−`` or ``–`` for −∞;
* "not visited" (a pruned node's interval or returned value): ``-``, ``—``, ``x``,
  ``pruned``, ``cut``, ``abgeschnitten``, ``nicht besucht``, ``not visited``, ``✂``;
* intervals: ``[3, inf]``, ``(3, ∞)``, ``3, inf``, ``[2,5; 3]`` (with ``;`` between the bounds
  a decimal comma is a comma), ``α=3, β=9``, a list ``[3, .inf]`` or a mapping
  ``{alpha: 3, beta: inf}`` (also ``α``/``β``, ``a``/``b``);
* node names in any case (``c`` is ``C``) when the tree has no two names that differ only in
  case;
* edges: ``C->G``, ``C -> G``, ``C→G``, ``C-G``, ``(C, G)`` or the child alone, ``G``;
* orders: ``[F, E, G]``, ``F, E, G``, ``F E G``, ``F > E > G``, ``FEG`` (one-letter names).
"""

from __future__ import annotations

import math
import re

MAX_TEXT = 40            # characters of one number
MAX_MAGNITUDE = 1e15     # larger numbers are typing accidents, not answers
MINUS = "-−–"            # hyphen-minus, minus sign, en dash
INFINITY = {"inf", "infinity", "∞", "unendlich", ".inf", "oo", "\\infty", "infty",
            "unendl.", "unendl"}
PRUNED = {"-", "—", "–", "−", "x", "/", "pruned", "cut", "cut off", "abgeschnitten",
          "geschnitten", "nicht besucht", "not visited", "unvisited", "✂", "n/a", "none",
          "keiner", "nicht", "--"}
NONE_WORDS = {"none", "keine", "keiner", "no", "nein", "-", "—", "[]", "leer", "empty"}
_NUMBER = re.compile(r"^[+-]?(\d+([.,]\d+)?|[.,]\d+)([eE][+-]?\d+)?$")
_ALPHA_BETA = re.compile(r"^\s*(?:α|alpha|a)\s*[=:]\s*(.+?)\s*[,;]\s*(?:β|beta|b)\s*[=:]\s*"
                         r"(.+?)\s*$", re.IGNORECASE)
_ARROW = re.compile(r"^\s*\(?\s*(.+?)\s*(?:-+>|→|⟶|=>|->|—|–|-|,|\s)\s*(.+?)\s*\)?\s*$")
_SEPARATORS = re.compile(r"\s*(?:,|;|>|→|->|\s)\s*")


def _clean(text: str) -> str:
    return " ".join(str(text).split()).strip()


def is_empty(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def is_pruned(value) -> bool:
    """Whether the student wrote "not visited" here."""
    return isinstance(value, str) and _clean(value).casefold() in PRUNED


def number(value, infinite: bool = False):
    """A finite number (``infinite``: or ±∞) from what the student wrote."""
    if isinstance(value, (list, dict)):
        return None, ("not-number", {"given": _shown(value)})
    text = _clean(value)
    if not text:
        return None, ("empty", {})
    if len(text) > MAX_TEXT:
        return None, ("too-long", {"length": len(text)})
    sign = 1
    body = text.replace(" ", "")
    if body and body[0] in MINUS:
        sign, body = -1, body[1:]
    elif body.startswith("+"):
        body = body[1:]
    folded = body.casefold()
    if folded in INFINITY:
        if not infinite:
            return None, ("infinite", {"given": text})
        return sign * math.inf, None
    if folded in ("nan", ".nan"):
        return None, ("nan", {"given": text})
    if not _NUMBER.match(body):
        return None, ("not-number", {"given": text})
    plain = body.replace(",", ".")
    try:
        result = int(plain) if re.fullmatch(r"\d+", plain) else float(plain)
    except (ValueError, OverflowError):
        return None, ("not-number", {"given": text})
    if isinstance(result, float) and not math.isfinite(result) or abs(result) > MAX_MAGNITUDE:
        return None, ("too-large", {"given": text})
    return sign * result, None


def interval(value):
    """``([alpha, beta], None)``, ``("pruned", None)`` or ``(None, problem)``."""
    if is_pruned(value):
        return "pruned", None
    if isinstance(value, dict):
        low = _pick(value, ("alpha", "α", "a", "low", "unten", "von"))
        high = _pick(value, ("beta", "β", "b", "high", "oben", "bis"))
        if low is None or high is None:
            return None, ("interval-shape", {"given": _shown(value)})
        parts = [low, high]
    elif isinstance(value, list):
        if len(value) != 2:
            return None, ("interval-shape", {"given": _shown(value)})
        parts = value
    elif isinstance(value, str):
        text = _clean(value)
        named = _ALPHA_BETA.match(text)
        if named:
            parts = [named.group(1), named.group(2)]
        else:
            inner = text
            if inner[:1] in "[(⟨<" and inner[-1:] in "])⟩>":
                inner = inner[1:-1]
            parts = inner.split(";") if ";" in inner else inner.split(",")
            if len(parts) != 2:
                return None, ("interval-shape", {"given": text})
    else:
        return None, ("interval-shape", {"given": _shown(value)})
    bounds = []
    for part in parts:
        bound, problem = number(part, infinite=True)
        if problem:
            return None, ("interval-bound", {"given": _shown(value), "bound": _shown(part),
                                             "why": problem[0]})
        bounds.append(bound)
    return bounds, None


def _pick(mapping: dict, names):
    for key, item in mapping.items():
        if isinstance(key, str) and key.strip().casefold() in names:
            return item
    return None


class Names:
    """The tree's node names, found in any case (unless two differ only in case)."""

    def __init__(self, names):
        self.names = list(names)
        self.exact = set(self.names)
        folded: dict = {}
        for name in self.names:
            folded.setdefault(name.casefold(), []).append(name)
        self.folded = {key: found[0] for key, found in folded.items() if len(found) == 1}

    def find(self, text):
        if not isinstance(text, str):
            return None
        text = _clean(text).strip("\"'`")
        for prefix in ("knoten ", "node "):
            if text.casefold().startswith(prefix) and text[len(prefix):] in self.exact | set(
                    self.folded) | {k.upper() for k in self.folded}:
                text = text[len(prefix):]
        if text in self.exact:
            return text
        return self.folded.get(text.casefold())

    def node(self, text):
        """``(name, None)`` or ``(None, problem)``."""
        found = self.find(text)
        if found is None:
            return None, ("unknown-node", {"given": _shown(text)})
        return found, None


def edge(value, names: Names, parent_of: dict):
    """The child an edge leads to: ``C->G``, ``(C, G)`` or ``G`` all give ``G``."""
    if isinstance(value, list) and len(value) == 2:
        value = f"{value[0]}->{value[1]}"
    if not isinstance(value, str):
        return None, ("edge-shape", {"given": _shown(value)})
    text = _clean(value)
    whole = names.find(text)
    if whole is not None:
        if whole not in parent_of:
            return None, ("edge-root", {"given": text})
        return whole, None
    match = _ARROW.match(text)
    if not match:
        return None, ("unknown-node" if len(text.split()) == 1 else "edge-shape",
                      {"given": text})
    parent, child = names.find(match.group(1)), names.find(match.group(2))
    if parent is None or child is None:
        return None, ("unknown-node", {"given": match.group(1) if parent is None
                                       else match.group(2)})
    if parent_of.get(child) != parent:
        return None, ("not-an-edge", {"parent": parent, "child": child})
    return child, None


def edges(value, names: Names, parent_of: dict):
    """A list of edges: a YAML list, or one text with commas, semicolons or line breaks
    between them.  ``([child, ...], [problem, ...])``; "none" is the empty list."""
    if is_empty(value):
        return [], []
    if isinstance(value, str):
        text = value.strip()
        if text.casefold() in NONE_WORDS:
            return [], []
        items = [part for part in re.split(r"[;\n]|,(?![^()]*\))", text) if part.strip()]
        if len(items) == 1 and "," in text and "(" in text:
            items = [text]
    elif isinstance(value, list):
        items = value
    else:
        return [], [("edge-shape", {"given": _shown(value)})]
    children, problems = [], []
    for item in items:
        child, problem = edge(item, names, parent_of)
        if problem:
            problems.append(problem)
        elif child not in children:
            children.append(child)
    return children, problems


def order(value, children: list, names: Names):
    """A permutation of ``children`` from a list or a text; ``(order, None)`` or a problem."""
    if isinstance(value, list):
        items = value
    elif isinstance(value, str):
        text = _clean(value).strip("[]()")
        items = [part for part in _SEPARATORS.split(text) if part]
        if len(items) == 1 and len(text) == len(children) and all(
                names.find(char) in children for char in text):
            items = list(text)
    else:
        return None, ("order-shape", {"given": _shown(value)})
    found = []
    for item in items:
        name = names.find(item) if isinstance(item, str) else None
        if name is None:
            return None, ("unknown-node", {"given": _shown(item)})
        found.append(name)
    if sorted(found) != sorted(children):
        return None, ("not-a-permutation", {"given": found, "children": list(children)})
    return found, None


def count(value):
    """A whole number of nodes (``16``, ``16 Knoten``, ``16 nodes``)."""
    if not isinstance(value, str):
        return None, ("not-count", {"given": _shown(value)})
    text = _clean(value)
    text = re.sub(r"\s*(knoten|nodes?)\s*$", "", text, flags=re.IGNORECASE)
    if not re.fullmatch(r"\d{1,9}", text):
        return None, ("not-count", {"given": _clean(value)})
    return int(text), None


def _shown(value) -> str:
    """What the student wrote, as the feedback quotes it (short)."""
    if value is None:
        return ""
    if isinstance(value, list):
        text = "[" + ", ".join(_shown(v) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in value.items()) + "}"
    else:
        text = _clean(value)
    return text if len(text) <= 60 else text[:57] + "…"


def show(value) -> str:
    """A value as the feedback writes it: ``3``, ``2.5``, ``−2``, ``−∞``, ``+∞``; a utility
    vector ``(1, 2, 6)``; "not visited" ``✂``; nothing ``—``."""
    if value is None:
        return "—"
    if value == "pruned":
        return "✂"
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(show(v) for v in value) + ")"
    if isinstance(value, float):
        if math.isinf(value):
            return "+∞" if value > 0 else "−∞"
        if value.is_integer() and abs(value) < 1e15:
            return show(int(value))
        return f"{value:g}".replace("-", "−")
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return f"−{-value}"
    return str(value)


def show_interval(value) -> str:
    """``[3, +∞]``; "not visited" ``✂``; nothing ``—``."""
    if value is None or value == "pruned":
        return show(value)
    return f"[{show(value[0])}, {show(value[1])}]"


def same(a, b) -> bool:
    """Equal answers: numbers to 1e-9 (±∞ equal only themselves), vectors element by
    element, intervals bound by bound, "pruned" only itself."""
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple))
                and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b)))
    if a is None or b is None:
        return a is b
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
