"""A child's processes as /proc shows them: the tree below it, the CPU time they used (also
of the children they reaped), a process's state, and stopping every one of them until all
are seen stopped (a child frozen by signals where no cgroup can freeze it)."""

from __future__ import annotations

import os
import signal

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100   # /proc's unit


def tree_cpu_seconds(pid: int) -> float:
    """User and system time of ``pid`` and its descendants (and of the children they reaped),
    read from /proc; 0 where /proc cannot be read."""
    parents, times = _process_table()
    total, stack = 0.0, [pid]
    while stack:
        current = stack.pop()
        total += times.get(current, 0.0)
        stack.extend(parents.get(current, ()))
    return total


def tree_pids(pid: int) -> set[int]:
    """``pid`` and its living descendants (from /proc; an orphan that its new parent, init,
    took over is no longer among them)."""
    parents, times = _process_table()
    found, stack = set(), [pid]
    while stack:
        current = stack.pop()
        if current in times:
            found.add(current)
        stack.extend(parents.get(current, ()))
    return found


def _process_table() -> tuple[dict[int, list[int]], dict[int, float]]:
    """``(parent -> children, pid -> CPU seconds of it and its reaped children)`` of every
    process in /proc (empty where /proc cannot be read)."""
    parents: dict[int, list[int]] = {}
    times: dict[int, float] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return parents, times
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # the command name (field 2) may hold spaces and parentheses: split after its end
        fields = stat[stat.rfind(b")") + 2:].split()
        try:
            ppid = int(fields[1])
            ticks = int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
        except (IndexError, ValueError):
            continue
        parents.setdefault(ppid, []).append(int(entry))
        times[int(entry)] = ticks / CLOCK_TICKS
    return parents, times


def process_state(pid: int) -> str | None:
    """The one-letter state of process ``pid`` (``T``: stopped), or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return None
    return stat[stat.rfind(b")") + 2:][:1].decode()


def stop_processes(find, passes: int = 50) -> set[int]:
    """SIGSTOP every process ``find()`` returns, again and again until all of them are seen
    stopped (one that forked or was continued by a sibling meanwhile is stopped on the next
    pass); the pids signalled.  Best effort: after ``passes`` the rest stays running."""
    stopped: set[int] = set()
    for _ in range(passes):
        running = {pid for pid in find() if process_state(pid) not in (None, "T", "t", "Z", "X")}
        if not running:
            break
        for pid in running:
            try:
                os.kill(pid, signal.SIGSTOP)
                stopped.add(pid)
            except (ProcessLookupError, PermissionError):
                pass
    return stopped
