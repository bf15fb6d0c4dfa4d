"""The ``process`` level on a machine without POSIX's process tools: a student's own Windows
laptop running the self-check kit with a plain Python 3.10+.

There, the child is not isolated (it runs as the student, on the student's own code, which is
what the ``process`` level is for), and several things the launcher uses elsewhere do not
exist: ``select`` on pipes, ``fcntl`` (non-blocking reads, pipe sizes), ``os.killpg`` and
process groups, ``resource`` limits, ``/proc`` for CPU times, and inheriting a pipe by its
file descriptor (``pass_fds``).  This module holds the replacements, chosen by what the
running Python offers, not by the platform's name, so that they run (and are tested) wherever
those tools are missing:

* ``PipeThreads``: one thread per pipe, reading it blocking into a queue the launcher waits
  on, in place of ``select`` and non-blocking reads;
* ``kill_tree``: the whole process group where there is one, else ``taskkill /T`` (Windows:
  the child and what it started), else the child itself;
* ``spawn``: ``pass_fds`` and a new session on POSIX; on Windows the pipes' handles,
  inheritable and listed in the start-up information, whose numbers the child receives;
* ``process_cpu_seconds``: the child's CPU time from ``GetProcessTimes`` on Windows.

Nothing here imports a POSIX-only module at import time.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from collections import deque

try:
    import fcntl
except ImportError:         # Windows
    fcntl = None

WINDOWS = os.name == "nt"
# select() works on pipes only where fcntl's world is: elsewhere one thread reads each pipe.
THREADED_PIPES = WINDOWS or fcntl is None
READ_SIZE = 1 << 16


class PipeThreads:
    """Blocking reads of several pipes, each in a thread of its own, as one stream of
    ``(fd, bytes)`` events (``b""`` at a pipe's end, after which the thread closes it)."""

    def __init__(self):
        self.events: queue.Queue = queue.Queue()
        self.pending: deque = deque()       # taken from the queue, not yet asked for

    def watch(self, fd: int) -> None:
        threading.Thread(target=self._read, args=(fd,), daemon=True,
                         name=f"grader-pipe-{fd}").start()

    def _read(self, fd: int) -> None:
        while True:
            try:
                chunk = os.read(fd, READ_SIZE)
            except OSError:
                chunk = b""
            self.events.put((fd, chunk))
            if not chunk:
                try:
                    os.close(fd)
                except OSError:
                    pass
                return

    def take(self, timeout: float = 0.0, only=None) -> list:
        """The events there are (of the pipes in ``only``, if given), waiting up to
        ``timeout`` seconds for one when there is none; the others stay for a later
        ``take``."""
        def wanted(event) -> bool:
            return only is None or event[0] in only
        self._collect()
        if timeout > 0 and not any(wanted(event) for event in self.pending):
            try:
                self.pending.append(self.events.get(timeout=timeout))
            except queue.Empty:
                pass
            self._collect()
        taken = [event for event in self.pending if wanted(event)]
        self.pending = deque(event for event in self.pending if not wanted(event))
        return taken

    def _collect(self) -> None:
        while True:
            try:
                self.pending.append(self.events.get_nowait())
            except queue.Empty:
                return


def kill_tree(process: subprocess.Popen) -> None:
    """Kill ``process`` and what it started: its process group (it leads one, started in a
    new session), on Windows its tree (``taskkill /T /F``), else the process itself."""
    killpg = getattr(os, "killpg", None)
    if killpg is not None and not WINDOWS:
        import signal
        try:
            killpg(process.pid, signal.SIGKILL)
            return
        except (ProcessLookupError, PermissionError):
            return
    if WINDOWS:
        try:
            subprocess.run(["taskkill", "/T", "/F", "/PID", str(process.pid)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10)
        except (OSError, subprocess.SubprocessError):
            pass
    try:
        process.kill()
    except OSError:
        pass


def child_numbers(fds: list[int]) -> list[int]:
    """What the child is told to open for the pipes ``fds``: the descriptors themselves,
    or on Windows the handles behind them (made inheritable), which the child turns back
    into descriptors (``msvcrt.open_osfhandle``, see child.py)."""
    if not WINDOWS:
        return list(fds)
    import msvcrt
    handles = [msvcrt.get_osfhandle(fd) for fd in fds]
    for handle in handles:
        os.set_handle_inheritable(handle, True)
    return handles


def spawn(argv: list[str], stdout: int, stderr: int, env: dict, cwd, passed: list[int]
          ) -> subprocess.Popen:
    """Start the child: on POSIX with ``passed`` inherited by number, in a new session (its
    own process group, which ``kill_tree`` kills); on Windows with the handles of ``passed``
    inherited (and nothing else), in a new process group."""
    if not WINDOWS:
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                                env=env, cwd=cwd, pass_fds=passed, start_new_session=True,
                                close_fds=True)
    import msvcrt
    handles = [msvcrt.get_osfhandle(fd) for fd in passed]
    # Python needs these to start on Windows (its random seed, its own folders)
    for name in ("SYSTEMROOT", "SYSTEMDRIVE", "TEMP", "TMP"):
        if name in os.environ:
            env = {**env, name: os.environ[name]}
    information = subprocess.STARTUPINFO(lpAttributeList={"handle_list": handles})
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                            env=env, cwd=cwd, close_fds=True, startupinfo=information,
                            creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0))


def process_cpu_seconds(process: subprocess.Popen) -> float | None:
    """The child's own user and system time on Windows (``GetProcessTimes``), None where it
    cannot be read (the launcher then counts the wall clock)."""
    if not WINDOWS:
        return None
    try:
        import ctypes
        from ctypes import wintypes
        kernel = ctypes.WinDLL("kernel32", use_last_error=True)
        times = [wintypes.FILETIME() for _ in range(4)]
        handle = wintypes.HANDLE(int(process._handle))
        if not kernel.GetProcessTimes(handle, *(ctypes.byref(t) for t in times)):
            return None
        user, system = ((t.dwHighDateTime << 32 | t.dwLowDateTime) for t in times[2:])
        return (user + system) / 1e7            # 100-nanosecond intervals
    except (OSError, AttributeError, ValueError):
        return None


def describe() -> str:
    """What this Python offers, for a test's or a bug report's eyes."""
    return (f"{sys.platform}: threaded pipes {THREADED_PIPES}, killpg "
            f"{hasattr(os, 'killpg')}, fcntl {fcntl is not None}")
