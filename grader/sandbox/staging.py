"""The child-side runner, staged: a copy of the only parts of the grader that run next to
student code (``CHILD_SIDE``: the games, the conventions and ``child.py``, nothing else), with
their bytecode, in a folder of its own that the child imports from.  A runner a submission
changed (possible only at the ``process`` level) is staged again before the next one.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from .base import STRONG_LEVELS

GRADER_DIR = Path(__file__).resolve().parent.parent
# The only parts of the grader that run next to student code (see child.py's docstring).
CHILD_SIDE = ("games", "conventions", "sandbox/child.py")


def runner_manifest(destination: Path) -> dict:
    """Every entry of a staged runner with its inode, type, size and change times, to tell
    whether a submission changed it: any write, rename, chmod or utime sets an entry's
    ctime to the time of the change, which no unprivileged process can set back (hashing
    every file's content for every submission cost 6 ms of the worker's time)."""
    manifest = {}
    for top, folders, files in os.walk(destination):
        for name in folders + files:
            path = os.path.join(top, name)
            status = os.lstat(path)
            manifest[os.path.relpath(path, destination)] = (
                status.st_ino, status.st_mode, status.st_size, status.st_mtime_ns,
                status.st_ctime_ns)
    return manifest


class StagedRunner:
    """The child-side runner staged once per batch, and staged again before a submission
    whenever one before it changed it (possible only at the ``process`` level, where the
    child runs as the grading user): nothing one submission writes into its runner runs in
    a later submission's child."""

    def __init__(self, destination: Path):
        self.destination = destination
        self.script = stage_runner(destination)
        self.manifest = runner_manifest(destination)

    def intact(self, level: str = "process") -> Path:
        """The child script of an unchanged runner.  Compared with its manifest only for the
        ``process`` level: a child at a strong level never has it writable (bubblewrap
        mounts it read-only, the container level copies it into a root-owned read-only
        tree; tests/test_hostile.py tries to write it), and the walk cost every submission
        2 ms."""
        if level in STRONG_LEVELS:
            return self.script
        if runner_manifest(self.destination) != self.manifest:
            shutil.rmtree(self.destination, ignore_errors=True)
            self.script = stage_runner(self.destination)
            self.manifest = runner_manifest(self.destination)
        return self.script


def stage_runner(destination: Path) -> Path:
    """Copy the child-side modules into ``destination/grader``, with their bytecode
    (``stage_bytecode``); return the child script."""
    package = destination / "grader"
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text('"""Child-side copy of the grader: games and '
                                         'conventions only."""\n')
    (package / "sandbox").mkdir(exist_ok=True)
    (package / "sandbox" / "__init__.py").write_text("")
    for part in CHILD_SIDE:
        source = GRADER_DIR / part
        if source.is_dir():
            shutil.copytree(source, package / part, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, package / part)
    stage_bytecode(package)
    return package / "sandbox" / "child.py"


BYTECODE_FOLDER = "runner-bytecode"
KEEP_BYTECODE = 200      # kept files (newest first); one stage has about 30


def runner_bytecode_path(source: Path, tag: str) -> Path:
    """Where the child's interpreter looks for ``source``'s bytecode: ``__pycache__`` beside
    it.  Not ``importlib.util.cache_from_source``, which follows this process's
    ``sys.pycache_prefix`` (``PYTHONPYCACHEPREFIX``, set in some CI images) to a tree outside
    the runner folder; the child's environment is built from scratch, without a prefix, so it
    reads the folder beside the source."""
    return source.parent / "__pycache__" / f"{source.stem}.{tag}.pyc"


def stage_bytecode(package: Path) -> None:
    """Compiled bytecode beside each staged module (``__pycache__``), so that a child, which
    writes none (``-B``), does not compile the runner, the games and the conventions from
    source each time it starts (about 16 ms of a child's start).  Hash-checked (PEP 552):
    the child's interpreter uses a file only for the source it was compiled from, whatever
    the files' times, and only if it is of the same Python version; anything else is
    compiled from source as before.

    Compiled files are kept in the cache folder (``$GRADER_CACHE_DIR/runner-bytecode``, by
    the hash of the source and the interpreter's tag), so a self-check does not compile them
    in the parent either.  Bytecode is code: a kept file is copied only when it is a regular
    file of ours that nobody else can write, in a folder of the same kind; without a usable
    cache folder each module is compiled here.  They are kept beside the installed grader too
    (``sandbox/__pycache__/runner-bytecode``, under ``grader.cache.shipped_folder``'s rules):
    they follow from the grader's own files alone, so a new, empty cache folder copies them
    from there."""
    import hashlib
    import sys
    from ..cache import (keep, keep_shipped, private_folder, prune, read_kept, read_shipped,
                         shipped_folder)
    kept_folder = private_folder(BYTECODE_FOLDER)
    # and beside the installed grader (grader.cache.shipped_folder): a new, empty cache
    # folder copies them from there instead of compiling them
    shipped = shipped_folder(GRADER_DIR / "sandbox", BYTECODE_FOLDER, write=True) \
        or shipped_folder(GRADER_DIR / "sandbox", BYTECODE_FOLDER)
    tag = sys.implementation.cache_tag
    if tag is None:
        return
    added = False
    for source in sorted(package.rglob("*.py")):
        target = runner_bytecode_path(source, tag)
        name = f"{hashlib.sha256(source.read_bytes()).hexdigest()}.{tag}.pyc"
        kept = kept_folder / name if kept_folder is not None else None
        target.parent.mkdir(exist_ok=True)
        content = read_kept(kept) if kept is not None else None
        if content is None and shipped is not None:
            content = read_shipped(shipped / name, GRADER_DIR / "sandbox")
            if content is not None and kept is not None:
                added = keep(kept, content) or added
        if content is not None:
            target.write_bytes(content)
            continue
        import py_compile
        try:
            # named by its place in the runner: the same bytes from any stage (the importing
            # interpreter names code by where it found the source)
            py_compile.compile(str(source), cfile=str(target),
                               dfile=source.relative_to(package.parent).as_posix(), doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
        except py_compile.PyCompileError:
            continue        # the child reports it, as it would without bytecode
        if kept is not None:
            added = keep(kept, target.read_bytes()) or added
        if shipped is not None:
            keep_shipped(shipped / name, target.read_bytes())
    if added:
        # every changed module of a new grader version adds a file; a removed file that is
        # still needed is compiled and kept again
        prune(kept_folder, "*.pyc", KEEP_BYTECODE)
