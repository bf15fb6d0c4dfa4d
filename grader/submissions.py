"""Finding submissions: folders, or archives from an LMS export unpacked safely.

A submissions folder holds one sub-folder per student, or one archive per student
(``NAME.zip``, ``NAME.tar.gz``, ``NAME.tgz``, ``NAME.tar``), or both.  Archives are unpacked
into a private folder with limits against archive bombs and nothing that could reach outside
it: no absolute paths, no ``..``, no links, no device files.  An archive with a single
top-level folder is graded from inside that folder.
"""

from __future__ import annotations

import hashlib
import shutil
import stat
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")
MAX_FILES = 500
MAX_BYTES = 20 << 20


@dataclass(frozen=True)
class Submission:
    student: str
    display: str
    source: Path
    kind: str
    notes: tuple = ()


@dataclass(frozen=True)
class Staged:
    folder: Path
    problem: str | None = None
    notes: tuple = ()


def stage(submission: Submission, into: Path) -> Staged:
    # Interim: replaced by the staging copy (links, bytecode, limits) on the names branch.
    if submission.kind == "folder":
        return Staged(submission.source)
    try:
        return Staged(unpack(submission.source, into))
    except ArchiveError as error:
        shutil.rmtree(into, ignore_errors=True)
        into.mkdir(parents=True, exist_ok=True)
        return Staged(into, problem=str(error))


class ArchiveError(Exception):
    pass


def archive_stem(path: Path) -> str | None:
    for suffix in ARCHIVE_SUFFIXES:
        if path.name.lower().endswith(suffix):
            return path.name[: -len(suffix)]
    return None


def find(root: Path) -> list[Submission]:
    found = []
    for entry in sorted(root.iterdir()):
        if entry.name.startswith((".", "_")):
            continue
        if entry.is_dir():
            found.append(Submission(entry.name, entry.name, entry, "folder"))
        elif entry.is_file() and archive_stem(entry):
            found.append(Submission(archive_stem(entry), entry.name, entry, "archive"))
    return found


def _safe_name(name: str) -> PurePosixPath:
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise ArchiveError(f"the archive holds an unsafe path: {name!r}")
    return path


def unpack(archive: Path, target: Path) -> Path:
    target.mkdir(parents=True, exist_ok=False)
    total = 0
    files = 0
    if archive.name.lower().endswith(".zip"):
        try:
            with zipfile.ZipFile(archive) as bundle:
                for info in bundle.infolist():
                    path = _safe_name(info.filename)
                    mode = (info.external_attr >> 16) & 0o170000
                    if mode and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                        raise ArchiveError(f"the archive holds a link or special file: "
                                           f"{info.filename!r}")
                    if info.is_dir():
                        (target / path).mkdir(parents=True, exist_ok=True)
                        continue
                    files += 1
                    total += info.file_size
                    _check_size(files, total)
                    (target / path).parent.mkdir(parents=True, exist_ok=True)
                    with bundle.open(info) as source, open(target / path, "wb") as out:
                        _copy_limited(source, out, info.file_size)
        except (zipfile.BadZipFile, OSError, ValueError) as error:
            raise ArchiveError(f"the archive cannot be read: {error}") from error
    else:
        try:
            with tarfile.open(archive) as bundle:
                for member in bundle.getmembers():
                    path = _safe_name(member.name)
                    if member.isdir():
                        (target / path).mkdir(parents=True, exist_ok=True)
                        continue
                    if not member.isfile():
                        raise ArchiveError(f"the archive holds a link or special file: "
                                           f"{member.name!r}")
                    files += 1
                    total += member.size
                    _check_size(files, total)
                    (target / path).parent.mkdir(parents=True, exist_ok=True)
                    source = bundle.extractfile(member)
                    with source, open(target / path, "wb") as out:
                        _copy_limited(source, out, member.size)
        except (tarfile.TarError, OSError) as error:
            raise ArchiveError(f"the archive cannot be read: {error}") from error
    entries = [p for p in target.iterdir() if not p.name.startswith(("__MACOSX", "."))]
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return target


def _check_size(files: int, total: int) -> None:
    if files > MAX_FILES:
        raise ArchiveError(f"the archive holds more than {MAX_FILES} files")
    if total > MAX_BYTES:
        raise ArchiveError(f"the archive unpacks to more than {MAX_BYTES >> 20} MiB")


def _copy_limited(source, out, declared: int) -> None:
    """Copy at most what the archive declared (a lying header cannot make a bomb)."""
    remaining = declared
    while True:
        chunk = source.read(min(1 << 16, remaining + 1))
        if not chunk:
            return
        remaining -= len(chunk)
        if remaining < 0:
            raise ArchiveError("a file in the archive is larger than its header says")
        out.write(chunk)


def content_hash(folder: Path) -> str:
    """The submission's content: every file's relative path and bytes."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if "__pycache__" in path.parts:
            continue
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def tasks_hash(files) -> str:
    from . import __version__
    digest = hashlib.sha256(__version__.encode())
    for file in sorted(files):
        digest.update(Path(file).read_bytes())
    return digest.hexdigest()
