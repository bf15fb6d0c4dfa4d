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

from pathlib import Path

import jinja2

FOLDER = "templates"
# the package beside which they are kept too (in its __pycache__, as Python keeps its own)
PACKAGE = Path(__file__).parent


class OwnBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache that reads only files of ours (``grader.cache.kept_file``), and
    falls back to (and fills) the compiled templates beside the package (``shipped``:
    ``grader.cache.shipped_folder``'s rules)."""

    def __init__(self, directory: str, pattern: str = "__jinja2_%s.cache",
                 shipped: Path | None = None):
        super().__init__(directory, pattern)
        self.shipped = shipped

    def load_bytecode(self, bucket) -> None:
        from ..cache import kept_file, read_shipped, shipped_folder
        if kept_file(Path(self.directory) / (self.pattern % bucket.key)):
            super().load_bytecode(bucket)
        if bucket.code is not None or self.shipped is None:
            return
        folder = shipped_folder(self.shipped, FOLDER)
        content = (read_shipped(folder / (self.pattern % bucket.key), self.shipped)
                   if folder is not None else None)
        if content is not None:
            bucket.bytecode_from_string(content)
            if bucket.code is not None:
                # kept in the cache folder too: the next check reads it from there
                super().dump_bytecode(bucket)

    def dump_bytecode(self, bucket) -> None:
        from ..cache import keep_shipped, shipped_folder
        super().dump_bytecode(bucket)
        folder = shipped_folder(self.shipped, FOLDER, write=True) if self.shipped else None
        if folder is not None:
            keep_shipped(folder / (self.pattern % bucket.key), bucket.bytecode_to_string())


def bytecode_cache(pattern: str = "__jinja2_%s.cache") -> OwnBytecodeCache | None:
    """The cache of compiled templates (``pattern``: its files' names, one per kind of
    environment, since the same name compiles differently with and without autoescaping), or
    None when the cache is turned off or its folder is not ours."""
    from ..cache import private_folder
    folder = private_folder(FOLDER)
    return OwnBytecodeCache(str(folder), pattern, PACKAGE) if folder is not None else None
