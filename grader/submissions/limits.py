"""What staging a submission may do at most, each limit checked before the work it bounds is
done, the count of the work done so far (``UnpackStats``), and the errors staging raises."""

from __future__ import annotations

from dataclasses import dataclass

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
NOTE_PATHS = 10                     # paths listed in one note


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


def check_totals(files: int, total: int) -> None:
    """The file and size limits on one copied folder."""
    if files > MAX_FILES:
        raise StagingError(f"the submission holds more than {MAX_FILES} files; hand in only "
                           f"your code")
    if total > MAX_BYTES:
        raise StagingError(f"the submission holds more than {MAX_BYTES >> 20} MiB; hand in "
                           f"only your code")


def check_unpacked(stats: UnpackStats) -> None:
    """The file and size limits on what the archives of one submission unpack, together."""
    if stats.files > MAX_FILES:
        raise ArchiveError(f"the archive holds more than {MAX_FILES} files{stats.in_all()}; "
                           f"hand in only your code")
    if stats.unpacked > MAX_BYTES:
        raise ArchiveError(f"the archive unpacks to more than {MAX_BYTES >> 20} MiB"
                           f"{stats.in_all()}; hand in only your code")
