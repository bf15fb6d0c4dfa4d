"""Which isolation levels work here: the probes behind ``--sandbox auto`` (``best_level``)
and the messages that say why a level cannot be used.

Above the launcher: the container level is known to work only once a probe child has started
in its chroot, installed its filter and answered.
"""

from __future__ import annotations

import functools
import os
import tempfile
from pathlib import Path

from .base import ResourceLimits, seccomp_program
from .bubblewrap import bubblewrap_works
from .launcher import Child, ChildFailure
from .staging import stage_runner


@functools.lru_cache(maxsize=None)
def container_problem() -> str | None:
    """Why the container level cannot be used here (a message saying what to do), or None
    once a probe child has started in its chroot, installed its filter and answered."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return ("the container level needs root (it chroots and switches to a private uid); "
                "run the grader as root or use --sandbox process")
    # pwd, grp and fcntl, which the container level needs, are there wherever geteuid is
    from .container import ContainerError, chroot_binary
    if chroot_binary() is None:
        return "coreutils chroot is missing; install coreutils or use --sandbox process"
    if seccomp_program() is None:
        return ("pyseccomp or libseccomp is missing, so the child could not be filtered; "
                "apt-get install -y libseccomp2 && pip install pyseccomp, or use "
                "--sandbox process")
    with tempfile.TemporaryDirectory(prefix="grader-probe-") as folder:
        folder = Path(folder)
        (folder / "submission").mkdir()
        (folder / "submission" / "probe.py").write_text("ANSWER = 42\n")
        (folder / "scratch").mkdir()
        child = Child(stage_runner(folder / "stage"), folder / "submission",
                      folder / "scratch", "container", ResourceLimits(cpu_seconds=20))
        try:
            from . import boundary
            answer = boundary.decode(child.request({"op": "load", "module": "probe"}, 30),
                                     boundary.LoadReply)
            reply = ({"status": "protocol", "error": answer.reason}
                     if isinstance(answer, boundary.Malformed) else boundary.to_plain(answer))
        except (ChildFailure, ContainerError, OSError) as failure:
            reply = {"status": str(failure), "error": getattr(failure, "details", None)}
        finally:
            child.stop()
            output = child.output()
    if reply.get("status") != "ok":
        return (f"a probe child at the container level failed ({reply.get('status')}: "
                f"{reply.get('error')}; stderr: {output['stderr'].strip()[-300:]!r}); "
                "use --sandbox process")
    return None


def container_works() -> bool:
    """Whether the container level works here (root, chroot, a filter, a probe answered)."""
    return container_problem() is None


def best_level() -> str:
    """The strongest level that works here."""
    if bubblewrap_works():
        return "bubblewrap"
    return "container" if container_works() else "process"
