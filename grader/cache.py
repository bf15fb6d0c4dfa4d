"""The grader's cache folder: where it is, whether it may be used, the files it keeps (each a
regular file of ours that nobody else can write, replaced in one step), and the exact JSON
encoding they are stored in.

Its stores: the reference answers (``grader.answers.cache``), parsed YAML (``grader.yamlsrc``),
compiled templates (``grader.report.compiled``) and the runner's bytecode
(``grader.sandbox.staging``).  What it must never do:

* execute anything it reads: a kept file is JSON (never pickle), parsed without ``NaN`` or
  ``Infinity`` literals, or bytecode read only from a file of ours;
* trust a file it cannot vouch for: one that is not a regular file of ours writable only by
  us is not read;
* make grading fail: a cache folder that cannot be read or written is skipped in silence.

JSON knows only lists, string-keyed objects, finite numbers, strings, booleans and null, so
the encoding marks what it cannot say directly with an object whose only keys are ``$`` (the
tag) and ``v``: ``{"$": "tuple", "v": [...]}``, ``{"$": "float", "v": "inf"}`` (also
``-inf``, ``nan``) and ``{"$": "dict", "v": [[key, value], ...]}`` for a dict with a key that
is not a string, or that holds the key ``$`` itself.  A loaded value is then equal to the
stored one in value *and* type, down to tuples and integer keys.  A value holding anything
else (a ``str`` subclass, a set, an object) is not stored at all.

Where: ``$GRADER_CACHE_DIR``, else ``$XDG_CACHE_HOME/gametree-grader``, else
``~/.cache/gametree-grader``.  ``GRADER_NO_CACHE=1`` (or ``--no-cache``) turns it off.  The
sandbox mounts no home directory and no cache folder, so student code never sees it.
"""

from __future__ import annotations

import json
import math
import os
import stat
import tempfile
from pathlib import Path

CACHE_DIR_VARIABLE = "GRADER_CACHE_DIR"
DISABLE_VARIABLE = "GRADER_NO_CACHE"


# -- where --------------------------------------------------------------------------------

def enabled() -> bool:
    return os.environ.get(DISABLE_VARIABLE, "").strip().lower() in ("", "0", "no", "false")


def cache_dir() -> Path:
    if os.environ.get(CACHE_DIR_VARIABLE):
        return Path(os.environ[CACHE_DIR_VARIABLE])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "gametree-grader"
    return Path.home() / ".cache" / "gametree-grader"


# -- the files it keeps --------------------------------------------------------------------

def private_folder(name: str) -> Path | None:
    """``name`` inside the cache folder, made if need be (mode 0700), or None when the cache
    is turned off or the folder or the cache folder is not ours alone."""
    if not enabled():
        return None
    folder = cache_dir() / name
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not (ours(os.lstat(folder)) and ours(os.lstat(folder.parent))):
            return None
    except OSError:
        return None
    return folder


def kept_file(path: Path) -> bool:
    """Whether ``path`` is a regular file of ours that nobody else can write (a link in its
    place is not followed): the only kind a store of the cache folder reads.  For a reader
    that opens the file itself (Jinja's); others use ``read_kept``."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and ours(info)


def read_kept(path: Path) -> bytes | None:
    """The content of ``path`` if it is a regular file of ours that nobody else can write
    (checked on the file opened, a link in its place not followed), else None."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        with os.fdopen(handle, "rb") as opened:
            info = os.fstat(opened.fileno())
            if not (stat.S_ISREG(info.st_mode) and ours(info)):
                return None
            return opened.read()
    except OSError:
        return None


def kept_json(path: Path, form: str) -> dict | None:
    """The JSON object kept as ``path`` (``read_kept``) whose ``format`` is ``form``, or
    None; no ``NaN`` or ``Infinity`` literals."""
    content = read_kept(path)
    if content is None:
        return None
    try:
        kept = json.loads(content, parse_constant=refuse_constant)
    except (ValueError, RecursionError):
        return None
    return kept if type(kept) is dict and kept.get("format") == form else None


def keep(path: Path, content: bytes) -> bool:
    """``content`` as ``path`` (mode 0600), replaced in one step; False if it could not be."""
    temporary = None
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".")
        with os.fdopen(handle, "wb") as out:
            out.write(content)
        os.replace(temporary, path)
        temporary = None
        return True
    except OSError:
        return False
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass


def prune(folder: Path, pattern: str, keep_files: int) -> None:
    """Remove all but the newest ``keep_files`` files of ``folder`` matching ``pattern``."""
    files = []
    for path in folder.glob(pattern):
        try:
            files.append((path.stat().st_mtime, path))
        except OSError:
            pass
    for _, path in sorted(files, reverse=True)[keep_files:]:
        try:
            path.unlink()
        except OSError:
            pass


def ours(info: os.stat_result) -> bool:
    """Ours and writable by nobody else: a file another user could have planted or changed
    (a shared cache folder) is not trusted with answers that grades depend on."""
    if not hasattr(os, "geteuid"):
        return False    # Windows: no owner to check, so nothing is kept or read there
    return (info.st_uid == os.geteuid()
            and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
            and (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)))


# -- beside the installed grader ---------------------------------------------------------
# What the grader computes from its own files alone (compiled templates, the runner's
# bytecode) is also kept beside the installed package, in ``__pycache__`` as Python keeps its
# own bytecode, so that a new, empty cache folder (a CI runner's, the first check after a task
# file changed) finds it there.  It is written only where the package is ours, and read only
# from a regular file in a folder, both ours or the package's owner's and writable by nobody
# else: whoever could plant a file there could edit the grader's own modules.

def shipped_folder(package: Path, name: str, write: bool = False) -> Path | None:
    """``package/__pycache__/name`` (made if need be with ``write``, where ``package`` is
    ours), or None when the cache is turned off, the folder is missing or not trusted."""
    if not enabled() or not hasattr(os, "geteuid"):
        return None
    folder = package / "__pycache__" / name
    owners = {os.geteuid(), _owner(package)}
    try:
        if write and not folder.is_dir() and _owner(package) == os.geteuid():
            for made in (folder.parent, folder):
                made.mkdir(exist_ok=True)
                os.chmod(made, 0o755)
        info = os.lstat(folder)
    except OSError:
        return None
    if not (stat.S_ISDIR(info.st_mode) and info.st_uid in owners
            and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
        return None
    if write and info.st_uid != os.geteuid():
        return None
    return folder


def read_shipped(path: Path, package: Path) -> bytes | None:
    """The content of ``path`` in a ``shipped_folder`` of ``package`` if it is a regular file
    (a link not followed) of ours or the package's owner that nobody else can write."""
    owners = {os.geteuid(), _owner(package)}
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with os.fdopen(handle, "rb") as opened:
            info = os.fstat(opened.fileno())
            if not (stat.S_ISREG(info.st_mode) and info.st_uid in owners
                    and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
                return None
            return opened.read()
    except OSError:
        return None


def keep_shipped(path: Path, content: bytes) -> bool:
    """``content`` as ``path`` in a ``shipped_folder`` opened for writing, readable by every
    user of the installed grader (mode 0644), replaced in one step."""
    if not keep(path, content):
        return False
    try:
        os.chmod(path, 0o644)
    except OSError:
        return False
    return True


def _owner(path: Path) -> int | None:
    try:
        return os.stat(path).st_uid
    except OSError:
        return None


# -- the encoding -------------------------------------------------------------------------

class Unencodable(TypeError):
    """An answer holds a value the encoding cannot bring back with its exact type."""


_PLAIN = frozenset({str, int, bool, type(None)})   # JSON brings these back as they were


def encode(value):
    """``value`` as plain JSON data that ``decode`` turns back into an equal value of the same
    types; raises ``Unencodable`` for what it cannot."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is float:
        return value if math.isfinite(value) else {"$": "float", "v": repr(value)}
    if kind is list:
        if _PLAIN.issuperset(map(type, value)):   # most lists: node names (quick, in C)
            return value
        return [encode(item) for item in value]
    if kind is tuple:
        return {"$": "tuple", "v": [encode(item) for item in value]}
    if kind is dict:
        if "$" not in value and {str}.issuperset(map(type, value)):
            if _PLAIN.issuperset(map(type, value.values())):
                return value
            return {key: encode(item) for key, item in value.items()}
        return {"$": "dict", "v": [[encode(key), encode(item)] for key, item in value.items()]}
    raise Unencodable(f"cannot store a {kind.__module__}.{kind.__qualname__} exactly")


_NON_FINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


def _decode_object(pairs: dict):
    """json's object hook: objects come inside out, so tagged values inside are decoded."""
    if "$" not in pairs:
        return pairs
    if pairs.keys() != {"$", "v"}:
        raise ValueError("a tagged value has keys other than '$' and 'v'")
    tag, body = pairs["$"], pairs["v"]
    if tag == "float" and type(body) is str and body in _NON_FINITE:
        return _NON_FINITE[body]
    if tag == "tuple" and type(body) is list:
        return tuple(body)
    if tag == "dict" and type(body) is list and all(type(pair) is list and len(pair) == 2
                                                    for pair in body):
        return {key: item for key, item in body}   # an unhashable key raises TypeError
    raise ValueError(f"unknown tagged value {tag!r}")


def refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def decode(text: str | bytes):
    return json.loads(text, object_hook=_decode_object, parse_constant=refuse_constant)


def dumps(value) -> str:
    return json.dumps(encode(value), ensure_ascii=False, allow_nan=False,
                      separators=(",", ":"))
