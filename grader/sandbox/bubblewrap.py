"""The ``bubblewrap`` level (the strongest): the child runs under bubblewrap in new user,
PID, network, IPC, UTS and cgroup namespaces, as uid 65534, seeing only the Python runtime
(its site-packages masked), the staged runner and the student's folder, read-only, and a
size-limited scratch ``/tmp`` (see ``grader/sandbox/__init__.py``)."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .base import (CHILD_FLAGS, PACKAGE_THREADS, PACKAGES_MOUNT, RUNNER_MOUNT, SANDBOX_UID,
                   SUBMISSION_MOUNT, ResourceLimits, package_entries)


@functools.lru_cache(maxsize=None)
def bubblewrap_works() -> bool:
    """Whether bubblewrap is installed and can make the namespaces it needs here."""
    bwrap = shutil.which("bwrap")
    if not bwrap:
        return False
    try:
        probe = subprocess.run([bwrap, "--unshare-all", "--unshare-user", "--die-with-parent",
                                "--ro-bind", "/", "/", "--uid", str(SANDBOX_UID), "true"],
                               capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def _system_mounts() -> list[str]:
    arguments = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            arguments += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            arguments += ["--ro-bind", top, top]
    return arguments


def _python_mounts(python: str) -> list[str]:
    prefix = os.path.realpath(sys.base_prefix)
    arguments = []
    if not prefix.startswith("/usr/") and prefix != "/usr":
        arguments += ["--ro-bind", prefix, prefix]
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for packages in (os.path.join(prefix, "lib", version, "site-packages"),
                     os.path.join(prefix, "local", "lib", version, "dist-packages")):
        if os.path.isdir(packages):
            arguments += ["--tmpfs", packages]          # installed packages stay out of sight
    if not os.path.realpath(python).startswith((prefix, "/usr/")):
        arguments += ["--ro-bind", python, python]
    return arguments


def command(python: str, stage: Path, submission: Path, inside_script: str,
            child_arguments: list[str], limits: ResourceLimits, seccomp_fd: int | None,
            packages, limits_json: str, provided: list[str]) -> list[str]:
    """The argv of a child under bubblewrap: the staged runner at ``/runner``, the student's
    folder at ``/submission``, the course's packages under ``/packages``, all read-only."""
    arguments = ["bwrap", "--unshare-all", "--unshare-user", "--die-with-parent",
                 "--new-session", "--clearenv", "--cap-drop", "ALL",
                 "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID), "--hostname", "sandbox",
                 *_system_mounts(), *_python_mounts(python),
                 "--ro-bind", str(stage), RUNNER_MOUNT,
                 "--ro-bind", str(submission), SUBMISSION_MOUNT,
                 "--proc", "/proc", "--dev", "/dev",
                 "--size", str(limits.scratch_bytes), "--tmpfs", "/tmp",
                 "--remount-ro", "/", "--chdir", "/tmp",
                 "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "LANG", "C.UTF-8",
                 "--setenv", "PYTHONHASHSEED", "0", "--setenv", "HOME", "/tmp"]
    if packages:
        # Mounted before "/" is made read-only; bind mounts of their own, read-only as well.
        position = arguments.index("--remount-ro")
        mounts = []
        for name, entry in package_entries(packages).items():
            mounts += ["--ro-bind", entry, f"{PACKAGES_MOUNT}/{name}"]
        for variable, value in PACKAGE_THREADS.items():
            mounts += ["--setenv", variable, value]
        arguments[position:position] = mounts
    if seccomp_fd is not None:
        arguments += ["--seccomp", str(seccomp_fd)]
    return arguments + ["--", python, *CHILD_FLAGS, inside_script, *child_arguments,
                        SUBMISSION_MOUNT, limits_json, *provided]
