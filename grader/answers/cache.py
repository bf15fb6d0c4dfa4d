"""Reference answers kept on disk between runs, so that a self-check does not compute them again.

A cache file belongs to one *key*: the SHA-256 of the task files' contents, the sources of
every module the answers are computed with (``reference/``, ``grader/answers/`` and the
grader modules they import, followed through the import statements, see ``answer_sources``)
and the Python version.  Change any of them and the key changes, so a stale answer is never
found.  Inside the file, answers are filed by the hash of their call's key (``Call.key``).

A call's key holds everything its answer is computed from besides those sources and Python
(the tree or position, the depth, the cut rule, the model solution, a course's own game's
source, a heuristic table).  So when a course's key is not found (a task file was edited),
the answers of the newest file of the same *lineage* (the same sources, Python and task-file
names: an earlier version of the course) are taken for the calls whose key is unchanged, and
only the others are computed (``AnswerCache.load_earlier``): editing one task no longer
computes every random tree's answers again.

What this module must never do:

* execute anything it reads: the file is JSON (never pickle), parsed without ``NaN`` or
  ``Infinity`` literals, and every value in it is checked against the cache folder's exact
  encoding (``grader.cache``);
* trust a file it cannot vouch for: a file of another format, key or digest, or one that is
  not a regular file of ours writable only by us, is ignored and the answers computed again;
* make grading fail: a cache folder that cannot be read or written is skipped in silence.

Where the file lives, and how it is encoded and kept: ``grader.cache``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path

from ..cache import (Unencodable, cache_dir, decode, encode, enabled, keep, keep_shipped,
                     kept_json, ours, private_folder, prune, read_shipped, refuse_constant,
                     shipped_folder)

FORMAT = "gametree-grader answers 1"
PREFIX, SUFFIX = "answers-", ".json"
VARIANTS_PREFIX = "variants-"          # the catalogue's faulty variants' answers (``variants``)
MAX_FILE_BYTES = 256 * 1024 * 1024     # a file this large is not ours to read
KEEP_FILES = 20                        # cache files kept (newest first); older ones go
EARLIER_TRIED = 5                      # files looked at for an earlier version (load_earlier)

# Where the answers are computed (and kept): every module of these packages, and the modules
# they import, found from their sources.  The games are among them whole: the answers are
# searched with their rules, which ``grader.games`` imports by name when a game is first
# made, out of an import statement's sight.
ANSWER_PACKAGES = ("grader.answers", "grader.games", "reference")
PACKAGES = ("grader", "reference")


# -- the key ------------------------------------------------------------------------------

def _package_dirs() -> dict[str, Path]:
    import reference
    return {"grader": Path(__file__).resolve().parent.parent,
            "reference": Path(reference.__file__).resolve().parent}


def _module_file(name: str, roots: dict[str, Path]) -> Path | None:
    top, *rest = name.split(".")
    if top not in roots:
        return None
    base = roots[top].joinpath(*rest)
    for candidate in (base / "__init__.py", base.with_suffix(".py") if rest else None):
        if candidate is not None and candidate.is_file():
            return candidate
    return None


# Import statements, also inside functions (they run when the function does), also in
# parentheses over several lines.  Text in strings that reads like one only adds a module.
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)"
                     r"|import[ \t]+([^\n#;]*))", re.MULTILINE)


def _imported_names(source: str, module: str, is_package: bool) -> set[str]:
    """The absolute names of the modules ``module`` imports (and, for ``from X import y``,
    ``X.y``, which may be a module of its own).  A textual scan: parsing every source with
    ``ast`` would cost more than the answers it saves on a self-check."""
    package = module if is_package else module.rpartition(".")[0]
    names = set()
    for dots, origin, imported, plain in _IMPORT.findall(source.replace("\\\n", " ")):
        if plain:
            names.update(part.split()[0] for part in plain.split(",") if part.split())
            continue
        if dots:
            base = package.split(".")
            origin = ".".join(base[:len(base) - (len(dots) - 1)] + ([origin] if origin else []))
        names.add(origin)
        for part in re.sub(r"#[^\n]*", "", imported).strip("()").split(","):
            if part.split():
                names.add(f"{origin}.{part.split()[0]}")
    return names


def answer_sources() -> list[Path]:
    """The source files the reference answers depend on: every module of ``reference/`` and
    ``grader/answers/``, and every module of ``grader``/``reference`` they import, directly
    or through the modules those import (with their packages' ``__init__``)."""
    roots = _package_dirs()
    pending, seen, files = [], set(), set()
    for package in ANSWER_PACKAGES:
        top, _, rest = package.partition(".")
        folder = roots[top].joinpath(*rest.split(".")) if rest else roots[top]
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(roots[top]).with_suffix("").parts
            pending.append(".".join((top, *(parts[:-1] if parts[-1] == "__init__" else parts))))
    while pending:
        module = pending.pop()
        if module in seen:
            continue
        seen.add(module)
        path = _module_file(module, roots)
        if path is None:
            continue    # a third-party or standard module, or an attribute, not a module
        files.add(path)
        parts = module.split(".")
        pending += [".".join(parts[:end]) for end in range(1, len(parts))]   # its packages
        source = path.read_text(encoding="utf-8")
        pending += _imported_names(source, module, path.name == "__init__.py")
    return sorted(files)


def course_key(course) -> str:
    """The cache key of a course's answers (hex SHA-256; see the module docstring)."""
    return _keys(course)[0]


def _keys(course) -> tuple[str, str]:
    """``(key, lineage)``: the course's key, and what its files' earlier versions share with
    it (the sources, Python and the task files' names, not their contents)."""
    sources = sources_digest()
    digest = hashlib.sha256(FORMAT.encode())
    digest.update(f"\0python {sys.version}\0{sys.implementation.cache_tag}\0".encode())

    def add(label: str, content: bytes) -> None:
        digest.update(f"{label}\0{len(content)}\0".encode())
        digest.update(content)
    for file in course.files:
        add("task", Path(file).read_bytes())
    add("sources", sources.encode())
    lineage = hashlib.sha256(json.dumps(
        [FORMAT, "lineage", sys.version, sys.implementation.cache_tag, sources,
         [Path(file).name for file in course.files]]).encode()).hexdigest()
    return digest.hexdigest(), lineage


def _sources_digest_computed() -> str:
    """The SHA-256 of every answer source's place and content (``answer_sources``)."""
    digest = hashlib.sha256()
    roots = _package_dirs()
    for path in answer_sources():
        package = next(name for name, root in roots.items() if path.is_relative_to(root))
        content = path.read_bytes()
        digest.update(f"{package}/{path.relative_to(roots[package]).as_posix()}\0"
                      f"{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()


SOURCES = "sources"
RACY_SECONDS = 2.0     # a source changed this recently may change again unseen: not kept


def sources_digest() -> str:
    """``_sources_digest_computed()``, kept in the cache folder under a fingerprint of every
    module file of the packages: each one's place, size, inode and modification and change
    times (what git's index and make trust).  Finding the sources means reading and scanning
    some 80 files (about 11 ms of a self-check); the fingerprint is a listing of their
    metadata.  Any edit changes a file's change time, so its fingerprint; a digest is not
    kept while a file is younger than ``RACY_SECONDS``, since a second edit within the
    clock's granularity could leave every time as it was.  Where the fingerprint is new
    (a new install: new inodes and times), the digest is also found under a fingerprint of
    the files' contents (``_contents_fingerprint``)."""
    import time
    listing, newest = [], 0
    for package, root in sorted(_package_dirs().items()):
        for path, info in _module_files(root):
            newest = max(newest, info.st_mtime_ns, info.st_ctime_ns)
            listing.append(f"{package}/{path}\0{info.st_size}\0{info.st_ino}\0"
                           f"{info.st_mtime_ns}\0{info.st_ctime_ns}")
    fingerprint = hashlib.sha256("\n".join([FORMAT, sys.version, *listing]).encode(
        "utf-8", "surrogateescape")).hexdigest()
    folder = private_folder(SOURCES)
    path = folder / f"{fingerprint}.json" if folder is not None else None
    kept = kept_json(path, FORMAT) if path is not None else None
    if _digest_in(kept):
        return kept["digest"]
    # beside the installed grader too (grader.cache.shipped_folder): the digest follows from
    # the grader's own files, so a new, empty cache folder finds it there
    package = Path(__file__).parent
    shipped = shipped_folder(package, SOURCES)
    if shipped is not None:
        content = read_shipped(shipped / f"{fingerprint}.json", package)
        try:
            kept = json.loads(content, parse_constant=refuse_constant) if content else None
        except (ValueError, RecursionError):
            kept = None
        if _digest_in(kept):
            return kept["digest"]
    # by the files' contents too: a new install of the same grader (a CI runner's new virtual
    # environment each run, with the cache folder kept) has new inodes and times, and would
    # scan the sources again on every run
    by_content = private_folder(SOURCES_BY_CONTENT)
    contents = _contents_fingerprint() if by_content is not None else None
    kept = kept_json(by_content / f"{contents}.json", FORMAT) if contents else None
    if _digest_in(kept):
        digest = kept["digest"]
    else:
        digest = _sources_digest_computed()
        # kept only if no file changed while it was computed (read again: the same bytes)
        if contents is not None and newest < (time.time() - RACY_SECONDS) * 1e9 \
                and _contents_fingerprint() == contents:
            if keep(by_content / f"{contents}.json",
                    json.dumps({"format": FORMAT, "digest": digest}).encode()):
                prune(by_content, "*.json", KEEP_FILES)
    if path is not None and newest < (time.time() - RACY_SECONDS) * 1e9:
        content = json.dumps({"format": FORMAT, "digest": digest}).encode()
        if keep(path, content):
            prune(path.parent, "*.json", KEEP_FILES)
        shipped = shipped_folder(package, SOURCES, write=True)
        if shipped is not None and keep_shipped(shipped / path.name, content):
            prune(shipped, "*.json", KEEP_FILES)
    return digest


SOURCES_BY_CONTENT = "sources-by-content"


def _contents_fingerprint() -> str | None:
    """The SHA-256 of every module file of the packages, place and content (which of them
    the answers are computed with follows from these alone), or None where one cannot be
    read.  Reading them is a fifth of scanning the answer sources' imports."""
    digest = hashlib.sha256(f"{FORMAT}\0{sys.version}\0".encode())
    try:
        for package, root in sorted(_package_dirs().items()):
            for name in sorted(name for name, _ in _module_files(root)):
                content = (root / name).read_bytes()
                digest.update(f"{package}/{name}\0{len(content)}\0".encode(
                    "utf-8", "surrogateescape"))
                digest.update(content)
    except OSError:
        return None
    return digest.hexdigest()


def _digest_in(kept) -> bool:
    return (type(kept) is dict and kept.get("format") == FORMAT
            and type(kept.get("digest")) is str
            and re.fullmatch(r"[0-9a-f]{64}", kept["digest"]) is not None)


def _module_files(root: Path, relative: str = ""):
    """``(path inside root, lstat)`` of every ``*.py`` below ``root``, bytecode folders left
    out."""
    try:
        entries = list(os.scandir(root))
    except OSError:
        return
    for entry in entries:
        name = f"{relative}{entry.name}"
        if entry.is_dir(follow_symlinks=False):
            if entry.name != "__pycache__":
                yield from _module_files(Path(entry.path), f"{name}/")
        elif entry.name.endswith(".py"):
            yield name, entry.stat(follow_symlinks=False)


# -- the file -----------------------------------------------------------------------------

def encoded(answers) -> bytes:
    """``answers`` in the cache folder's exact encoding (``grader.cache.encode``: tuples,
    non-string keys and non-finite floats tagged), as UTF-8 JSON text that ``decode`` reads.
    The text is written by msgspec's encoder, which a check has imported for its sandbox's
    boundary: ``json.dumps`` took 45 ms of CPU for the bundled course's 1.3 MB of answers,
    msgspec 7 ms, the largest part of storing them on a cold self-check.  Its numbers read
    back as the same ints and floats (shortest round-trip form), its strings as the same
    text; where it cannot write a value, ``json`` does (or says why not)."""
    plain = encode(answers)
    try:
        import msgspec
        return msgspec.json.encode(plain)
    except ImportError:
        pass
    except (TypeError, OverflowError):
        pass    # not expected of plain data; json decides
    return json.dumps(plain, ensure_ascii=False, allow_nan=False,
                      separators=(",", ":")).encode()


class AnswerCache:
    """The cache file of one key: ``load`` what is there, ``save`` what is known."""

    def __init__(self, folder: Path, key: str, prefix: str = PREFIX,
                 lineage: str | None = None):
        """``lineage``: what the files of the course's earlier versions share with this one
        (``_keys``), written into the file's header; None: no earlier file is looked for."""
        self.folder, self.key, self.prefix = Path(folder), key, prefix
        self.lineage = lineage
        self.path = self.folder / f"{prefix}{key}{SUFFIX}"

    def variants(self) -> "AnswerCache":
        """The file of the same key for the answers of the mistake catalogue's faulty variants
        (``grader.mistakes``): only a failed check or a kit needs them, so a self-check of a
        correct search never reads them, and they can be far larger than the reference's."""
        return AnswerCache(self.folder, self.key, VARIANTS_PREFIX)

    @staticmethod
    def digest(call_key: str) -> str:
        """What an answer is filed under: its call's key can be long (random trees)."""
        return hashlib.sha256(call_key.encode()).hexdigest()

    @classmethod
    def for_course(cls, course) -> "AnswerCache | None":
        """The course's cache, or None when it is turned off or its key cannot be made."""
        if not enabled():
            return None
        try:
            key, lineage = _keys(course)
        except (OSError, ValueError):
            return None
        return cls(cache_dir(), key, lineage=lineage)

    def load(self) -> dict[str, list]:
        """Call digest -> answers, or {} when the file is absent or not to be trusted."""
        try:
            with open(self.path, "rb") as handle:
                info = os.fstat(handle.fileno())
                if not ours(info) or info.st_size > MAX_FILE_BYTES:
                    return {}
                header, _, payload = handle.read().partition(b"\n")
            meta = json.loads(header, parse_constant=refuse_constant)
            if (type(meta) is not dict or meta.get("format") != FORMAT
                    or meta.get("key") != self.key
                    or meta.get("digest") != hashlib.sha256(payload).hexdigest()):
                return {}
            answers = decode(payload)
        except (OSError, ValueError, TypeError, RecursionError, MemoryError):
            return {}
        if type(answers) is not dict or not all(
                type(digest) is str and type(items) is list
                and all(type(item) is dict for item in items)
                for digest, items in answers.items()):
            return {}
        return answers

    def load_earlier(self) -> dict[str, list]:
        """The answers of the newest other file of this one's lineage (an earlier version of
        the course's task files, computed with the same sources and Python), as ``load``
        reads them, or {}.  Only the newest ``EARLIER_TRIED`` files are looked at, and only
        their first line unless it names this lineage."""
        if self.lineage is None:
            return {}
        found = []
        for path in self.folder.glob(f"{self.prefix}*{SUFFIX}"):
            if path != self.path:
                try:
                    found.append((path.stat().st_mtime, path))
                except OSError:
                    pass
        for _, path in sorted(found, reverse=True)[:EARLIER_TRIED]:
            meta = _header(path)
            if meta is None or meta.get("lineage") != self.lineage \
                    or type(meta.get("key")) is not str:
                continue
            earlier = AnswerCache(self.folder, meta["key"], self.prefix, self.lineage)
            if earlier.path == path:    # the key its header names is the one of its name
                answers = earlier.load()
                if answers:
                    return answers
        return {}

    def save(self, answers: dict[str, list]) -> bool:
        """Write ``answers`` (call digest -> answers) atomically; False if it could not be."""
        try:
            payload = encoded(answers)
        except (Unencodable, ValueError, RecursionError):
            return False
        meta = {"format": FORMAT, "key": self.key}
        if self.lineage is not None:
            meta["lineage"] = self.lineage
        header = json.dumps({**meta, "digest": hashlib.sha256(payload).hexdigest()}).encode()
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not ours(os.stat(self.folder)):
                return False
        except OSError:
            return False
        if not keep(self.path, header + b"\n" + payload):
            return False
        self._forget_old()
        return True

    def _forget_old(self) -> None:
        """Keep the newest ``KEEP_FILES`` cache files: every edit of a task file makes one."""
        prune(self.folder, f"{self.prefix}*{SUFFIX}", KEEP_FILES)


HEADER_BYTES = 4096     # a header is one short line of JSON


def _header(path: Path) -> dict | None:
    """The header (first line) of a cache file of ours that nobody else can write, or None."""
    try:
        with open(path, "rb") as handle:
            if not ours(os.fstat(handle.fileno())):
                return None
            line = handle.readline(HEADER_BYTES)
        meta = json.loads(line, parse_constant=refuse_constant)
    except (OSError, ValueError, RecursionError):
        return None
    return meta if type(meta) is dict and meta.get("format") == FORMAT else None
