"""The templates' Jinja environment: every page, feedback file and export is rendered from
``templates/`` through it, with the filters they share (numbers, points, Markdown fences and
text) and the compiled templates kept in the cache folder (``compiled.py``).

A floor below every module that renders a page (the student's reports, the tournament's,
the sheets, the LMS exports): it renders nothing itself.
"""

from __future__ import annotations

import jinja2

from .compiled import bytecode_cache
from .messages import format_number

# The names a dict answers as attributes (its methods): for any other name, ``getattr`` on a
# dict fails and Jinja then reads the key, as below, only without the exception first.
_DICT_ATTRIBUTES = frozenset(dir(dict))


class _ViewEnvironment(jinja2.Environment):
    """Jinja's environment, reading ``view.name`` of a plain dict (every view the templates
    get is one) as its key at once.  Jinja tries the attribute first and reads the key after
    the AttributeError, which was a third of a student's pages (and of junit.xml, a dozen
    names for each check of each student); the result is the same, since a dict has no
    attribute by any other name than its methods', which still go to Jinja's order."""

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


TEMPLATES = _ViewEnvironment(
    bytecode_cache=bytecode_cache(),
    loader=jinja2.PackageLoader("grader.report", "templates"),
    autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2", "xml.j2", "svg.j2"),
                                       default=False),
    trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
TEMPLATES.filters["num"] = format_number
TEMPLATES.filters["pts"] = lambda points: f"{points:g}"


def _fence(text: str) -> str:
    """A Markdown code fence that ``text`` cannot close: longer than its longest run of
    backticks (at least three)."""
    import re
    runs = [len(run) for run in re.findall(r"`+", str(text))]
    return "`" * max(3, max(runs, default=0) + 1)


TEMPLATES.filters["fence"] = _fence


def md_text(text) -> str:
    """Text a submission may have written, for Markdown that is rendered (Gradescope): ``&``,
    ``<`` and ``>`` as entities, so that no HTML of its own is rendered; the rest as it is
    (quotes and apostrophes are no markup in Markdown's text)."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))


TEMPLATES.filters["md_text"] = md_text
