"""Text that came from a submission, made safe for where it goes: spreadsheet cells, XML, the
terminal.  Student-supplied names, exception messages and output reach every export, so each
writer passes them through here.

- CSV: a cell that a spreadsheet would evaluate as a formula (starting with ``=``, ``+``,
  ``-``, ``@``, a tab or a carriage return) is prefixed with ``'``, as OWASP recommends for
  CSV injection, and control characters are shown as escapes; the csv module quotes.
- XML 1.0 cannot hold most control characters at all (a parser refuses the whole file):
  they are replaced by a visible ``\\xNN``.
- Terminal: escape sequences and other control characters a submission printed or was named
  with are shown as ``\\xNN`` instead of being interpreted by the terminal.
"""

from __future__ import annotations

import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# What XML 1.0 does not allow (its Char production, inverted over what a str can hold): the
# C0 controls but tab, newline and carriage return, surrogates, U+FFFE and U+FFFF.  Written
# as these few ranges, not as the allowed ones inverted, which take re 4 ms to compile.
_NOT_XML = re.compile("[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]")
# C0 and C1 controls, DEL, and the bidirectional overrides that can disguise a name.
_NOT_TERMINAL = re.compile("[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069"
                           "\ud800-\udfff]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_NOT_CELL = re.compile("[\u0000-\u001f\u007f-\u009f\ud800-\udfff]")


def csv_cell(value):
    """``value`` as a CSV cell that no spreadsheet evaluates (and that holds no line break
    or other control character: a name never needs one)."""
    if isinstance(value, str):
        if value.startswith(FORMULA_STARTS):
            value = "'" + value
        return _NOT_CELL.sub(_escape, value)
    return value


def xml_text(value):
    """``value`` with every character XML 1.0 cannot hold shown as an escape."""
    if isinstance(value, str):
        return _NOT_XML.sub(_escape, value)
    return value


def terminal_text(value: str) -> str:
    """``value`` with control characters (escape sequences among them) shown as escapes."""
    return _NOT_TERMINAL.sub(_escape, str(value))


def deep(value, clean):
    """``clean`` applied to every string inside dicts and lists (keys too)."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, list):
        return [deep(item, clean) for item in value]
    if isinstance(value, tuple):
        return tuple(deep(item, clean) for item in value)
    if isinstance(value, dict):
        return {deep(key, clean): deep(item, clean) for key, item in value.items()}
    return value
