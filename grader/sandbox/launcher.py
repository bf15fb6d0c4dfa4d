"""The parent's side of a child run: start the child at an isolation level (one module per
level, see ``grader/sandbox/__init__.py``), send calls, enforce time limits, and clean up
everything the child started.

Whatever the level, the child is a fresh interpreter started with ``-s -S -B -u`` (no
site-packages, no bytecode written into the student's folder, unbuffered output) with an
environment built from scratch (PYTHONHASHSEED=0, so student code's set orders repeat), a
new session, the staged runner (``staging.py``), the student's folder as the only addition
to its import path, stdin from /dev/null, stdout and stderr to pipes the parent drains (``captured.py``: what
it prints is cut, never fatal), and a wall-clock limit per call after which the whole process
tree is killed.
"""

from __future__ import annotations

import json
import os
import secrets
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from ..calls import SentItems
from .packages import Provision
from . import bubblewrap, process
from .base import (CHILD_FLAGS, PACKAGE_THREADS, PACKAGES_MOUNT, RUNNER_MOUNT, ResourceLimits,
                   base_python, seccomp_fd)
from .captured import CapturedOutput
from .cgroup import Cgroup
from .portable import (THREADED_PIPES, PipeThreads, child_numbers, kill_tree,
                       process_cpu_seconds, spawn)
from .processes import stop_processes, tree_cpu_seconds, tree_pids

try:
    from . import container
except ImportError:
    # pwd, grp and fcntl are missing (a student's Windows machine): the container level,
    # the only one this module serves, is not used there (the process level is)
    container = None

REPLY_CAP = 16 << 20                    # = boundary.MAX_REPLY_BYTES (one reply line)


def backstop(cpu_limit: float) -> float:
    """The wall-clock limit behind a CPU-time limit: generous, for a loaded machine, and
    short enough that a child that sleeps or blocks does not hold up the batch."""
    return max(5 * cpu_limit, cpu_limit + 5)


class Interrupted(BaseException):
    """The batch is being stopped (SIGINT/SIGTERM): not a verdict on the submission.  A
    BaseException, so that no handler for a student's failures can swallow it."""


# Set while a batch stops: no child starts any more, and every running one is killed.
STOPPING = threading.Event()
_LIVE: set = set()
_LIVE_LOCK = threading.Lock()


def stop_all_children() -> None:
    """Stop the batch's children now (from the thread that handles the interruption)."""
    STOPPING.set()
    with _LIVE_LOCK:
        children = list(_LIVE)
    for child in children:
        process = child.process
        if process is not None:
            kill_tree(process)
        cgroup = child.cgroup
        if child.frozen == "cgroup" and cgroup is not None:
            cgroup.kill_all()       # a frozen v1 group's processes die only once thawed


class ChildFailure(Exception):
    def __init__(self, status: str, details: dict):
        super().__init__(status)
        self.status = status
        self.details = details


class Child:
    """One running child process for one submission; restarted after a timeout or crash."""

    def __init__(self, child_script: Path, submission: Path, scratch: Path,
                 level: str = "process", limits: ResourceLimits = ResourceLimits(),
                 packages: Provision = Provision()):
        self.child_script = child_script
        self.packages = packages      # third-party packages the course provides
        self.stage = child_script.parent.parent.parent
        self.submission = submission.resolve()
        self.scratch = scratch
        self.level = level
        self.limits = limits
        self.process: subprocess.Popen | None = None
        self.cgroup: Cgroup | None = None
        # A kept-alive child can be frozen between its requests (a player between its moves):
        # how it is frozen now ("cgroup", "signals" or None), the pids stopped by signal, and
        # "signals" to use those even where the cgroup could freeze (``freeze``).
        self.frozen: str | None = None
        self.stopped: set[int] = set()
        self.freeze_with: str | None = None
        # CPU accounting across requests: cpu_seconds() when the last request of
        # ``accounted_process`` ended, and what a request used before it began (since the
        # previous one ended: between a player's moves; ``request``'s ``turn``)
        self.accounted_cpu = 0.0
        self.accounted_process: subprocess.Popen | None = None
        self.last_between = 0.0
        self.wall_cap = 0.0          # the request's wall-clock limit
        self.idle_rule: tuple | None = None
        self.cpu_base = self.final_cpu = 0.0   # CPU time of earlier (restarted) processes
        self.last_cpu = self.last_wall = 0.0    # what the last request cost
        self.uid: int | None = None                  # container level: this run's own uid
        self.root: container.ChildRoot | None = None    # container level: this run's root
        self.captured = CapturedOutput()   # what it prints, over every restart
        self.threads: PipeThreads | None = None     # the pipes' readers, without select()
        self.started = 0.0
        # the item texts the running process has been sent (``grader.calls.SentItems``);
        # a process started anew knows none of them
        self.sent_items = SentItems()

    def start(self) -> None:
        if STOPPING.is_set():
            raise Interrupted()
        self.sent_items = SentItems()
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
               "PYTHONIOENCODING": "utf-8"}
        if self.packages:
            env.update(PACKAGE_THREADS)
        if self.level == "container":
            if self.stage / "grader" / "sandbox" / "child.py" != self.child_script:
                raise ValueError(f"{self.child_script}: not a runner staged by stage_runner")
            env["HOME"] = "/tmp"
            self.uid = container.UIDS.acquire()
            try:
                self.root = container.ChildRoot(base_python(), self.stage, self.submission,
                                             self.uid, self.packages)
            except BaseException:
                container.UIDS.release(self.uid)
                self.uid = None
                raise
        request_read, self.request_write = os.pipe()
        self.reply_read, reply_write = os.pipe()
        filter_fd = seccomp_fd() if self.level in ("bubblewrap", "container") else None
        passed = [request_read, reply_write] + ([filter_fd] if filter_fd is not None else [])
        # without select() on pipes (Windows), a thread reads each of the child's pipes
        self.threads = PipeThreads() if THREADED_PIPES else None
        out, err = self.captured.open(self.threads)
        # what the child opens: these descriptors, or on Windows their handles
        request_number, reply_number = child_numbers([request_read, reply_write])
        try:
            folder = (process.process_package_folder(self.packages, self.scratch / "packages")
                      if self.level == "process" and self.packages else None)
            argv = command(self.level, self.stage, self.child_script, self.submission,
                           request_number, reply_number, self.limits, filter_fd,
                           self.root.path if self.root else None, self.uid,
                           self.packages, folder)
            self.cgroup = Cgroup.create(self.limits)
            if self.cgroup is not None:
                # Join the cgroup before exec, so that no process the child starts escapes it.
                argv = self.cgroup.wrap(argv)
            self.process = spawn(argv, out, err, env, self.scratch, passed)
        except BaseException:
            for fd in (self.request_write, self.reply_read):
                os.close(fd)
            self.captured.close()
            self._release()
            raise
        finally:
            for fd in (*passed, out, err):
                os.close(fd)
        if self.threads is not None:
            self.threads.watch(self.reply_read)
        self.started = time.monotonic()
        with _LIVE_LOCK:
            _LIVE.add(self)
        self.buffer = bytearray()   # appended in place: a long line costs no quadratic copying
        self.scanned = 0            # how much of the buffer is known to hold no newline
        self.skipping = False
        self.check_at = 0.0         # when a request reads the child's CPU time next

    def request(self, message: dict | str, cpu_limit: float,
                wall_limit: float | None = None, *, idle_limit: float | None = None,
                turn: bool = False) -> bytes:
        """Send one request (a dict, or a JSON object already encoded by ``json.dumps``);
        return the raw bytes of its reply (validated by the caller at the trust boundary,
        ``grader.sandbox.boundary``).

        The limit is the child's own CPU time (every process it started counts, via its
        cgroup or its process tree), so that a busy neighbour cannot turn into a timeout;
        ``wall_limit`` (default ``backstop(cpu_limit)``) catches a child that sleeps or
        blocks.  Every request carries a fresh random id; the runner starts its reply line
        with ``@ID ``.  Other lines on the reply pipe (written there by student code) are
        discarded as they stream in, without being parsed or kept.

        ``idle_limit``: the seconds of wall-clock time the request may pass idle, neither
        computing nor waiting for a processor or the disk (``waiting_seconds``; where the kernel does not
        say, waiting counts as idle and ``cpu_limit`` more is allowed); past them it times
        out with ``idle`` in its details.  ``turn``: the request is one turn of a child
        kept between turns (a player's move): the CPU its processes used since its previous
        request ended (``last_between``) counts against ``cpu_limit`` too, and the child
        is frozen after the reply until its next request (which thaws it).

        After the request: ``last_cpu``, the CPU time used from its start (for a child's
        first turn, from the child's start) until its reply (until it was frozen, for a
        turn); ``last_between``, that used before it since the previous request ended
        (0 for a child's first); ``last_wall``, its wall-clock time.
        """
        if self.process is None:
            self.start()
        wall_limit = backstop(cpu_limit) if wall_limit is None else wall_limit
        request_id = secrets.token_hex(8)
        self.last_cpu = self.last_wall = self.last_between = 0.0
        # read before a frozen child is thawed: waking up is the request's, not between
        cpu_now, wall_start = self.cpu_seconds(), time.monotonic()
        first = self.accounted_process is not self.process
        if first:
            self.accounted_process, self.accounted_cpu = self.process, self.cpu_base
        else:
            self.last_between = max(0.0, cpu_now - self.accounted_cpu)
        own_start = self.cpu_base if first and turn else cpu_now
        cpu_start = self.accounted_cpu if turn else cpu_now     # what the limit counts from
        self.wall_cap = wall_limit
        if cpu_now - cpu_start >= cpu_limit:     # a turn whose time was used up in between
            self.stop()
            raise ChildFailure("timeout", self._timeout_details(cpu_limit, cpu_limit, 0.0, None))
        if self.frozen:
            self.thaw()
        waiting_start = None if idle_limit is None else self.waiting_seconds()
        # the CPU time was read just now: the next reading is due when the allowance could
        # be spent (``_read_line``)
        self.check_at = wall_start + _next_check(wall_limit, cpu_limit - (cpu_now - cpu_start))
        try:
            os.write(self.request_write, _with_id(message, request_id).encode())
        except (BrokenPipeError, OSError):
            raise self._died()
        # a move's idle time counts from when it was asked: a parent kept from a processor
        # before it wrote the request has not let the child idle
        self.idle_rule = (None if idle_limit is None else
                          (idle_limit, cpu_now, waiting_start, wall_start, cpu_limit,
                           time.monotonic() - wall_start))
        prefix = f"@{request_id} ".encode()
        try:
            while True:
                line = self._read_line(cpu_start, wall_start, cpu_limit, wall_limit, prefix)
                if line.startswith(prefix):
                    return line[len(prefix):]
        finally:
            if turn and self.process is not None:
                self.freeze()
            self.last_wall = time.monotonic() - wall_start
            cpu_end = self.cpu_seconds() if self.process else self.final_cpu
            self.last_cpu = max(0.0, cpu_end - own_start)
            self.accounted_cpu = cpu_end

    def _read_line(self, cpu_start: float, wall_start: float, cpu_limit: float,
                   wall_limit: float, prefix: bytes) -> bytes:
        """The next complete line (without its newline).  At most ``REPLY_CAP`` bytes are
        ever buffered: the rest of an over-long line is dropped as it arrives, and if it was
        the reply itself, the call fails as a protocol error at once."""
        while True:
            newline = self.buffer.find(b"\n", self.scanned)
            if newline >= 0:
                line = bytes(self.buffer[:newline])
                del self.buffer[:newline + 1]
                self.scanned = 0
                if self.skipping:
                    self.skipping = False
                    continue
                return line
            self.scanned = len(self.buffer)
            if len(self.buffer) > REPLY_CAP:
                was_reply = self.buffer.startswith(prefix)
                self.buffer.clear()
                self.scanned, self.skipping = 0, True   # the rest of this line is dropped
                if was_reply:
                    raise ChildFailure("protocol", {"message": f"reply longer than "
                                                               f"{REPLY_CAP >> 20} MiB"})
            if STOPPING.is_set():
                self.stop()
                raise Interrupted()
            now = time.monotonic()
            wall_used = now - wall_start
            if now >= self.check_at:
                # Reading the CPU time costs a cgroup's statistics a flush, so it is read
                # when the last reading's allowance may be used up, not after every chunk.
                cpu_now = self.cpu_seconds()
                cpu_used = cpu_now - cpu_start
                wall_limit, idle = self._wall_limit(cpu_now, now)
                # past a wall-clock limit, a reply already waiting in the pipe still counts
                if cpu_used >= cpu_limit or (wall_used >= wall_limit
                                             and not _readable(self.reply_read)):
                    self.stop()
                    raise ChildFailure("timeout", self._timeout_details(
                        cpu_limit, cpu_used, wall_used, idle))
                self.check_at = now + _next_check(wall_limit - wall_used,
                                                  cpu_limit - cpu_used)
            # the child's output is read as it comes, or a child that prints fills its pipe
            # and blocks until its time runs out
            if self.threads is not None:
                self._take_threaded(max(0.0, self.check_at - now))
                continue
            ready, _, _ = select.select(
                [self.reply_read, *self.captured.waiting(now)], [], [],
                self.captured.timeout(max(0.0, self.check_at - now), now))
            self.captured.read(ready, now)
            if self.reply_read not in ready:
                continue
            chunk = os.read(self.reply_read, 1 << 20)
            if not chunk:
                raise self._died()
            self.buffer += chunk

    def _wall_limit(self, cpu_now: float, now: float) -> tuple[float, float | None]:
        """``(the wall-clock limit in force now, the request's idle seconds so far or
        None)``: the request's own limit, and under an idle rule the time until it was
        asked, plus the time its processes computed or waited for a processor or the disk
        so far, plus the idle allowance."""
        if self.idle_rule is None:
            return self.wall_cap, None
        idle_limit, cpu_start, waiting_start, wall_start, cpu_limit, asked = self.idle_rule
        waiting = self.waiting_seconds()
        busy = cpu_now - cpu_start
        if waiting is not None and waiting_start is not None:
            busy += waiting - waiting_start
        else:
            idle_limit += cpu_limit     # waiting cannot be told from idling here
        return (min(self.wall_cap, asked + busy + idle_limit),
                max(0.0, now - wall_start - asked - busy))

    def _timeout_details(self, cpu_limit: float, cpu_used: float, wall_used: float,
                         idle: float | None) -> dict:
        """What a timed-out request reports: the CPU limit, whether the wall clock stopped
        it (``wall_seconds``: its limit; ``idle``: the idle rule, with the idle time allowed
        and spent), and the CPU of its processes between turns it was charged."""
        details = {"seconds": cpu_limit, "wall": cpu_used < cpu_limit,
                   "wall_seconds": round(self.wall_cap, 1)}
        if (cpu_used < cpu_limit and idle is not None and self.idle_rule is not None
                and wall_used < self.wall_cap):
            details.update(idle=True, idle_seconds=self.idle_rule[0],
                           wall_seconds=round(wall_used, 1))
        if self.last_between >= 0.001:
            details["between_seconds"] = round(self.last_between, 3)
        return details

    def waiting_seconds(self) -> float | None:
        """How long the child's processes have waited for a processor or the disk, in all (its cgroup's
        pressure stall information), or None where the kernel does not say."""
        return self.cgroup.waiting_seconds() if self.cgroup is not None else None

    def freeze(self, how: str | None = None) -> None:
        """Stop every process of the child where it stands until ``thaw`` (the next request
        thaws it): with its cgroup's freezer (``how="cgroup"``), else (or with
        ``how="signals"``, or ``freeze_with``) by SIGSTOP to its processes: its process tree
        (bubblewrap: the sandbox's PID namespace hangs below it, whatever sessions its
        processes made), those in its cgroup, and at the container level every process of
        its uid.  Signals are the weaker way: a process that left the tree at the process
        level without a cgroup is not found, and CPU it uses is not counted either."""
        if self.process is None or self.frozen:
            return
        how = how or self.freeze_with or (
            "cgroup" if self.cgroup is not None and self.cgroup.can_freeze else "signals")
        if how == "cgroup":
            self.cgroup.freeze()
        else:
            self.stopped = stop_processes(self.processes)
        self.frozen = how

    def thaw(self) -> None:
        if self.frozen == "cgroup" and self.cgroup is not None:
            self.cgroup.thaw()
        elif self.frozen == "signals":
            for pid in self.stopped:
                try:
                    os.kill(pid, signal.SIGCONT)
                except (ProcessLookupError, PermissionError):
                    pass
        self.frozen, self.stopped = None, set()

    def processes(self) -> set[int]:
        """The child's processes, as ``freeze`` by signals finds them."""
        found = tree_pids(self.process.pid) if self.process is not None else set()
        if self.cgroup is not None:
            found |= self.cgroup.pids()
        if self.uid is not None:
            found |= set(container.processes_of(self.uid))
        found.discard(os.getpid())
        return found

    def _kill_frozen(self) -> None:
        """Kill a frozen child's processes so that they die now: a frozen cgroup is killed
        and thawed (``Cgroup.kill_all``), processes stopped by signal get SIGKILL."""
        if self.frozen == "cgroup" and self.cgroup is not None:
            self.cgroup.kill_all()
        elif self.frozen == "signals":
            for pid in self.stopped | self.processes():
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        self.frozen, self.stopped = None, set()

    def _take_threaded(self, timeout: float) -> None:
        """Without select() on pipes: what the pipes' threads read (``portable.PipeThreads``),
        waiting up to ``timeout`` for it; the output goes to ``captured``, the reply pipe's
        bytes to the buffer."""
        for fd, chunk in self.threads.take(timeout):
            if fd == self.reply_read:
                if not chunk:
                    self.reply_read = None          # its thread closed it
                    raise self._died()
                self.buffer += chunk
            else:
                self.captured.take(fd, chunk)

    def cpu_seconds(self) -> float:
        """CPU time of everything this child started since it started: from its cgroup, or
        else summed over its process tree (living processes and the reaped children they
        waited for)."""
        if self.cgroup is not None:
            used = self.cgroup.cpu_seconds()
            if used is not None:
                return self.cpu_base + used
        if self.process is None:
            return self.final_cpu
        if THREADED_PIPES and not os.path.isdir("/proc"):
            # Windows: the child's own times, else the wall clock since it started
            used = process_cpu_seconds(self.process)
            return self.cpu_base + (used if used is not None
                                    else time.monotonic() - self.started)
        return self.cpu_base + tree_cpu_seconds(self.process.pid)

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
        self.final_cpu = self.cpu_seconds()
        if self.frozen:
            self._kill_frozen()
        kill_tree(self.process)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        # a pipe a thread reads is closed by that thread, at its end
        for fd in (self.request_write, self.reply_read if self.threads is None else None):
            if fd is None:
                continue
            try:
                os.close(fd)
            except OSError:
                pass
        self.captured.close()
        with _LIVE_LOCK:
            _LIVE.discard(self)
        self.process = None
        self.cpu_base = self.final_cpu
        self._release()

    def _release(self) -> None:
        """What start acquired besides the pipes: the cgroup, the uid and the root (in that
        order: nothing of the uid may still run, or write, when its root goes)."""
        try:
            if self.uid is not None:
                container.kill_uid(self.uid)
            if self.cgroup is not None:
                self.cgroup.remove()
                self.cgroup = None
            if self.root is not None:
                self.root.remove()
                self.root = None
        finally:
            if self.uid is not None:
                container.UIDS.release(self.uid)
                self.uid = None

    def mark_output(self) -> None:
        """What the child printed until now is kept apart from what comes later
        (``output``), e.g. for the instructor's eyes only."""
        self.captured.drain()
        self.captured.mark()

    def output(self) -> dict:
        """What the student's code printed, each stream cut at ``OUTPUT_CAP`` bytes:
        ``stdout``/``stderr`` up to the mark (all of it without one), ``later_stdout``/
        ``later_stderr`` after it, and for each the bytes dropped (``stdout_dropped``, ...)."""
        self.captured.drain()
        return self.captured.as_dict()


# How the child's interpreter runs the staged runner: it imports ``grader.sandbox.child`` from
# the stage (the folder three levels above the script, first on its import path), makes it
# ``__main__`` as it was when run as a script, and calls its ``main`` with the arguments it
# would have had as a script (``sys.argv[0]`` the script's path, which the command line still
# shows).  A script given to the interpreter is compiled from source at every start (the
# runner: 5-9 ms of each child's CPU); a module it imports is read from the bytecode staged
# beside it (``grader.sandbox.staging.stage_bytecode``).
CHILD_BOOT = ("import os, sys; del sys.argv[0]; sys.path.insert(0, os.path.dirname(os.path.dirname("
              "os.path.dirname(os.path.abspath(sys.argv[0]))))); "
              "import grader.sandbox.child as runner; sys.modules['__main__'] = runner; "
              "runner.main(sys.argv)")


def _boot_runner(argv: list[str], python: str) -> list[str]:
    """``argv`` with ``-c CHILD_BOOT`` before the runner's script, right after the child
    interpreter's flags."""
    flags = list(CHILD_FLAGS)
    for index, word in enumerate(argv):
        after = index + 1 + len(flags)
        if word == python and argv[index + 1:after] == flags:
            return argv[:after] + ["-c", CHILD_BOOT] + argv[after:]
    raise ValueError("the child's command names no interpreter with the runner's flags")


def command(level: str, stage: Path, child_script: Path, submission: Path, request_fd: int,
            reply_fd: int, limits: ResourceLimits, seccomp_fd: int | None,
            root: Path | None = None, uid: int | None = None, packages=None,
            package_folder: Path | None = None) -> list[str]:
    """The argv that starts the child at ``level`` (``container``: in ``root``, as ``uid``;
    ``packages``: the course's ``grader.sandbox.packages.Provision``, shown at ``/packages``, at the
    process level in ``package_folder``): what every level passes the runner, then the
    level's own module builds the rest."""
    python = base_python() if level != "process" else sys.executable
    child_arguments = [str(request_fd), str(reply_fd)]
    limits_json = json.dumps(limits.as_child_argument())
    provided: list[str] = []
    if packages:
        provided = ["--provides", ",".join(packages.names), "--packages",
                    str(package_folder) if level == "process" else PACKAGES_MOUNT]
    if level == "process":
        return _boot_runner(process.command(python, child_script, child_arguments, submission,
                                            limits_json, provided), python)
    inside_script = f"{RUNNER_MOUNT}/{child_script.relative_to(stage).as_posix()}"
    if level == "container":
        return _boot_runner(container.command(python, inside_script, child_arguments, root,
                                              uid, seccomp_fd, limits_json, provided), python)
    return _boot_runner(bubblewrap.command(python, stage, submission, inside_script,
                                           child_arguments, limits, seccomp_fd, packages,
                                           limits_json, provided), python)


def _next_check(wall_left: float, cpu_left: float) -> float:
    """Seconds until a child's CPU time must be read again: CPU time grows at most as fast
    as the wall clock times the cores in use, so when the rest of the allowance could be
    spent on every core is early enough (at least 20 ms, at most 250 ms apart), and never
    past the wall-clock limit."""
    return min(wall_left, 0.25, max(0.02, cpu_left / (os.cpu_count() or 1)))


def _readable(fd: int) -> bool:
    """Whether ``fd`` has something to read now."""
    return bool(select.select([fd], [], [], 0)[0])


def _with_id(message: dict | str, request_id: str) -> str:
    """The request line: ``json.dumps({**message, "id": request_id})`` and a newline, where
    an encoded ``message`` gets the id spliced in before its closing brace (the same text)."""
    if isinstance(message, dict):
        return json.dumps({**message, "id": request_id}) + "\n"
    if not (message.startswith("{") and message.endswith("}")) or message == "{}":
        raise ValueError("an encoded request must be a non-empty JSON object")
    return f'{message[:-1]}, "id": {json.dumps(request_id)}}}\n'
