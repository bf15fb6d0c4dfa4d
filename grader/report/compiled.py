"""Compiled Jinja templates kept in the grader's cache folder (beside the answer cache), so a
self-check compiles neither its pages nor the catalogue's messages anew each time.

A cached template is code: only a file of ours that nobody else can write, in a folder of the
same kind, is read; a link in its place is not followed.  Jinja files a template under the
hash of its name (and file name) and compiles it again when its source's checksum differs.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

FOLDER = "templates"


class OwnBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache that reads only files of ours (``grader.cache.kept_file``)."""

    def load_bytecode(self, bucket) -> None:
        from ..cache import kept_file
        if kept_file(Path(self.directory) / (self.pattern % bucket.key)):
            super().load_bytecode(bucket)


def bytecode_cache(pattern: str = "__jinja2_%s.cache") -> OwnBytecodeCache | None:
    """The cache of compiled templates (``pattern``: its files' names, one per kind of
    environment, since the same name compiles differently with and without autoescaping), or
    None when the cache is turned off or its folder is not ours."""
    from ..cache import private_folder
    folder = private_folder(FOLDER)
    return OwnBytecodeCache(str(folder), pattern) if folder is not None else None
