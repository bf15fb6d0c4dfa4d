"""What an LMS hands over, turned into a folder of submissions: Moodle's zip itself, its flat
download, ILIAS's download top; and one submission per Moodle participant, whatever number of
submission plugins wrote a folder for it.

Moodle's "Download all submissions" (mod/assign/classes/downloader.php, 4.1 and later):

* with "Download submissions in folders" on (the default), one folder per participant and
  submission plugin: ``Anna Schmidt_100001_assignsubmission_file/minimax.py`` and, where the
  assignment also takes online text, ``Anna Schmidt_100001_assignsubmission_onlinetext/
  onlinetext.html`` (before 4.1 the folders end in ``_``); in a team assignment the name is
  the group's and the number its id: ``Team Alpha_7_assignsubmission_file``, or no number
  for the default team;
* with it off, no folders: every file at the top, its name prefixed
  (``Anna Schmidt_100001_assignsubmission_file_minimax.py``);
* either way packed into one zip named after the course and assignment.

ILIAS's "Download all submissions" puts the students' folders under
``<assignment>/Abgaben/`` (or ``Submissions/``, after the user's language).

``find`` (``grader.submissions.finding``) asks ``plugin_folders`` which folders of one
participant belong together; ``prepare`` turns a zip, a flat download or an ILIAS top into the
folder ``find`` lists, in a temporary folder, with what it did said in one line each.  Nothing
here opens a student's file but to copy it, and nothing follows a link.
"""

from __future__ import annotations

import html.parser
import os
import re
import shutil
import stat
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

# A folder of one submission plugin: the participant's (or team's) prefix and the plugin.
PLUGIN_FOLDER = re.compile(r"^(?P<prefix>.+?(?:_\d+)?)_assignsubmission_(?P<plugin>[a-z0-9]+)_?$")
# A file of the flat download: the prefix, the plugin and the file's own name.
FLAT_FILE = re.compile(r"^(?P<prefix>.+?(?:_\d+)?)_assignsubmission_(?P<plugin>[a-z0-9]+)_"
                       r"(?P<name>.+)$")
GRADED_PLUGIN = "file"              # the plugin whose files are the code
ONLINE_TEXT = "onlinetext"
ONLINE_TEXT_FILE = "onlinetext.html"
ILIAS_FOLDER = re.compile(r"^[^_]+_.+_.+_\d+$")     # Lastname_Firstname_Login_UsrId

# Limits for a whole class's zip (a student's own archive has the tighter ones of
# grader.submissions.limits): checked before anything is written.
CLASS_ZIP_BYTES = 4 << 30           # the zip file
CLASS_MEMBERS = 100_000             # its members
CLASS_UNPACKED = 4 << 30            # what it unpacks to, declared sizes
CLASS_RATIO = 200                   # one member's decompressed : compressed
RATIO_FLOOR = 1 << 20
NAME_BYTES = 255
PATH_BYTES = 4096
ONLINE_TEXT_BYTES = 64 << 10        # read of an online text, for its note
ONLINE_TEXT_SHOWN = 600             # characters of it in the note
_OPEN_FLAGS = (getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
               | getattr(os, "O_BINARY", 0))


class DownloadError(ValueError):
    """Why what was passed as --submissions cannot be graded (the message says what to do)."""


@dataclass
class Prepared:
    """The folder to grade, what was done to get it (one line each), and the temporary
    folder holding it (None: the folder passed is graded as it is)."""
    root: Path
    said: list = field(default_factory=list)
    scratch: Path | None = None

    def cleanup(self) -> None:
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)


# -- one participant, one submission ---------------------------------------------------------

def plugin_folders(names) -> dict:
    """For folder names of a Moodle download: each participant's (or team's) graded folder ->
    the names of its other plugins' folders (an online text beside the files).  A
    participant with no ``file`` folder keeps its first one as the graded folder (its online
    text alone: nothing to run, a person reads it).  Names of no plugin are left out."""
    groups: dict[str, list] = {}
    for name in sorted(names):
        match = PLUGIN_FOLDER.match(name)
        if match is not None:
            groups.setdefault(match["prefix"], []).append((match["plugin"], name))
    primary = {}
    for folders in groups.values():
        folders.sort(key=lambda item: (item[0] != GRADED_PLUGIN, item[1]))
        primary[folders[0][1]] = [name for _, name in folders[1:]]
    return primary


def only_online_text(name: str) -> bool:
    """Whether a graded folder is a participant's online text (no files handed in)."""
    match = PLUGIN_FOLDER.match(name)
    return match is not None and match["plugin"] == ONLINE_TEXT


class _Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []

    def handle_data(self, data):
        self.parts.append(data)


def online_text(folder: Path) -> str | None:
    """The words of a participant's online text (``onlinetext.html`` in its plugin folder),
    as plain text cut to ``ONLINE_TEXT_SHOWN`` characters, or None when there is none.  Read
    without following links, at most ``ONLINE_TEXT_BYTES``; markup is dropped, never kept."""
    try:
        fd = os.open(folder / ONLINE_TEXT_FILE, os.O_RDONLY | _OPEN_FLAGS)
    except OSError:
        return None
    with open(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        data = handle.read(ONLINE_TEXT_BYTES)
    parser = _Text()
    try:
        parser.feed(data.decode("utf-8", "replace"))
        parser.close()
    except Exception:  # noqa: BLE001 - html.parser is lenient; a failure shows nothing
        return None
    text = " ".join(" ".join(parser.parts).split())
    return text[:ONLINE_TEXT_SHOWN] + ("…" if len(text) > ONLINE_TEXT_SHOWN else "")


# -- what was passed as --submissions --------------------------------------------------------

def prepare(path: Path) -> Prepared:
    """The folder of submissions ``path`` stands for: itself; or, for Moodle's zip, what it
    unpacks to; for ILIAS's download top, the one folder of student folders in it; for
    Moodle's flat download, its files regrouped into the folders the foldered download has.
    Raises ``DownloadError``."""
    path = Path(path)
    prepared = Prepared(path)
    try:
        if path.is_file() and path.name.lower().endswith(".zip"):
            prepared.scratch = Path(tempfile.mkdtemp(prefix="grader-download-"))
            root = prepared.scratch / "unpacked"
            count = unpack_class_zip(path, root)
            prepared.root = _single_folder(root)
            prepared.said.append(f"{path.name}: unpacked {count} file(s) of the download")
        elif not path.is_dir():
            raise DownloadError(f"{path}: no such folder; pass the folder of submissions "
                                f"(or the LMS's zip) with --submissions")
        _ilias_top(prepared)
        _flat(prepared)
    except BaseException:
        prepared.cleanup()
        raise
    return prepared


def _single_folder(root: Path) -> Path:
    entries = [e for e in root.iterdir() if not e.name.startswith(("__MACOSX", "."))]
    if len(entries) == 1 and entries[0].is_dir() and not entries[0].is_symlink() \
            and not PLUGIN_FOLDER.match(entries[0].name) \
            and not ILIAS_FOLDER.match(entries[0].name):
        return entries[0]
    return root


def _entries(folder: Path) -> list:
    try:
        return sorted(e for e in folder.iterdir() if not e.name.startswith((".", "__")))
    except OSError:
        return []


def _holds_students(folder: Path) -> bool:
    """Only folders named like ILIAS's students' (and at least one)."""
    entries = _entries(folder)
    return bool(entries) and all(ILIAS_FOLDER.match(e.name) and e.is_dir()
                                 and not e.is_symlink() for e in entries)


def _student_folders(folder: Path, depth: int) -> list:
    """The folders of student folders below ``folder``, reached through folders that hold
    nothing but the one folder on the way (``<exercise>/<assignment>/Abgaben``): a class's
    own folders, whatever lies deep inside one, are never on such a way."""
    found = []
    for entry in _entries(folder):
        if not entry.is_dir() or entry.is_symlink():
            continue
        if _holds_students(entry):
            found.append(entry)
        elif depth > 1:
            inner = _entries(entry)
            if len(inner) == 1 and inner[0].is_dir() and not inner[0].is_symlink():
                found += _student_folders(entry, depth - 1)
    return found


def _ilias_top(prepared: Prepared) -> None:
    """ILIAS's download top: the folder (up to 3 levels down, on a way of lone folders)
    holding the students' ``Lastname_Firstname_Login_UsrId`` folders, if the top holds none
    itself."""
    root = prepared.root
    if any(ILIAS_FOLDER.match(e.name) or PLUGIN_FOLDER.match(e.name)
           or FLAT_FILE.match(e.name) for e in root.iterdir()):
        return      # the students' folders themselves, or Moodle's
    found = _student_folders(root, 3)
    if len(found) > 1:
        raise DownloadError(f"{prepared.root} holds the submissions of several assignments "
                            f"({', '.join(str(f.relative_to(root)) for f in found)}); pass "
                            f"one of them with --submissions")
    if found:
        prepared.root = found[0]
        prepared.said.append(f"ILIAS's download: grading the students' folders in "
                             f"{found[0].relative_to(root)}")


def _flat(prepared: Prepared) -> None:
    """Moodle's download without folders: its files, named ``<prefix>_assignsubmission_
    <plugin>_<name>``, copied into one folder per prefix and plugin, named as the foldered
    download names them; other entries are left where they are and graded as before."""
    root = prepared.root
    flat = []
    for entry in sorted(root.iterdir()):
        match = FLAT_FILE.match(entry.name)
        if match and not PLUGIN_FOLDER.match(entry.name) \
                and stat.S_ISREG(os.lstat(entry).st_mode):
            flat.append((entry, match))
    if not flat:
        return
    if prepared.scratch is None:
        prepared.scratch = Path(tempfile.mkdtemp(prefix="grader-download-"))
    target = prepared.scratch / "regrouped"
    target.mkdir()
    folders = set()
    for entry, match in flat:
        folder = f"{match['prefix']}_assignsubmission_{match['plugin']}"
        folders.add(folder)
        (target / folder).mkdir(exist_ok=True)
        destination = target / folder / match["name"]
        if os.path.lexists(destination):
            raise DownloadError(f"{entry.name}: two files of one participant have the name "
                                f"{match['name']}; unpack the download again")
        _copy_regular(entry, destination)
    for entry in sorted(root.iterdir()):       # the rest, as they were (folders, archives)
        if entry.name not in {e.name for e, _ in flat} and not entry.is_symlink():
            if entry.is_dir():
                shutil.copytree(entry, target / entry.name, symlinks=True)
            elif entry.is_file():
                _copy_regular(entry, target / entry.name)
    prepared.root = target
    prepared.said.append(f"Moodle's download without folders: {len(flat)} file(s) regrouped "
                         f"into {len(folders)} folder(s), one per participant and plugin")


def _copy_regular(source: Path, destination: Path) -> None:
    fd = os.open(source, os.O_RDONLY | _OPEN_FLAGS)
    with open(fd, "rb") as reader:
        if not stat.S_ISREG(os.fstat(reader.fileno()).st_mode):
            return
        out = os.open(destination, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _OPEN_FLAGS, 0o644)
        with open(out, "wb") as writer:
            shutil.copyfileobj(reader, writer)


def _parts(name: str) -> list[str]:
    """A member's path as safe names; refuses absolute paths, drive letters and ``..``."""
    if name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name) or "\0" in name:
        raise DownloadError(f"the zip holds an absolute path ({name!r}); not unpacked")
    if len(name.encode("utf-8", "surrogateescape")) > PATH_BYTES:
        raise DownloadError("the zip holds a path longer than 4096 bytes; not unpacked")
    parts = [part for part in name.replace("\\", "/").split("/") if part not in ("", ".")]
    for part in parts:
        if part == ".." or len(part.encode("utf-8", "surrogateescape")) > NAME_BYTES:
            raise DownloadError(f"the zip holds the path {name!r}, which would leave the "
                                f"folder or is too long; not unpacked")
    return parts


def unpack_class_zip(archive: Path, target: Path) -> int:
    """Unpack a whole class's download into the new folder ``target``; the number of files.
    Links, special files, encrypted members, paths out of the folder and bombs are refused
    (``DownloadError``) before anything of them is written."""
    info = os.lstat(archive)
    if not stat.S_ISREG(info.st_mode):
        raise DownloadError(f"{archive}: not a regular file (a link?); pass the zip itself")
    if info.st_size > CLASS_ZIP_BYTES:
        raise DownloadError(f"{archive}: larger than {CLASS_ZIP_BYTES >> 30} GiB; unpack it "
                            f"yourself and pass the folder")
    try:
        bundle = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError) as error:
        raise DownloadError(f"{archive}: not a zip file that can be read ({error}); download "
                            f"it again") from None
    with bundle:
        members = bundle.infolist()
        if len(members) > CLASS_MEMBERS:
            raise DownloadError(f"{archive}: more than {CLASS_MEMBERS} members")
        if sum(m.file_size for m in members) > CLASS_UNPACKED:
            raise DownloadError(f"{archive}: unpacks to more than {CLASS_UNPACKED >> 30} GiB")
        for member in members:
            mode = (member.external_attr >> 16) & 0o170000
            if mode and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                raise DownloadError(f"{archive}: {member.filename!r} is a link or special "
                                    f"file; not unpacked")
            if member.flag_bits & 0x1:
                raise DownloadError(f"{archive}: {member.filename!r} is encrypted")
            if member.file_size > RATIO_FLOOR and \
                    member.file_size > CLASS_RATIO * max(member.compress_size, 1):
                raise DownloadError(f"{archive}: {member.filename!r} is compressed more than "
                                    f"{CLASS_RATIO}:1 (a zip bomb?); not unpacked")
            _parts(member.filename)
        target.mkdir(parents=True)
        files = 0
        for member in members:
            parts = _parts(member.filename)
            if not parts:
                continue
            place = target.joinpath(*parts)
            if member.is_dir() or member.filename.endswith("\\"):
                place.mkdir(parents=True, exist_ok=True)
                continue
            place.parent.mkdir(parents=True, exist_ok=True)
            try:
                fd = os.open(place, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _OPEN_FLAGS,
                             0o644)
            except FileExistsError:
                raise DownloadError(f"{archive}: {member.filename!r} is in it twice; not "
                                    f"unpacked") from None
            written = 0
            with open(fd, "wb") as out, bundle.open(member) as source:
                while chunk := source.read(1 << 16):
                    written += len(chunk)
                    if written > member.file_size:
                        raise DownloadError(f"{archive}: {member.filename!r} unpacks to more "
                                            f"than it says; not unpacked")
                    out.write(chunk)
            files += 1
    return files
