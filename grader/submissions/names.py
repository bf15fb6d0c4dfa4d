"""How a submission is named: its entry's name escaped for people (``display_name``: no
terminal escapes, bidi overrides or bytes that are not UTF-8), a unique id safe as a folder
name under ``reports/`` (``safe_id``), an archive's name without its suffix, and a member's
path component made safe."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")
# Names of what a batch writes beside the per-student folders in reports/ (compared without
# case, so that reports copied to a case-insensitive file system stay apart).
RESERVED_NAMES = frozenset({"gradebook.csv", "moodle.csv", "moodle-worksheet.csv", "ilias.csv",
                            "moodle-feedback.zip", "ilias-status.csv", "ilias-feedback.zip",
                            "junit.xml", "summary.html", "check"})
MAX_ID_CHARS = 80                   # a student id
_BIDI_CONTROLS = frozenset([*range(0x202A, 0x202F), *range(0x2066, 0x206A),
                            0x200E, 0x200F, 0x061C])


def _is_control(char: str) -> bool:
    code = ord(char)
    return (code < 0x20 or 0x7F <= code <= 0x9F or code in _BIDI_CONTROLS
            or code in (0x2028, 0x2029))       # line/paragraph separators break report lines


def escape_controls(text: str) -> str:
    """``text`` with control characters and bidi controls as ``\\xNN``/``\\uNNNN``."""
    return "".join((f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
                   if _is_control(c) else c for c in text)


def raw_name(name: str) -> bytes:
    """The bytes a name stands for (``surrogateescape`` as the OS gave it)."""
    try:
        return os.fsencode(name)
    except UnicodeEncodeError:          # a lone surrogate that no OS name can hold
        return name.encode("utf-8", "surrogatepass")


def display_name(name: str) -> str:
    """A name for people: bytes that are not UTF-8 as ``\\xNN``, controls escaped."""
    return escape_controls(raw_name(name).decode("utf-8", "backslashreplace"))


def display_path(parts) -> str:
    return "/".join(display_name(part) for part in parts)


def safe_id(name: str) -> str:
    """The id part of a name: letters, digits, ``-_.`` and space, nothing else."""
    text = unicodedata.normalize("NFC", raw_name(name).decode("utf-8", "replace"))
    kept = "".join(c if c in "-_. " or unicodedata.category(c) in ("Lu", "Ll", "Lt", "Lm",
                                                                      "Lo", "Nd") else "_"
                   for c in text)
    # No leading dot (hidden; "." and "..") or dash (read as an option); no trailing dot or
    # space (Windows drops them when reports are copied there).
    kept = kept.lstrip(".- ")[:MAX_ID_CHARS].rstrip(". ")
    return kept or "submission"


def with_suffix(base: str, number: int) -> str:
    # "~" never survives safe_id, so a suffixed id cannot equal anyone's plain id.
    suffix = f"~{number}"
    return base[: MAX_ID_CHARS - len(suffix)] + suffix


def archive_stem(path: Path) -> str | None:
    """The name without its archive suffix (``anna.tar.gz`` -> ``anna``), None if none."""
    for suffix in ARCHIVE_SUFFIXES:
        if path.name.lower().endswith(suffix):
            return path.name[: -len(suffix)]
    return None


def safe_component(part: str) -> str:
    # Bytes that were not UTF-8 (surrogates from tar), controls and bidi overrides become "_";
    # everything else the file system can hold is kept, so imports by name still work.
    return "".join("_" if unicodedata.category(c) == "Cs" or _is_control(c) else c
                   for c in part)
