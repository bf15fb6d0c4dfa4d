"""Finding the submissions of a folder cheaply: names and kinds only, nothing opened or
unpacked.  Each entry (a folder, or an archive ``NAME.zip``, ``NAME.tar``, ``NAME.tar.gz``,
``NAME.tgz``) gets a human-readable ``display`` name and a unique ``student`` id that is safe
as a folder name under ``reports/``; an LMS's download is read by the layout it has
(``downloads.py``)."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ..notes import Note
from .downloads import only_online_text, plugin_folders
from .limits import TOOLING_FOLDERS
from .names import RESERVED_NAMES, archive_stem, display_name, raw_name, safe_id, with_suffix


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
        found.append((raw_name(name), display_name(name)))
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
        entries.append((raw_name(name), entry, stem, kind))
    # Raw bytes, not str: names that are not UTF-8 sort the same way on every machine.
    entries.sort(key=lambda e: e[0])
    extras = _one_per_participant(entries)

    reserved = {name.casefold() for name in RESERVED_NAMES}
    bases = [safe_id(stem) for _, _, stem, _ in entries]
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
            student = with_suffix(base, number)
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
