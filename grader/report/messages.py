"""The message catalogue: every sentence a student or instructor reads, in German and English.

Entries in ``messages/<lang>.yaml`` are Jinja2 templates over a verdict's facts.  ``text``
renders for the terminal and Markdown, ``html`` renders with autoescaping, so markup a
student's code returned is shown, never interpreted.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

from ..yamlsrc import load_plain
from .compiled import bytecode_cache

LANGUAGES = ("de", "en")
MESSAGES_DIR = Path(__file__).parent / "messages"
MAX_LISTED = 12


class Catalogue:
    def __init__(self, language: str):
        if language not in LANGUAGES:
            raise ValueError(f"no messages in {language!r}; available: {', '.join(LANGUAGES)}")
        self.language = language
        self.entries = _entries(language)
        self.text_env = self._environment(autoescape=False)
        self.html_env = self._environment(autoescape=True)
        self._compiled: dict = {}  # (key, html) -> template: each entry is loaded once
        self._rendered: dict = {}  # (key, html, facts frozen) -> the sentence (``_render``)

    def _environment(self, autoescape: bool) -> jinja2.Environment:
        # An entry is a template named by its key; it may include another by its key,
        # {% include "match.games" %}, in the same context (the list of a match's games is
        # shared by its ok and its failure message).  Compiled entries are kept in the cache
        # folder, apart for the two environments (autoescaping compiles differently).
        env = jinja2.Environment(autoescape=autoescape, undefined=jinja2.ChainableUndefined,
                                 keep_trailing_newline=False,
                                 loader=jinja2.FunctionLoader(self._included),
                                 bytecode_cache=bytecode_cache(
                                     f"__messages_{'html' if autoescape else 'text'}_%s.cache"))
        env.filters.update(num=format_number, node=self.node, nodes=self.nodes,
                           action=self.action, actions=self.actions, board=format_board)
        return env

    def lookup(self, key: str) -> str:
        section, _, name = key.partition(".")
        entry = self.entries.get(section, {}).get(name)
        if entry is None:
            raise KeyError(f"no message {key!r} in the {self.language} catalogue")
        return entry

    def has(self, key: str) -> bool:
        section, _, name = key.partition(".")
        return name in self.entries.get(section, {})

    def _included(self, key: str):
        """The loader's answer for a key: its source, and as its file name the catalogue's
        (which the compiled entry is filed under: the same key in the other language is
        another entry)."""
        try:
            source = self.lookup(key)
        except KeyError:
            return None
        return source, f"{self.language}.yaml:{key}", _unchanged

    def _template(self, key: str, html: bool) -> jinja2.Template:
        template = self._compiled.get((key, html))
        if template is None:
            self.lookup(key)    # a KeyError naming the catalogue, not Jinja's TemplateNotFound
            env = self.html_env if html else self.text_env
            template = self._compiled[(key, html)] = env.get_template(key)
        return template

    def text(self, key: str, **facts) -> str:
        return self._render(key, False, facts)

    def html(self, key: str, **facts):
        from markupsafe import Markup
        return Markup(self._render(key, True, facts))

    def _render(self, key: str, html: bool, facts: dict) -> str:
        """The entry rendered with ``facts``, spaces collapsed.  A sentence depends on its
        key and facts alone, and most repeat from submission to submission (every correct
        search's messages have the same facts): one with small plain facts is rendered once
        per catalogue (at most ``MAX_RENDERED`` kept), which was a fifth of the time a
        worker spent rendering a student's files."""
        memo = _frozen(facts)
        if memo is not None:
            memo = (key, html, memo)
            known = self._rendered.get(memo)
            if known is not None:
                return known
        text = " ".join(self._template(key, html).render(**facts).split())
        if memo is not None:
            if len(self._rendered) >= MAX_RENDERED:
                self._rendered.clear()
            self._rendered[memo] = text
        return text

    # -- filters -----------------------------------------------------------------------
    def node(self, name) -> str:
        if name is None:
            return "—"
        return self.entries["word"]["root"] if name == "root" else str(name)

    def nodes(self, names) -> str:
        names = list(names or ())
        shown = ", ".join(self.node(n) for n in names[:MAX_LISTED])
        return shown + (f", … (+{len(names) - MAX_LISTED})" if len(names) > MAX_LISTED else "")

    def action(self, action) -> str:
        return self.entries["word"]["none"] if action is None else str(action)

    def actions(self, actions) -> str:
        return ", ".join(self.action(a) for a in actions or ()) or self.entries["word"]["none"]


MAX_RENDERED = 4096        # sentences a catalogue keeps (``Catalogue._render``)
MAX_FROZEN = 64            # values in the facts of a sentence that is kept


class _Unplain(Exception):
    """Facts that are not small plain data: their sentence is rendered every time."""


def _frozen(facts: dict):
    """A key that equal facts, and only they, share: every value with its exact type (a
    float by its repr: -0.0 is not 0.0, 1.0 not 1), dicts and lists in their order; None
    for facts with anything else in them (markup, objects) or more than ``MAX_FROZEN``
    values, which are rendered as they come."""
    budget = [MAX_FROZEN]

    def freeze(value):
        budget[0] -= 1
        if budget[0] < 0:
            raise _Unplain()
        kind = type(value)
        if kind is str or kind is int or kind is bool or value is None:
            return kind, value
        if kind is float:
            return kind, repr(value)
        if kind is list or kind is tuple:
            return kind, tuple(map(freeze, value))
        if kind is dict:
            return kind, tuple((freeze(name), freeze(item)) for name, item in value.items())
        raise _Unplain()

    try:
        return tuple((name, freeze(value)) for name, value in facts.items())
    except _Unplain:
        return None


def _unchanged() -> bool:
    """The catalogue does not change while a process runs."""
    return True


SHIPPED = "documents"       # the parsed catalogues beside the package (``_entries``)
SHIPPED_FORMAT = b"gametree-grader catalogue 1\0"


@lru_cache(maxsize=None)
def _entries(language: str) -> dict:
    """The catalogue of ``language``, parsed once, then read from the cache folder
    (``grader.yamlsrc``), and from beside the installed package (``grader.cache``'s
    ``shipped_folder``: the catalogue is the grader's own file, so a new, empty cache
    folder need not parse it, nor import PyYAML)."""
    import hashlib
    from ..cache import decode, dumps, keep_shipped, read_shipped, shipped_folder
    path = MESSAGES_DIR / f"{language}.yaml"
    package = Path(__file__).parent
    try:
        # the file's bytes and the form kept (grader.cache's exact JSON encoding)
        name = hashlib.sha256(SHIPPED_FORMAT + path.read_bytes()).hexdigest() + ".json"
    except OSError:
        name = None
    folder = shipped_folder(package, SHIPPED) if name else None
    content = read_shipped(folder / name, package) if folder is not None else None
    if content is not None:
        try:
            entries = decode(content)
        except (TypeError, ValueError, RecursionError):
            entries = None
        if type(entries) is dict:
            return entries
    entries = load_plain(path)
    folder = shipped_folder(package, SHIPPED, write=True) if name else None
    if folder is not None:
        try:
            keep_shipped(folder / name, dumps(entries).encode())
        except (TypeError, ValueError, RecursionError):
            pass
    return entries


def format_number(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, (list, tuple)):   # a utility vector of an n-player tree
        return "(" + ", ".join(format_number(v) for v in value) + ")"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return f"{value:.1f}"
    return str(value)


def format_board(board) -> str:
    if isinstance(board, str) and len(board) == 9:
        return "/".join(board[i:i + 3] for i in (0, 3, 6))
    return str(board)
