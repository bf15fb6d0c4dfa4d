"""The parent's side of a child run: stage the runner, start the child at an isolation level
(see ``isolation.py``), send calls, enforce time limits, and clean up everything the child
started.

Whatever the level, the child is a fresh interpreter started with ``-s -S -B -u`` (no
site-packages, no bytecode written into the student's folder, unbuffered output) with an
environment built from scratch (PYTHONHASHSEED=0, so student code's set orders repeat), a new session, the student's folder as the only addition to its import
path, stdin from /dev/null, stdout and stderr to size-capped files, and a wall-clock limit per
call after which the whole process tree is killed.
"""

from __future__ import annotations

import json
import os
import secrets
import select
import shutil
import signal
import subprocess
import time
from pathlib import Path

from . import chroot
from .isolation import Cgroup, ResourceLimits, base_python, command, seccomp_fd

GRADER_DIR = Path(__file__).resolve().parent.parent
# The only parts of the grader that run next to student code (see child.py's docstring).
CHILD_SIDE = ("games", "conventions", "sandbox/child.py")
OUTPUT_CAP = 64 * 1024
REPLY_CAP = 64 * 1024 * 1024


def stage_runner(destination: Path) -> Path:
    """Copy the child-side modules into ``destination/grader``; return the child script."""
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
    return package / "sandbox" / "child.py"


def _refuse_constant(name: str):
    """NaN and infinities are not plain data: a reply holding them is malformed."""
    raise ValueError(f"{name} in a child's reply")


class ChildFailure(Exception):
    def __init__(self, status: str, details: dict):
        super().__init__(status)
        self.status = status
        self.details = details


class Child:
    """One running child process for one submission; restarted after a timeout or crash."""

    def __init__(self, child_script: Path, submission: Path, scratch: Path,
                 level: str = "process", limits: ResourceLimits = ResourceLimits()):
        self.child_script = child_script
        self.stage = child_script.parent.parent.parent
        self.submission = submission.resolve()
        self.scratch = scratch
        self.level = level
        self.limits = limits
        self.process: subprocess.Popen | None = None
        self.cgroup: Cgroup | None = None
        self.uid: int | None = None                  # container level: this run's own uid
        self.root: chroot.ChildRoot | None = None    # container level: this run's root
        self.stdout_path = scratch / "stdout.txt"
        self.stderr_path = scratch / "stderr.txt"

    def start(self) -> None:
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
               "PYTHONIOENCODING": "utf-8"}
        if self.level == "container":
            if self.stage / "grader" / "sandbox" / "child.py" != self.child_script:
                raise ValueError(f"{self.child_script}: not a runner staged by stage_runner")
            env["HOME"] = "/tmp"
            self.uid = chroot.UIDS.acquire()
            try:
                self.root = chroot.ChildRoot(base_python(), self.stage, self.submission,
                                             self.uid)
            except BaseException:
                chroot.UIDS.release(self.uid)
                self.uid = None
                raise
        request_read, self.request_write = os.pipe()
        self.reply_read, reply_write = os.pipe()
        filter_fd = seccomp_fd() if self.level in ("bubblewrap", "container") else None
        passed = [request_read, reply_write] + ([filter_fd] if filter_fd is not None else [])
        try:
            argv = command(self.level, self.stage, self.child_script, self.submission,
                           request_read, reply_write, self.limits, filter_fd,
                           self.root.path if self.root else None, self.uid)
            self.cgroup = Cgroup.create(self.limits)
            if self.cgroup is not None:
                # Join the cgroup before exec, so that no process the child starts escapes it.
                argv = self.cgroup.wrap(argv)
            with open(self.stdout_path, "ab") as out, open(self.stderr_path, "ab") as err:
                self.process = subprocess.Popen(
                    argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env,
                    cwd=self.scratch, pass_fds=passed, start_new_session=True, close_fds=True)
        except BaseException:
            for fd in (self.request_write, self.reply_read):
                os.close(fd)
            self._release()
            raise
        finally:
            for fd in passed:
                os.close(fd)
        self.buffer = b""

    def request(self, message: dict, timeout: float) -> dict:
        """Send one request and wait at most ``timeout`` seconds for its reply.

        Every request carries a fresh random id that the runner echoes; lines on the reply
        pipe without it (e.g. written there by student code) are ignored.
        """
        if self.process is None:
            self.start()
        deadline = time.monotonic() + timeout
        request_id = secrets.token_hex(8)
        try:
            os.write(self.request_write, (json.dumps({**message, "id": request_id}) + "\n").encode())
        except (BrokenPipeError, OSError):
            raise self._died()
        while True:
            reply = self._read_line(deadline, timeout)
            if isinstance(reply, dict) and reply.get("id") == request_id:
                reply.pop("id")
                return reply

    def _read_line(self, deadline: float, timeout: float):
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.stop()
                raise ChildFailure("timeout", {"seconds": timeout})
            ready, _, _ = select.select([self.reply_read], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self.reply_read, 1 << 20)
            if not chunk:
                raise self._died()
            self.buffer += chunk
            if len(self.buffer) > REPLY_CAP:
                self.stop()
                raise ChildFailure("protocol", {"message": "reply too large"})
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            return json.loads(line, parse_constant=_refuse_constant)
        except ValueError:
            return None  # not the runner's reply: skipped

    def _died(self) -> ChildFailure:
        code = self.process.wait() if self.process else None
        self.stop()
        if code is not None and self.level == "bubblewrap" and code > 128:
            code = -(code - 128)  # bubblewrap exits 128+N when its child dies of signal N
        try:
            detail = (f"signal {signal.Signals(-code).name}" if code is not None and code < 0
                      else f"exit status {code}")
        except ValueError:
            detail = f"signal {-code}"
        return ChildFailure("crashed", {"detail": detail})

    def stop(self) -> None:
        """Kill everything the child started and close the pipes: its process group, its PID
        namespace (bubblewrap: the namespace dies with its first process), every process of
        its uid (container: also those that left the group with a new session, cgroup or
        not) and its cgroup; then remove its root and give its uid back."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for fd in (self.request_write, self.reply_read):
            try:
                os.close(fd)
            except OSError:
                pass
        self.process = None
        self._release()

    def _release(self) -> None:
        """What start acquired besides the pipes: the cgroup, the uid and the root (in that
        order: nothing of the uid may still run, or write, when its root goes)."""
        try:
            if self.uid is not None:
                chroot.kill_uid(self.uid)
            if self.cgroup is not None:
                self.cgroup.remove()
                self.cgroup = None
            if self.root is not None:
                self.root.remove()
                self.root = None
        finally:
            if self.uid is not None:
                chroot.UIDS.release(self.uid)
                self.uid = None

    def output(self) -> dict:
        """What the student's code printed, capped."""
        result = {}
        for name, path in (("stdout", self.stdout_path), ("stderr", self.stderr_path)):
            try:
                with open(path, "rb") as handle:
                    data = handle.read(OUTPUT_CAP + 1)
            except OSError:
                data = b""
            text = data[:OUTPUT_CAP].decode("utf-8", errors="replace")
            result[name] = text + ("\n[…]" if len(data) > OUTPUT_CAP else "")
        return result
