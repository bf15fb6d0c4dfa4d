"""Staging a submission, in a worker: a private copy holding only regular files and folders,
within fixed limits (``limits.py``), without bytecode and without packages that would shadow
the student's visible modules, its archives unpacked (``archives.py``) and an LMS download's
layout arranged.  That copy is what is hashed (``content_hash``), mounted and graded."""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..notes import Note
from .archives import unpack
from .files import CHUNK, copy_file, open_regular
from .finding import Submission
from .limits import (MAX_DEPTH, MAX_ENTRIES, MAX_NAME_BYTES, MAX_NESTING, NOTE_PATHS,
                     TOOLING_FOLDERS, ArchiveError, StagingError, UnpackStats, check_totals)
from .names import archive_stem, display_name, display_path, escape_controls, raw_name, safe_id


@dataclass(frozen=True)
class Staged:
    """A submission's private copy, ready to hash, mount and grade."""
    folder: Path
    problem: str | None = None      # why it could not be unpacked or staged (folder is empty)
    notes: tuple = ()               # what staging left out: links, bytecode, shadow packages


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
        folder = place / (safe_id(archive_stem(archive)) or "archive")
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
                display_path(c.relative_to(into).parts) + "/" for c in candidates]}))
        elif chosen is None:
            deeper = _deeper_module(into, modules)
            if deeper is not None:
                notes.append(Note("module-too-deep", {"path": display_path(
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
                notes.append(Note("subfolder", {"folder": display_path(
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
        found += [display_path(Path(current, name).relative_to(folder).parts)
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
                       key=lambda entry: raw_name(entry.name))
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


_BYTECODE_SUFFIXES = tuple({".pyc", ".pyo", ".pyd", ".so",
                            *(s.lower() for s in importlib.machinery.EXTENSION_SUFFIXES)})


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
    listing.sort(key=lambda entry: raw_name(entry.name))
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
            if len(raw_name(entry.name)) > MAX_NAME_BYTES:
                raise StagingError(f"the name {display_path(parts)} is longer than "
                                   f"{MAX_NAME_BYTES} bytes; rename it")
            if len(parts) > MAX_DEPTH:
                raise StagingError(f"{display_path(parts)} lies more than {MAX_DEPTH} "
                                   f"folders deep; flatten the submission")
            info = entry.stat(follow_symlinks=False)
            destination = os.path.join(target, entry.name)
            if stat.S_ISLNK(info.st_mode):
                left_out["links-ignored"].append(display_path(parts))
            elif stat.S_ISDIR(info.st_mode):
                if entry.name in TOOLING_FOLDERS \
                        or os.path.isfile(os.path.join(entry.path, "pyvenv.cfg")):
                    continue
                if entry.name == "__pycache__":
                    left_out["bytecode-ignored"].append(display_path(parts) + "/")
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
                    left_out["bytecode-ignored"].append(display_path(parts))
                elif info.st_nlink > 1:
                    # A hard link may be a second name for a file the student must not read.
                    left_out["hardlinks-ignored"].append(display_path(parts))
                else:
                    files += 1
                    total += info.st_size
                    check_totals(files, total)
                    copy_file(entry.path, destination, info.st_size)
            else:
                left_out["special-files-ignored"].append(display_path(parts))
    for key, paths in left_out.items():
        if paths:
            paths.sort()
            notes.append(Note(key, {"paths": paths[:NOTE_PATHS], "count": len(paths)}))
    return tuple(notes)


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
                relative = prefix + raw_name(entry.name)
                if stat.S_ISDIR(mode):
                    stack.append((entry.path, relative + b"/"))
                elif stat.S_ISREG(mode):
                    found.append((relative, entry.path))
    digest = hashlib.sha256()
    for relative, path in sorted(found):
        digest.update(relative + b"\0")
        file_digest = hashlib.sha256()
        with open(open_regular(path), "rb") as handle:
            while chunk := handle.read(CHUNK):
                file_digest.update(chunk)
        digest.update(file_digest.digest())
    return digest.hexdigest()


def tasks_hash(files) -> str:
    digest = hashlib.sha256(__version__.encode())
    for file in sorted(files):
        digest.update(Path(file).read_bytes())
    return digest.hexdigest()
