"""Which task files fitted the schema when they were last read, kept in the cache folder so
that an unchanged file is not checked against the schema again (a fifth of a self-check's
reading of the bundled course).

A file is remembered by the SHA-256 of its text together with the schema (as ``grader
schema`` publishes it) and the sources of the checker (``validate.py``, ``sheet.py``): change
the file, the schema, a check kind's options or the checker, and it is checked again.  Only a
file that was read without any problem is remembered, so a file with a problem is checked,
and its problems listed, every time.  What ``grader.cache`` keeps is trusted only as a file
of ours that nobody else can write; with the cache turned off nothing is remembered.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

FOLDER = "fitted"
KEEP_FILES = 200        # remembered files (newest first); each edit of a task file adds one
_RULES: list[bytes] = []  # the schema and the checker's sources, read once per process


def _rules() -> bytes:
    if not _RULES:
        from .schema import schema
        digest = hashlib.sha256(json.dumps(schema(), sort_keys=True).encode())
        for source in ("validate.py", "sheet.py"):      # the checker, beside this module
            digest.update(Path(__file__).with_name(source).read_bytes())
        _RULES.append(digest.digest())
    return _RULES[0]


def _marker(text: bytes) -> Path | None:
    from ..cache import private_folder
    folder = private_folder(FOLDER)
    if folder is None:
        return None
    return folder / hashlib.sha256(_rules() + b"\0" + text).hexdigest()


def fitted_before(text: bytes) -> bool:
    """Whether ``text`` (a task file's bytes) fitted the schema when it was last read."""
    from ..cache import kept_file
    marker = _marker(text)
    return marker is not None and kept_file(marker)


def remember_fitted(text: bytes) -> None:
    """Remember that ``text`` was read without a problem (nothing if it cannot be kept)."""
    from ..cache import keep, prune
    marker = _marker(text)
    if marker is not None and keep(marker, b""):
        prune(marker.parent, "*", KEEP_FILES)
