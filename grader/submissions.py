"""Finding, naming, unpacking and staging submissions.

A submissions folder holds one entry per student as an LMS exports it: a folder, or an archive
(``NAME.zip``, ``NAME.tar``, ``NAME.tar.gz``, ``NAME.tgz``).  This module

- finds them cheaply (``find``: names and kinds only, nothing opened or unpacked), giving each
  a human-readable ``display`` name and a unique ``student`` id that is safe as a folder name
  under ``reports/``;
- stages each one later, in a worker (``stage``): a private copy holding only regular files and
  folders, within fixed limits, without bytecode and without packages that would shadow the
  student's visible modules.  That copy is what is hashed, mounted and graded;
- hashes a staged copy (``content_hash``).

What it must never do, whatever a submission holds: follow a symbolic link (at any depth, the
submissions folder's own entries included), read anything but regular files, write outside the
folder it is given, allocate memory in proportion to what an archive *claims* (sizes, counts and
names are checked before anything is read), or raise (every failure becomes a ``problem``
string).  Problems and notes name files only in their escaped display form, so a file name
cannot smuggle terminal escapes, bidi overrides or bytes that are not UTF-8 into a report.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import re
import shutil
import stat
import struct
import tarfile
import tempfile
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from .downloads import only_online_text, plugin_folders
from .notes import Note

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")

# Names of what a batch writes beside the per-student folders in reports/ (compared without
# case, so that reports copied to a case-insensitive file system stay apart).
RESERVED_NAMES = frozenset({"gradebook.csv", "moodle.csv", "moodle-worksheet.csv", "ilias.csv",
                            "moodle-feedback.zip", "ilias-status.csv", "ilias-feedback.zip",
                            "junit.xml", "summary.html", "check"})

# Limits.  Every one is checked before the work it bounds is done.
MAX_FILES = 500                     # regular files copied or unpacked per submission
MAX_BYTES = 20 << 20                # their total size
MAX_DEPTH = 20                      # path components below the submission's folder
MAX_NAME_BYTES = 255                # one file or folder name (the usual file-system limit)
# Folders of tools, not code: version control, caches, virtual environments (a folder with a
# pyvenv.cfg).  A student's repository holds them (a course repository's .venv alone has
# thousands of files); they are left out silently, being nobody's answer.
TOOLING_FOLDERS = frozenset({".git", ".hg", ".svn", ".pytest_cache", ".mypy_cache",
                             ".ruff_cache", ".tox", ".nox"})
MAX_ENTRIES = 2000                  # archive members of any kind; entries looked at in a folder
MAX_MEMBER_NAME_BYTES = 1024        # an archive member's whole path
MAX_ARCHIVE_BYTES = 20 << 20        # the archive file on disk
MAX_EXTENDED_HEADER = 64 << 10      # a tar GNU long-name/long-link or pax header
MAX_EXTENDED_IN_A_ROW = 4           # extended headers before one member (pax + L + K is 3)
MAX_STREAM_BYTES = 64 << 20         # a tar's decompressed stream
MAX_RATIO = 200                     # decompressed : compressed, tar.gz stream and zip member
RATIO_FLOOR = 1 << 20               # below this much data the ratio is not judged (a tar's
                                    # zero padding alone compresses ~100:1)
MAX_ZIP_DIRECTORY = 4 << 20         # a zip's central directory (2000 members need ~0.2 MiB)
MAX_NESTING = 3                     # archives inside one another in one submission (the one
                                    # handed in counts): folder > abgabe.zip > code.tar.gz is 2
MAX_ID_CHARS = 80                   # a student id
NOTE_PATHS = 10                     # paths listed in one note

_CHUNK = 1 << 16
# Open flags where the system has them (Windows has no O_NOFOLLOW, O_NONBLOCK or O_CLOEXEC,
# and needs O_BINARY): a self-check on a student's Windows machine stages a copy too.
_OPEN_FLAGS = (getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
               | getattr(os, "O_BINARY", 0))
_BYTECODE_SUFFIXES = tuple({".pyc", ".pyo", ".pyd", ".so",
                            *(s.lower() for s in importlib.machinery.EXTENSION_SUFFIXES)})
_BIDI_CONTROLS = frozenset([*range(0x202A, 0x202F), *range(0x2066, 0x206A),
                            0x200E, 0x200F, 0x061C])


@dataclass(frozen=True)
class Submission:
    """One entry of the submissions folder, as ``find`` saw it (nothing opened yet)."""
    student: str            # unique safe id: the report folder's name
    display: str            # the entry's original name, escaped for people
    source: Path            # the folder or archive in the submissions root
    kind: str               # "folder" | "archive" | "link"
    notes: tuple = ()       # collision and reserved-name notes
    extras: tuple = ()      # the same participant's other plugin folders (Moodle's online
                            # text beside the files): kept for the reader, never graded
    refused: str | None = None  # why it cannot be graded, known when it was found


@dataclass(frozen=True)
class Staged:
    """A submission's private copy, ready to hash, mount and grade."""
    folder: Path
    problem: str | None = None      # why it could not be unpacked or staged (folder is empty)
    notes: tuple = ()               # what staging left out: links, bytecode, shadow packages


@dataclass
class UnpackStats:
    """The work the unpacking of one submission did, over all its archives (an archive inside
    an archive adds to the same counts): the limits on members, files, bytes unpacked and the
    tar stream bind the sum over all levels, not each archive alone.  Tests read it to show
    that a bomb was refused early."""
    headers: int = 0        # tar headers (extended ones too) or zip directory entries read
    members: int = 0        # members accepted so far
    decompressed: int = 0   # bytes of the (decompressed) tar streams read
    files: int = 0          # regular files unpacked
    unpacked: int = 0       # their declared sizes
    archives: int = 0       # archives opened

    def in_all(self) -> str:
        """Words for a limit message: the sum over nested archives is meant."""
        return " in all, with the archives inside it" if self.archives > 1 else ""


class StagingError(Exception):
    """Why a submission cannot be staged; the message is shown to the student as it is."""


class ArchiveError(StagingError):
    """Why an archive cannot be unpacked."""


# -- names -----------------------------------------------------------------------------------

def _is_control(char: str) -> bool:
    code = ord(char)
    return (code < 0x20 or 0x7F <= code <= 0x9F or code in _BIDI_CONTROLS
            or code in (0x2028, 0x2029))       # line/paragraph separators break report lines


def escape_controls(text: str) -> str:
    """``text`` with control characters and bidi controls as ``\\xNN``/``\\uNNNN``."""
    return "".join((f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
                   if _is_control(c) else c for c in text)


def _raw(name: str) -> bytes:
    """The bytes a name stands for (``surrogateescape`` as the OS gave it)."""
    try:
        return os.fsencode(name)
    except UnicodeEncodeError:          # a lone surrogate that no OS name can hold
        return name.encode("utf-8", "surrogatepass")


def display_name(name: str) -> str:
    """A name for people: bytes that are not UTF-8 as ``\\xNN``, controls escaped."""
    return escape_controls(_raw(name).decode("utf-8", "backslashreplace"))


def _display_path(parts) -> str:
    return "/".join(display_name(part) for part in parts)


def _safe_id(name: str) -> str:
    """The id part of a name: letters, digits, ``-_.`` and space, nothing else."""
    text = unicodedata.normalize("NFC", _raw(name).decode("utf-8", "replace"))
    kept = "".join(c if c in "-_. " or unicodedata.category(c) in ("Lu", "Ll", "Lt", "Lm",
                                                                      "Lo", "Nd") else "_"
                   for c in text)
    # No leading dot (hidden; "." and "..") or dash (read as an option); no trailing dot or
    # space (Windows drops them when reports are copied there).
    kept = kept.lstrip(".- ")[:MAX_ID_CHARS].rstrip(". ")
    return kept or "submission"


def _with_suffix(base: str, number: int) -> str:
    # "~" never survives _safe_id, so a suffixed id cannot equal anyone's plain id.
    suffix = f"~{number}"
    return base[: MAX_ID_CHARS - len(suffix)] + suffix


def archive_stem(path: Path) -> str | None:
    """The name without its archive suffix (``anna.tar.gz`` -> ``anna``), None if none."""
    for suffix in ARCHIVE_SUFFIXES:
        if path.name.lower().endswith(suffix):
            return path.name[: -len(suffix)]
    return None


# -- finding ---------------------------------------------------------------------------------

# Entries of a batch folder that tools, not students, put there: never graded, never listed.
TOOL_ENTRIES = TOOLING_FOLDERS | frozenset({"__MACOSX", "__pycache__", ".DS_Store", ".venv",
                                            ".idea", ".vscode", ".ipynb_checkpoints",
                                            ".Trash", ".Trashes", ".cache"})


def passed_over(root: Path) -> list[str]:
    """The entries of ``root`` that ``find`` leaves out although they could be submissions:
    folders and archives whose names start with ``.`` or ``_`` (hidden or tool folders by
    convention), other than the tools' own (``TOOL_ENTRIES``, virtual environments).  Their
    display names, sorted, for the "needs a person" list: a student called ``_anna`` would
    otherwise be missing from the gradebook without a word."""
    found = []
    for entry in Path(root).iterdir():
        name = entry.name
        if not name.startswith((".", "_")) or name in TOOL_ENTRIES:
            continue
        try:
            mode = os.lstat(entry).st_mode
        except OSError:
            continue
        if stat.S_ISDIR(mode):
            if os.path.isfile(os.path.join(entry, "pyvenv.cfg")):
                continue
        elif not (stat.S_ISREG(mode) and archive_stem(entry)):
            continue
        found.append((_raw(name), display_name(name)))
    return [shown for _, shown in sorted(found)]


def find(root: Path) -> list[Submission]:
    """Every submission in ``root``, in a fixed order, each with a unique safe id.

    Cheap: one ``lstat`` per entry, nothing opened.  Names starting with ``.`` or ``_`` and
    files that are not archives are skipped.  A symbolic link to a folder or archive is listed
    (kind ``link``) but never followed; staging it gives a problem, so the instructor sees it.
    """
    entries = []
    for entry in Path(root).iterdir():
        name = entry.name
        if name.startswith((".", "_")):
            continue
        try:
            mode = os.lstat(entry).st_mode
        except OSError:                 # vanished since the listing
            continue
        stem = archive_stem(entry)
        if stat.S_ISDIR(mode):
            kind, stem = "folder", name
        elif stat.S_ISREG(mode) and stem:
            kind = "archive"
        elif stat.S_ISLNK(mode) and (stem or _points_to_folder(entry)):
            kind, stem = "link", stem or name
        else:
            continue
        entries.append((_raw(name), entry, stem, kind))
    # Raw bytes, not str: names that are not UTF-8 sort the same way on every machine.
    entries.sort(key=lambda e: e[0])
    extras = _one_per_participant(entries)

    reserved = {name.casefold() for name in RESERVED_NAMES}
    bases = [_safe_id(stem) for _, _, stem, _ in entries]
    groups: dict[str, list[int]] = {}
    for index, base in enumerate(bases):
        groups.setdefault(base.casefold(), []).append(index)
    # In raw-byte order the first of a group keeps the plain id, the others get ~2, ~3, ...;
    # a reserved name starts at ~2.  Checking every id against all ids taken so far also
    # keeps apart ids that only meet after truncation to make room for the suffix.
    taken, ids = set(reserved), []
    for base in bases:
        student, number = base, 1
        while student.casefold() in taken:
            number += 1
            student = _with_suffix(base, number)
        taken.add(student.casefold())
        ids.append(student)

    found = []
    for index, (_, entry, _, kind) in enumerate(entries):
        display = display_name(entry.name)
        notes = []
        if bases[index].casefold() in reserved:
            notes.append(Note("reserved-name", {"display": display, "student": ids[index]}))
        others = [i for i in groups[bases[index].casefold()] if i != index]
        if others:
            # Every member of the group gets the note: each report then says it was renamed
            # or that another submission was, and the instructor can check who is who.
            notes.append(Note("collision", {
                "display": display, "student": ids[index],
                "others": [display_name(entries[i][1].name) for i in others],
                "other_students": [ids[i] for i in others]}))
        others = extras.get(entry.name, ())
        refused = None
        if kind == "folder" and only_online_text(entry.name):
            refused = ("only an online text was handed in, no files: there is no code to "
                       "run; a person reads the text and grades it")
        found.append(Submission(ids[index], display, entry, kind, tuple(notes),
                                tuple(others), refused))
    return found


def _one_per_participant(entries: list) -> dict:
    """Moodle writes a folder per participant and submission plugin (``..._assignsubmission
    _file`` and ``..._assignsubmission_onlinetext``): the participant's graded folder stays
    in ``entries``, the others leave it and are returned as its extras (graded folder's name
    -> their paths, ``Submission.extras``).  One participant is one submission."""
    folders = {entry.name: entry for _, entry, _, kind in entries if kind == "folder"}
    grouped = {name: extras for name, extras in plugin_folders(folders).items() if extras}
    others = {name for extras in grouped.values() for name in extras}
    entries[:] = [item for item in entries
                  if not (item[3] == "folder" and item[1].name in others)]
    return {name: tuple(folders[extra] for extra in extras)
            for name, extras in grouped.items()}


def _points_to_folder(link: Path) -> bool:
    try:
        return link.is_dir()            # a stat of the target; nothing is opened or read
    except (OSError, ValueError):
        return False


# -- staging ---------------------------------------------------------------------------------

def stage(submission: Submission, into: Path, modules: tuple = ()) -> Staged:
    """A private copy of ``submission`` in ``into`` (created, emptied first).  Never raises:
    what went wrong is the ``problem``, and the folder is then empty.

    ``modules``: the module names the course imports from a submission (``minimax``); when
    none of them lies at the top of the copy, it is arranged the way LMS downloads need (see
    ``_arrange``), with a note for each step.  Every archive unpacked on the way (the one
    handed in and those inside it) counts against one set of limits (``UnpackStats``)."""
    into = Path(into)
    budget = UnpackStats()
    try:
        _make_empty(into)
        if submission.refused:
            raise StagingError(submission.refused)
        if submission.kind == "link":
            raise StagingError(f"{submission.display} is a link, not followed: put the "
                               f"folder or archive itself into the submissions folder")
        chain = ()
        if submission.kind == "folder":
            if not stat.S_ISDIR(os.lstat(submission.source).st_mode):
                raise StagingError(f"{submission.display} is no longer a folder")
            notes = _copy_tree(submission.source, into)
        elif submission.kind == "archive":
            with tempfile.TemporaryDirectory(prefix=".unpack-", dir=into.parent) as scratch:
                root = unpack(submission.source, Path(scratch) / "unpacked", budget)
                notes = _copy_tree(root, into)
            chain = (submission.display,)
        else:
            raise StagingError(f"{submission.display}: unknown kind {submission.kind!r}")
        if modules:
            notes += _arrange(into, tuple(modules), budget, chain)
        return Staged(into, None, notes)
    except StagingError as error:
        problem = escape_controls(str(error))
    except Exception as error:          # a bug here must not stop the batch
        problem = f"internal error while unpacking: {type(error).__name__}"
    try:
        _make_empty(into)
    except Exception:
        pass
    return Staged(into, problem, ())


SEARCH_DEPTH = 3     # how deep _arrange looks for the course's modules


def _arrange(into: Path, modules: tuple, budget: UnpackStats | None = None,
             chain: tuple = ()) -> tuple:
    """Put the course's modules where Python imports them from, as LMS downloads scatter them
    (in the private copy only; each step leaves a note):

    * the submission holds one archive and no Python file (an uploaded zip inside Moodle's
      per-student folder): it is unpacked, and so is the one archive that holds nothing but
      another archive (a .tar.gz inside the uploaded .zip), up to ``MAX_NESTING`` archives
      one inside the other (``chain``: those unpacked already, the one handed in), all
      within the limits of one archive together (``budget``);
    * the modules lie in a subfolder (``Abgabe/minimax.py``): the shallowest folder holding one
      of them is graded, if it is the only one at its depth;
    * a module's file differs only in case (``Minimax.py``): it is renamed.

    Where that cannot be decided without a guess (two folders at one depth, two files that
    differ only in case, modules deeper than ``SEARCH_DEPTH``), nothing is moved and a note
    says what was found, for a person to decide.  An archive that is not unpacked (nested
    deeper than ``MAX_NESTING``, past the limits, or one of several where the modules are
    missing) makes the submission a problem (``ArchiveError``/``StagingError``): graded
    without the code it holds, it would get a 0 that no one meant.
    """
    if all(_module_in(into, module) for module in modules):
        # not any: one module where it belongs, another in another case (Minimax.py beside
        # evaluation.py), is renamed below
        return ()
    budget = budget if budget is not None else UnpackStats()
    notes = []
    unpacked = []       # the folders archives were unpacked into, outermost first
    place = into
    while not any(_module_in(place, module) for module in modules):
        archive = _lone_archive(place)
        if archive is None:
            break
        folder = place / (_safe_id(archive_stem(archive)) or "archive")
        if os.path.lexists(folder):
            break
        shown = display_name(archive.name)
        if len(chain) >= MAX_NESTING:
            raise ArchiveError(f"{' > '.join((*chain, shown))}: archives inside archives "
                               f"more than {MAX_NESTING} deep are not unpacked; hand in one "
                               f"archive that holds your .py files")
        with tempfile.TemporaryDirectory(prefix=".unpack-", dir=into.parent) as scratch:
            try:
                root = unpack(archive, Path(scratch) / "unpacked", budget)
            except ArchiveError as error:
                if not chain:
                    raise
                raise ArchiveError(f"{' > '.join((*chain, shown))}: {error}") from None
            folder.mkdir()
            notes += _copy_tree(root, folder)
        archive.unlink()
        notes.append(Note("inner-archive", {"archive": shown, "inside": chain[-1]}
                          if chain else {"archive": shown}))
        chain += (shown,)
        unpacked.append(folder)
        place = folder
    if not any(_module_in(into, module) for module in modules):
        chosen, candidates = _shallowest_with_modules(into, modules)
        if chosen is None and candidates:
            notes.append(Note("subfolder-ambiguous", {"folders": [
                _display_path(c.relative_to(into).parts) + "/" for c in candidates]}))
        elif chosen is None:
            deeper = _deeper_module(into, modules)
            if deeper is not None:
                notes.append(Note("module-too-deep", {"path": _display_path(
                    deeper.relative_to(into).parts), "depth": SEARCH_DEPTH}))
        if chosen is not None:
            hoisted = Path(tempfile.mkdtemp(prefix=".hoist-", dir=into.parent))
            try:
                os.rename(chosen, hoisted / "folder")
                _make_empty(into)
                for entry in os.listdir(hoisted / "folder"):
                    os.rename(hoisted / "folder" / entry, into / entry)
            finally:
                shutil.rmtree(hoisted, ignore_errors=True)
            if chosen not in unpacked:  # an unpacked archive itself: its note says enough
                notes.append(Note("subfolder", {"folder": _display_path(
                    chosen.relative_to(into).parts) + "/"}))
    for module in modules:
        if not _module_in(into, module):
            wanted = f"{module}.py"
            alike = [e for e in into.iterdir() if e.is_file() and not e.is_symlink()
                     and e.name.casefold() == wanted.casefold()]
            if len(alike) == 1:
                alike[0].rename(into / wanted)
                notes.append(Note("case-renamed", {"found": display_name(alike[0].name),
                                                   "expected": wanted}))
            elif len(alike) > 1:
                notes.append(Note("case-ambiguous", {"expected": wanted, "found": sorted(
                    display_name(entry.name) for entry in alike)}))
    if not any(_module_in(into, module) for module in modules):
        left = _archives_in(into)
        if left:
            shown = ", ".join(left[:NOTE_PATHS]) + (", …" if len(left) > NOTE_PATHS else "")
            wanted = ", ".join(f"{module}.py" for module in modules)
            raise StagingError(f"none of the task's files ({wanted}) was found, and the "
                               f"archives {shown} were not unpacked (only a "
                               f"single archive with no Python file beside it is); hand in one "
                               f"archive, or a folder, that holds your .py files")
    return tuple(notes)


def _module_in(folder: Path, module: str) -> bool:
    return (folder / f"{module}.py").is_file() or (folder / module / "__init__.py").is_file()


def _lone_archive(folder: Path) -> Path | None:
    """The one archive in ``folder`` if it holds exactly one (as a regular file) and no Python
    file: an uploaded zip, or the archive that an archive held."""
    entries = [e for e in folder.iterdir() if not e.name.startswith(".")]
    archives = [e for e in entries if archive_stem(e) and e.is_file() and not e.is_symlink()]
    if len(archives) == 1 and not any(e.name.endswith(".py") for e in entries):
        return archives[0]
    return None


def _archives_in(folder: Path) -> list[str]:
    """The archives anywhere in a staged copy (bounded by its limits; links not followed),
    as sorted display paths."""
    found = []
    for current, children, files in os.walk(folder):
        children[:] = [c for c in children if not c.startswith(".")]
        found += [_display_path(Path(current, name).relative_to(folder).parts)
                  for name in files if archive_stem(Path(name))]
    return sorted(found)


def _shallowest_with_modules(into: Path, modules: tuple) -> tuple:
    """``(folder, candidates)``: the only folder, at the smallest depth, that holds one of
    ``modules`` (in any case), or None and every folder at that depth holding one (none: no
    folder within ``SEARCH_DEPTH`` does)."""
    wanted = {f"{module}.py".casefold() for module in modules}
    level = [into]
    for _ in range(SEARCH_DEPTH):
        level = sorted((entry for folder in level for entry in folder.iterdir()
                        if entry.is_dir() and not entry.is_symlink()
                        and not entry.name.startswith((".", "__"))),
                       key=lambda entry: _raw(entry.name))
        holding = [folder for folder in level
                   if any(child.name.casefold() in wanted for child in folder.iterdir()
                          if child.is_file())]
        if holding:
            return (holding[0], holding) if len(holding) == 1 else (None, holding)
    return None, []


def _deeper_module(into: Path, modules: tuple) -> Path | None:
    """The first of ``modules`` (in any case) below ``SEARCH_DEPTH`` folders, if any (links
    not followed; the copy is bounded by the staging's limits)."""
    wanted = {f"{module}.py".casefold() for module in modules}
    for folder, children, files in os.walk(into):
        children[:] = sorted(c for c in children if not c.startswith((".", "__")))
        found = sorted(f for f in files if f.casefold() in wanted)
        if found and len(Path(folder).relative_to(into).parts) > SEARCH_DEPTH:
            return Path(folder) / found[0]
    return None


def _make_empty(folder: Path) -> None:
    if os.path.lexists(folder):
        if os.path.islink(folder) or not os.path.isdir(folder):
            os.unlink(folder)
        else:
            shutil.rmtree(folder)       # rmtree never follows links inside
    folder.mkdir(parents=True)
    os.chmod(folder, 0o755)


def _is_bytecode(name: str) -> bool:
    return name.lower().endswith(_BYTECODE_SUFFIXES)


def _shadowing_packages(listing) -> set:
    """Top-level folders that Python would import instead of the module file beside them.

    In one folder, the import system looks for a package ``X/__init__.*`` before a module
    ``X.py``: the student's visible ``X.py`` would never run."""
    modules = {entry.name[: -len(suffix)] for entry in listing
               if entry.is_file(follow_symlinks=False)
               for suffix in importlib.machinery.SOURCE_SUFFIXES if entry.name.endswith(suffix)}
    shadowing = set()
    for entry in listing:
        if entry.name in modules and entry.is_dir(follow_symlinks=False):
            for suffix in importlib.machinery.all_suffixes():
                try:
                    if stat.S_ISREG(os.lstat(os.path.join(entry.path, "__init__" + suffix))
                                    .st_mode):
                        shadowing.add(entry.name)
                        break
                except OSError:
                    continue
    return shadowing


def _list(folder: str, seen: int) -> list:
    """A folder's entries sorted by raw name; refuses before holding more than the limit."""
    listing = []
    with os.scandir(folder) as entries:
        for entry in entries:
            listing.append(entry)
            if seen + len(listing) > MAX_ENTRIES:
                raise StagingError(f"the submission holds more than {MAX_ENTRIES} entries "
                                   f"(files, folders and links); hand in only your code")
    listing.sort(key=lambda entry: _raw(entry.name))
    return listing


def _copy_tree(source: Path, into: Path) -> tuple:
    """Copy the regular files and folders of ``source`` into ``into``; the notes say what
    was left out and why.  Raises StagingError when a limit is exceeded."""
    left_out = {"links-ignored": [], "hardlinks-ignored": [], "special-files-ignored": [],
                "bytecode-ignored": []}
    notes = []
    files = total = seen = 0
    stack = [(os.fspath(source), os.fspath(into), ())]
    while stack:
        folder, target, rel = stack.pop()
        listing = _list(folder, seen)
        seen += len(listing)
        shadowing = _shadowing_packages(listing) if not rel else set()
        for entry in listing:
            parts = rel + (entry.name,)
            if len(_raw(entry.name)) > MAX_NAME_BYTES:
                raise StagingError(f"the name {_display_path(parts)} is longer than "
                                   f"{MAX_NAME_BYTES} bytes; rename it")
            if len(parts) > MAX_DEPTH:
                raise StagingError(f"{_display_path(parts)} lies more than {MAX_DEPTH} "
                                   f"folders deep; flatten the submission")
            info = entry.stat(follow_symlinks=False)
            destination = os.path.join(target, entry.name)
            if stat.S_ISLNK(info.st_mode):
                left_out["links-ignored"].append(_display_path(parts))
            elif stat.S_ISDIR(info.st_mode):
                if entry.name in TOOLING_FOLDERS \
                        or os.path.isfile(os.path.join(entry.path, "pyvenv.cfg")):
                    continue
                if entry.name == "__pycache__":
                    left_out["bytecode-ignored"].append(_display_path(parts) + "/")
                elif entry.name in shadowing:
                    notes.append(Note("shadow-package", {"module": display_name(entry.name),
                                                         "folder": display_name(entry.name)
                                                         + "/"}))
                else:
                    os.mkdir(destination, 0o755)
                    os.chmod(destination, 0o755)
                    stack.append((entry.path, destination, parts))
            elif stat.S_ISREG(info.st_mode):
                if _is_bytecode(entry.name):
                    left_out["bytecode-ignored"].append(_display_path(parts))
                elif info.st_nlink > 1:
                    # A hard link may be a second name for a file the student must not read.
                    left_out["hardlinks-ignored"].append(_display_path(parts))
                else:
                    files += 1
                    total += info.st_size
                    _check_totals(files, total)
                    _copy_file(entry.path, destination, info.st_size)
            else:
                left_out["special-files-ignored"].append(_display_path(parts))
    for key, paths in left_out.items():
        if paths:
            paths.sort()
            notes.append(Note(key, {"paths": paths[:NOTE_PATHS], "count": len(paths)}))
    return tuple(notes)


def _check_totals(files: int, total: int) -> None:
    """The file and size limits on one copied folder."""
    if files > MAX_FILES:
        raise StagingError(f"the submission holds more than {MAX_FILES} files; hand in only "
                           f"your code")
    if total > MAX_BYTES:
        raise StagingError(f"the submission holds more than {MAX_BYTES >> 20} MiB; hand in "
                           f"only your code")


def _check_unpacked(stats: UnpackStats) -> None:
    """The file and size limits on what the archives of one submission unpack, together."""
    if stats.files > MAX_FILES:
        raise ArchiveError(f"the archive holds more than {MAX_FILES} files{stats.in_all()}; "
                           f"hand in only your code")
    if stats.unpacked > MAX_BYTES:
        raise ArchiveError(f"the archive unpacks to more than {MAX_BYTES >> 20} MiB"
                           f"{stats.in_all()}; hand in only your code")


def _open_regular(path: str) -> int:
    """A descriptor for ``path`` if it is a regular file; never follows a link, never blocks
    on a FIFO that replaced a file since it was listed."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _OPEN_FLAGS)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise StagingError(f"{display_name(os.path.basename(path))} changed while it was "
                           f"copied; grade again")
    return fd


def _copy_file(path: str, destination: str, size: int) -> None:
    """Copy at most ``size`` bytes (the size seen when the limits were checked)."""
    with open(_open_regular(path), "rb") as source, _create(destination) as out:
        remaining = size
        while remaining > 0:
            chunk = source.read(min(_CHUNK, remaining))
            if not chunk:
                break
            out.write(chunk)
            remaining -= len(chunk)


def _create(path: str):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _OPEN_FLAGS, 0o644)
    if hasattr(os, "fchmod"):
        os.fchmod(fd, 0o644)            # whatever the umask: the sandbox's user reads it
    return open(fd, "wb")


# -- hashing ---------------------------------------------------------------------------------

def content_hash(folder: Path) -> str:
    """The content of a (staged) folder: every regular file's relative path and bytes.

    Links and anything but regular files and folders are not followed, not read, not hashed."""
    found = []
    stack = [(os.fspath(folder), b"")]
    while stack:
        current, prefix = stack.pop()
        with os.scandir(current) as entries:
            for entry in entries:
                mode = entry.stat(follow_symlinks=False).st_mode
                relative = prefix + _raw(entry.name)
                if stat.S_ISDIR(mode):
                    stack.append((entry.path, relative + b"/"))
                elif stat.S_ISREG(mode):
                    found.append((relative, entry.path))
    digest = hashlib.sha256()
    for relative, path in sorted(found):
        digest.update(relative + b"\0")
        file_digest = hashlib.sha256()
        with open(_open_regular(path), "rb") as handle:
            while chunk := handle.read(_CHUNK):
                file_digest.update(chunk)
        digest.update(file_digest.digest())
    return digest.hexdigest()


def tasks_hash(files) -> str:
    from . import __version__
    digest = hashlib.sha256(__version__.encode())
    for file in sorted(files):
        digest.update(Path(file).read_bytes())
    return digest.hexdigest()


# -- unpacking -------------------------------------------------------------------------------

def unpack(archive: Path, target: Path, stats: UnpackStats | None = None) -> Path:
    """Unpack ``archive`` into the new folder ``target``; return the folder to grade (the
    single top-level folder, if that is all the archive holds).  Raises ArchiveError."""
    stats = stats if stats is not None else UnpackStats()
    info = os.lstat(archive)
    if not stat.S_ISREG(info.st_mode):
        raise ArchiveError(f"{display_name(Path(archive).name)} is not a regular file "
                           f"(a link or special file), not read")
    if info.st_size > MAX_ARCHIVE_BYTES:
        raise ArchiveError(f"the archive is larger than {MAX_ARCHIVE_BYTES >> 20} MiB "
                           f"({info.st_size / (1 << 20):.1f} MiB); hand in only your code")
    if info.st_size == 0:
        raise ArchiveError("the archive file is empty (0 bytes); hand it in again")
    stats.archives += 1
    Path(target).mkdir(parents=True, exist_ok=False)
    try:
        with open(os.open(archive, os.O_RDONLY | _OPEN_FLAGS), "rb") as handle:
            if Path(archive).name.lower().endswith(".zip"):
                _unpack_zip(handle, info.st_size, Path(target), stats)
            else:
                _unpack_tar(handle, info.st_size, Path(target), stats)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, tarfile.TarError, zlib.error, EOFError,
            OSError, ValueError, NotImplementedError, RuntimeError) as error:
        raise ArchiveError(f"the archive cannot be read: {type(error).__name__}: "
                           f"{escape_controls(str(error))}") from error
    entries = [p for p in Path(target).iterdir() if not p.name.startswith(("__MACOSX", "."))]
    if len(entries) == 1 and entries[0].is_dir() and not entries[0].is_symlink():
        return entries[0]
    return Path(target)


def _member_parts(name: str, directory: bool = False) -> tuple:
    """A member's path as safe file-system names; refuses absolute paths and ``..``."""
    shown = display_name(name)
    if len(_raw(name)) > MAX_MEMBER_NAME_BYTES:
        raise ArchiveError(f"the archive holds a name longer than {MAX_MEMBER_NAME_BYTES} "
                           f"bytes: {shown[:80]}…")
    path = name.replace("\\", "/")      # archives made on Windows
    if path.startswith("/") or re.match(r"[A-Za-z]:", path):
        raise ArchiveError(f"the archive holds an unsafe path: {shown}")
    parts = [part for part in path.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise ArchiveError(f"the archive holds an unsafe path: {shown}")
    if not parts and not directory:
        raise ArchiveError(f"the archive holds an unsafe path: {shown}")
    if len(parts) > MAX_DEPTH:
        raise ArchiveError(f"{shown} lies more than {MAX_DEPTH} folders deep; flatten the "
                           f"submission")
    safe = tuple(_safe_component(part) for part in parts)
    for part in safe:
        if len(part.encode("utf-8")) > MAX_NAME_BYTES:
            raise ArchiveError(f"the archive holds a name longer than {MAX_NAME_BYTES} bytes: "
                               f"{shown[:80]}…")
    return safe


def _safe_component(part: str) -> str:
    # Bytes that were not UTF-8 (surrogates from tar), controls and bidi overrides become "_";
    # everything else the file system can hold is kept, so imports by name still work.
    return "".join("_" if unicodedata.category(c) == "Cs" or _is_control(c) else c
                   for c in part)


def _make_folder(target: Path, parts: tuple) -> None:
    folder = target.joinpath(*parts)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise ArchiveError(f"the archive holds {_display_path(parts)} both as a file and as "
                           f"a folder") from None


def _write_member(read, target: Path, parts: tuple, size: int, exact_end: bool) -> None:
    """Write ``size`` bytes from ``read`` to the member's place; ``exact_end``: the source
    must end there (a zip member may not hold more than its header declares)."""
    _make_folder(target, parts[:-1])
    try:
        out = _create(os.fspath(target.joinpath(*parts)))
    except FileExistsError:
        raise ArchiveError(f"the archive holds {_display_path(parts)} twice (or two names that "
                           f"are the same once made safe)") from None
    except (IsADirectoryError, NotADirectoryError):
        raise ArchiveError(f"the archive holds {_display_path(parts)} both as a file and as "
                           f"a folder") from None
    with out:
        remaining = size
        while remaining > 0:
            chunk = read(min(_CHUNK, remaining))
            if not chunk:
                raise ArchiveError(f"the archive is truncated: {_display_path(parts)} ends "
                                   f"early")
            out.write(chunk)
            remaining -= len(chunk)
        if exact_end and read(1):
            raise ArchiveError(f"{_display_path(parts)} in the archive is larger than its "
                               f"header says")


# -- zip -------------------------------------------------------------------------------------

_ZIP_END = b"PK\x05\x06"


def _scan_zip_directory(handle, size: int, stats: UnpackStats) -> None:
    """Count the central directory's entries and check their name lengths before zipfile
    builds an object for each (it would for hundreds of thousands of them)."""
    tail_size = min(size, 22 + 0xFFFF)
    handle.seek(size - tail_size)
    tail = handle.read(tail_size)
    # The same end record zipfile takes: right at the end if there is no comment, else the
    # last signature in the final 64 KiB.
    at = len(tail) - 22 if tail[-22:-18] == _ZIP_END and tail[-2:] == b"\0\0" \
        else tail.rfind(_ZIP_END)
    if at < 0 or len(tail) - at < 22:
        raise ArchiveError("the archive is not a zip archive (its end record is missing)")
    _, _, _, _, count, directory_size, _, _ = struct.unpack("<4s4H2LH", tail[at:at + 22])
    end = size - tail_size + at
    if count == 0xFFFF or directory_size == 0xFFFFFFFF:
        # Zip64: the real numbers are in the record before the locator before the end record.
        if end < 76:
            raise ArchiveError("the archive is damaged (its zip64 end record is missing)")
        handle.seek(end - 76)
        record, locator = handle.read(56), handle.read(20)
        if record[:4] != b"PK\x06\x06" or locator[:4] != b"PK\x06\x07":
            raise ArchiveError("the archive is damaged (its zip64 end record is missing)")
        count, directory_size = struct.unpack("<4sQ2H2L4Q", record)[7:9]
        end -= 76
    if stats.members + count > MAX_ENTRIES:
        raise ArchiveError(f"the archive holds more than {MAX_ENTRIES} members{stats.in_all()} "
                           f"({stats.members + count})")
    if directory_size > MAX_ZIP_DIRECTORY or directory_size > end:
        raise ArchiveError(f"the archive's directory is damaged or larger than "
                           f"{MAX_ZIP_DIRECTORY >> 20} MiB")
    handle.seek(end - directory_size)
    directory = handle.read(directory_size)
    position = scanned = 0
    while position + 46 <= len(directory) and directory[position:position + 4] == b"PK\x01\x02":
        name_length, extra_length, comment_length = struct.unpack(
            "<3H", directory[position + 28:position + 34])
        stats.headers += 1
        scanned += 1
        if stats.members + scanned > MAX_ENTRIES:
            raise ArchiveError(f"the archive holds more than {MAX_ENTRIES} members"
                               f"{stats.in_all()}")
        if name_length > MAX_MEMBER_NAME_BYTES:
            raise ArchiveError(f"the archive holds a name longer than {MAX_MEMBER_NAME_BYTES} "
                               f"bytes")
        position += 46 + name_length + extra_length + comment_length


def _unpack_zip(handle, size: int, target: Path, stats: UnpackStats) -> None:
    _scan_zip_directory(handle, size, stats)
    handle.seek(0)
    with zipfile.ZipFile(handle) as bundle:
        members = bundle.infolist()
        if stats.members + len(members) > MAX_ENTRIES:
            raise ArchiveError(f"the archive holds more than {MAX_ENTRIES} members"
                               f"{stats.in_all()}")
        for info in members:
            directory = info.is_dir() or info.filename.endswith("\\")   # old Windows tools
            parts = _member_parts(info.filename, directory)
            mode = (info.external_attr >> 16) & 0o170000
            if mode and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise ArchiveError(f"the archive holds a link or special file: "
                                   f"{display_name(info.filename)}")
            if info.flag_bits & 0x1:
                raise ArchiveError(f"{display_name(info.filename)} in the archive is "
                                   f"encrypted; hand in an archive without a password")
            stats.members += 1
            if directory:
                _make_folder(target, parts)
                continue
            stats.files += 1
            stats.unpacked += info.file_size
            _check_unpacked(stats)
            if info.file_size > RATIO_FLOOR and \
                    info.file_size > MAX_RATIO * max(info.compress_size, 1):
                raise ArchiveError(f"{display_name(info.filename)} in the archive is "
                                   f"compressed more than {MAX_RATIO}:1 (an archive bomb?)")
            with bundle.open(info) as source:
                _write_member(source.read, target, parts, info.file_size, exact_end=True)


# -- tar -------------------------------------------------------------------------------------

class _Stream:
    """The tar bytes of an archive file, gunzipped on the fly when it is gzip: never more
    than asked for, and never more in all than the limits allow."""

    def __init__(self, handle, size: int, stats: UnpackStats):
        self.handle, self.size, self.stats = handle, size, stats
        self.produced = 0       # this archive's share of stats.decompressed (its ratio)
        head = handle.read(6)
        handle.seek(0)
        if head.startswith(b"BZh") or head.startswith(b"\xfd7zXZ"):
            raise ArchiveError("the archive is compressed with bzip2 or xz; hand in a .zip or "
                               ".tar.gz")
        self.gzip = head.startswith(b"\x1f\x8b")
        self.inflate = zlib.decompressobj(31) if self.gzip else None

    def read(self, count: int) -> bytes:
        pieces = []
        while count > 0:
            piece = self._next(count)
            if not piece:
                break
            pieces.append(piece)
            count -= len(piece)
            self.stats.decompressed += len(piece)
            self.produced += len(piece)
            self._check()
        return b"".join(pieces)

    def _check(self) -> None:
        if self.stats.decompressed > MAX_STREAM_BYTES:
            raise ArchiveError(f"the archive decompresses to more than "
                               f"{MAX_STREAM_BYTES >> 20} MiB{self.stats.in_all()}; hand in "
                               f"only your code")
        produced = self.produced
        if self.gzip and produced > RATIO_FLOOR and produced > MAX_RATIO * self.size:
            raise ArchiveError(f"the archive is compressed more than {MAX_RATIO}:1 "
                               f"(an archive bomb?); hand in only your code")

    def _next(self, limit: int) -> bytes:
        if not self.gzip:
            return self.handle.read(limit)
        while True:
            if self.inflate.unconsumed_tail:
                data = self.inflate.unconsumed_tail
            elif self.inflate.eof:
                data = self.inflate.unused_data or self.handle.read(_CHUNK)
                if not data.startswith(b"\x1f\x8b"):
                    return b""          # the end (or padding after it)
                self.inflate = zlib.decompressobj(31)     # another gzip member follows
            else:
                data = self.handle.read(_CHUNK)
                if not data:
                    raise ArchiveError("the archive is truncated (its gzip stream ends early)")
            out = self.inflate.decompress(data, limit)
            if out:
                return out


_REGULAR = (tarfile.REGTYPE, tarfile.AREGTYPE, tarfile.CONTTYPE)
_EXTENDED = (tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK, tarfile.XHDTYPE,
             tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE)
_SPECIAL = (tarfile.SYMTYPE, tarfile.LNKTYPE, tarfile.CHRTYPE, tarfile.BLKTYPE,
            tarfile.FIFOTYPE)


def _padded(size: int) -> int:
    return -(-size // 512) * 512


def _read_exactly(stream: _Stream, count: int) -> bytes:
    data = stream.read(count)
    if len(data) != count:
        raise ArchiveError("the archive is truncated")
    return data


def _parse_pax(data: bytes) -> dict:
    """pax records ``LEN key=value\\n``; malformed records refuse the archive."""
    records, position = {}, 0
    while position < len(data) and data[position:].strip(b"\0"):
        space = data.find(b" ", position, position + 20)
        length = data[position:space]
        if space < 0 or not length.isdigit() or int(length) <= space - position + 1:
            raise ArchiveError("the archive holds a damaged pax header")
        end = position + int(length)
        record = data[space + 1:end]
        if end > len(data) or not record.endswith(b"\n") or b"=" not in record:
            raise ArchiveError("the archive holds a damaged pax header")
        key, value = record[:-1].split(b"=", 1)
        records[key.decode("utf-8", "surrogateescape")] = \
            value.decode("utf-8", "surrogateescape")
        position = end
    if any(key.startswith("GNU.sparse") for key in records):
        raise ArchiveError("the archive holds a sparse file; hand in a plain archive")
    if records.get("size") and not records["size"].isdigit():
        raise ArchiveError("the archive holds a damaged pax header")
    return records


def _unpack_tar(handle, size: int, target: Path, stats: UnpackStats) -> None:
    """Read the tar stream header by header (512-byte blocks), never trusting a size before
    it is checked: tarfile would read a GNU long-name or pax header of any claimed size into
    memory, and build an object per member for any number of members."""
    stream = _Stream(handle, size, stats)
    global_pax, pax = {}, {}
    long_name = None
    in_a_row = 0
    while True:
        block = stream.read(512)
        if not block or block == bytes(512):
            break                       # the end (an archive without end blocks is fine)
        if len(block) < 512:
            raise ArchiveError("the archive is truncated")
        stats.headers += 1
        try:
            info = tarfile.TarInfo.frombuf(block, "utf-8", "surrogateescape")
        except tarfile.HeaderError:
            raise ArchiveError("the archive is not a tar archive or is damaged (a header "
                               "fails its checksum)") from None
        if info.size < 0:
            raise ArchiveError("the archive is damaged (a negative size)")
        stats.members += 1
        if stats.members > MAX_ENTRIES:
            raise ArchiveError(f"the archive holds more than {MAX_ENTRIES} members (files, "
                               f"folders, links or headers){stats.in_all()}")
        if info.type in _EXTENDED:
            in_a_row += 1
            if in_a_row > MAX_EXTENDED_IN_A_ROW:
                raise ArchiveError("the archive holds too many extended headers in a row")
            if info.size > MAX_EXTENDED_HEADER:
                raise ArchiveError(f"the archive holds an extended header of {info.size} bytes "
                                   f"(at most {MAX_EXTENDED_HEADER >> 10} KiB): refused "
                                   f"without reading it")
            data = _read_exactly(stream, _padded(info.size))[:info.size]
            if info.type == tarfile.GNUTYPE_LONGNAME:
                long_name = data.split(b"\0", 1)[0].decode("utf-8", "surrogateescape")
            elif info.type == tarfile.XGLTYPE:
                global_pax.update(_parse_pax(data))
            elif info.type in (tarfile.XHDTYPE, tarfile.SOLARIS_XHDTYPE):
                pax.update(_parse_pax(data))
            continue                    # a long link name: links are refused anyway
        in_a_row = 0
        headers = {**global_pax, **pax}
        name = headers.get("path") or long_name or info.name
        member_size = int(headers["size"]) if headers.get("size") else info.size
        pax, long_name = {}, None
        if info.type in _SPECIAL:
            raise ArchiveError(f"the archive holds a link or special file: {display_name(name)}")
        if info.type == tarfile.GNUTYPE_SPARSE:
            raise ArchiveError(f"the archive holds a sparse file: {display_name(name)}")
        if info.type == tarfile.DIRTYPE:
            _make_folder(target, _member_parts(name, directory=True))
            _read_exactly(stream, _padded(member_size))     # a dumpdir's listing, if any
            continue
        if info.type not in _REGULAR:
            raise ArchiveError(f"the archive holds {display_name(name)} of an unknown kind "
                               f"({info.type!r})")
        parts = _member_parts(name)
        stats.files += 1
        stats.unpacked += member_size
        _check_unpacked(stats)
        _write_member(stream.read, target, parts, member_size, exact_end=False)
        _read_exactly(stream, _padded(member_size) - member_size)
