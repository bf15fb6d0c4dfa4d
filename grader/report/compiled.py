"""Compiled Jinja templates kept in the grader's cache folder (beside the answer cache), and
beside the installed grader itself, so a self-check compiles neither its pages nor the
catalogue's messages anew each time, not even with a new, empty cache folder.

The templates and the catalogue are the grader's own files: what they compile to depends on
them, Jinja and Python alone, never on a course.  So, like Python's bytecode in
``__pycache__``, the compiled templates are also kept in ``__pycache__/templates/`` of this
package, where the installed grader's owner can write it (an editable install, a virtual
environment, a CI runner's venv after its first check): a cache folder that starts empty (a
CI runner's, the first check after the task files changed) then reads them from there instead
of compiling them.  A grader installed by another user (root's site-packages) is only read.

A cached template is code: only a regular file (a link in its place is not followed) that
nobody else can write is read, of ours in the cache folder, of ours or of the package's
owner beside the package, in a folder of the same kind.  Jinja files a template under the hash
of its name (and file name) and compiles it again when its source's checksum, Jinja's
bytecode format or the Python version differs.  With the cache turned off (``--no-cache``,
``GRADER_NO_CACHE=1``) neither place is read or written.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import jinja2

FOLDER = "templates"
# beside the installed package, where Python keeps this package's own bytecode
PACKAGE = Path(__file__).parent
SHIPPED = PACKAGE / "__pycache__" / FOLDER


class OwnBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache that reads only files of ours (``grader.cache.kept_file``), and
    falls back to (and fills) the compiled templates beside the package (``shipped``)."""

    def __init__(self, directory: str, pattern: str = "__jinja2_%s.cache",
                 shipped: Path | None = None):
        super().__init__(directory, pattern)
        self.shipped = shipped

    def load_bytecode(self, bucket) -> None:
        from ..cache import kept_file
        if kept_file(Path(self.directory) / (self.pattern % bucket.key)):
            super().load_bytecode(bucket)
        if bucket.code is None and self.shipped is not None:
            path = self.shipped / (self.pattern % bucket.key)
            if _trusted(path, self.shipped):
                try:
                    with open(path, "rb") as kept:
                        bucket.load_bytecode(kept)
                except OSError:
                    return
                if bucket.code is not None:
                    # kept in the cache folder too: the next check reads it from there
                    super().dump_bytecode(bucket)

    def dump_bytecode(self, bucket) -> None:
        super().dump_bytecode(bucket)
        if self.shipped is not None and _writable(self.shipped):
            path = self.shipped / (self.pattern % bucket.key)
            try:
                jinja2.FileSystemBytecodeCache(str(self.shipped), self.pattern) \
                    .dump_bytecode(bucket)
                os.chmod(path, 0o644)    # read by every user of the installed grader
            except OSError:
                pass


def _trusted(path: Path, folder: Path) -> bool:
    """A regular file (not a link) in a folder, both owned by us or by the package's owner
    and writable by nobody else: whoever could plant one there could edit the grader's own
    modules."""
    if not hasattr(os, "geteuid"):
        return False    # Windows: no owner to check, as in the cache folder
    owners = {os.geteuid(), _owner(PACKAGE)}
    try:
        for info, kind in ((os.lstat(folder), stat.S_ISDIR), (os.lstat(path), stat.S_ISREG)):
            if (not kind(info.st_mode) or info.st_uid not in owners
                    or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
                return False
    except OSError:
        return False
    return True


def _owner(path: Path) -> int | None:
    try:
        return os.stat(path).st_uid
    except OSError:
        return None


def _writable(folder: Path) -> bool:
    """Whether we may keep compiled templates in ``folder`` (made if need be, mode 0755):
    the package is ours, and the folder is ours and writable by nobody else."""
    if not hasattr(os, "geteuid") or _owner(PACKAGE) != os.geteuid():
        return False
    try:
        if not folder.is_dir():
            for made in (folder.parent, folder):
                made.mkdir(exist_ok=True)
                os.chmod(made, 0o755)
        info = os.lstat(folder)
    except OSError:
        return False
    return (stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid()
            and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def bytecode_cache(pattern: str = "__jinja2_%s.cache") -> OwnBytecodeCache | None:
    """The cache of compiled templates (``pattern``: its files' names, one per kind of
    environment, since the same name compiles differently with and without autoescaping), or
    None when the cache is turned off or its folder is not ours."""
    from ..cache import private_folder
    folder = private_folder(FOLDER)
    return OwnBytecodeCache(str(folder), pattern, SHIPPED) if folder is not None else None
