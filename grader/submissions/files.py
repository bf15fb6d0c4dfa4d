"""Opening and writing a submission's files: a regular file only, never through a link, and
in chunks, whatever a submission holds (the primitives of staging and unpacking)."""

from __future__ import annotations

import os
import stat

from .limits import StagingError
from .names import display_name

CHUNK = 1 << 16
# Open flags where the system has them (Windows has no O_NOFOLLOW, O_NONBLOCK or O_CLOEXEC,
# and needs O_BINARY): a self-check on a student's Windows machine stages a copy too.
OPEN_FLAGS = (getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
               | getattr(os, "O_BINARY", 0))


def open_regular(path: str) -> int:
    """A descriptor for ``path`` if it is a regular file; never follows a link, never blocks
    on a FIFO that replaced a file since it was listed."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | OPEN_FLAGS)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise StagingError(f"{display_name(os.path.basename(path))} changed while it was "
                           f"copied; grade again")
    return fd


def copy_file(path: str, destination: str, size: int) -> None:
    """Copy at most ``size`` bytes (the size seen when the limits were checked)."""
    with open(open_regular(path), "rb") as source, create_file(destination) as out:
        remaining = size
        while remaining > 0:
            chunk = source.read(min(CHUNK, remaining))
            if not chunk:
                break
            out.write(chunk)
            remaining -= len(chunk)


def create_file(path: str):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | OPEN_FLAGS, 0o644)
    if hasattr(os, "fchmod"):
        os.fchmod(fd, 0o644)            # whatever the umask: the sandbox's user reads it
    return open(fd, "wb")
