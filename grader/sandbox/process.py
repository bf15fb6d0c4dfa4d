"""The ``process`` level (the fallback, e.g. a student's laptop without bubblewrap): a plain
child process with the same runner, rlimits, timeouts, a new session and a group kill (and
the cgroup where one can be made).  Hidden checks are withheld here unless the instructor
insists (``base.STRONG_LEVELS``)."""

from __future__ import annotations

import os
from pathlib import Path

from .base import CHILD_FLAGS, package_entries


def process_package_folder(packages, folder: Path) -> Path:
    """At the process level: a folder of symbolic links to the provided packages' entries,
    for the child's import path (site-packages itself would show every package)."""
    folder.mkdir(exist_ok=True)
    for name, entry in package_entries(packages).items():
        link = folder / name
        if not link.is_symlink():
            os.symlink(entry, link)
    return folder


def command(python: str, child_script: Path, child_arguments: list[str], submission: Path,
            limits_json: str, provided: list[str]) -> list[str]:
    """The argv of a child at the process level: the interpreter on the staged runner's
    script, run where the launcher starts it."""
    return [python, *CHILD_FLAGS, str(child_script), *child_arguments, str(submission),
            limits_json, *provided]
