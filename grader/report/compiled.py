"""Compiled Jinja templates kept in the grader's cache folder (beside the answer cache), so a
self-check compiles neither its pages nor the catalogue's messages anew each time.

A cached template is code: only a file of ours that nobody else can write, in a folder of the
same kind, is read; a link in its place is not followed.  Jinja files a template under the
hash of its name (and file name) and compiles it again when its source's checksum differs.
"""

from __future__ import annotations

import os

import jinja2

FOLDER = "templates"


class OwnBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache that reads only files of ours (``answer_cache._ours``)."""

    def load_bytecode(self, bucket) -> None:
        from ..answer_cache import _ours
        try:
            info = os.lstat(os.path.join(self.directory, self.pattern % bucket.key))
        except OSError:
            return
        if _ours(info):
            super().load_bytecode(bucket)


def bytecode_cache(pattern: str = "__jinja2_%s.cache") -> OwnBytecodeCache | None:
    """The cache of compiled templates (``pattern``: its files' names, one per kind of
    environment, since the same name compiles differently with and without autoescaping), or
    None when the cache is turned off or its folder is not ours."""
    from ..answer_cache import _ours, cache_dir, enabled
    if not enabled():
        return None
    folder = cache_dir() / FOLDER
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not (_ours(os.lstat(folder)) and _ours(os.lstat(folder.parent))):
            return None
    except OSError:
        return None
    return OwnBytecodeCache(str(folder), pattern)
