"""The per-submission cgroup: memory, processes and one core's CPU for everything a child
starts, its CPU time, freezing a child between its requests, and removing the groups a killed
grader left behind.  Used at every level where a group can be made (root, a writable cgroup
tree); None-safe elsewhere."""

from __future__ import annotations

import functools
import os
import signal
import time
import uuid
from pathlib import Path

from .base import ResourceLimits, alive, owner_pid

CPU_PERIOD_US = 100_000          # cgroup CPU quota period; the quota is one full period


class Cgroup:
    """A per-submission cgroup bounding memory, processes and CPU; None-safe where none can be
    made.

    CPU: the group gets at most one core (``cpu.max`` / ``cpu.cfs_quota_us``) and the default,
    equal weight, so that nothing a submission starts (dozens of spinning processes) slows its
    neighbours; and its CPU time (``cpu.stat`` / ``cpuacct.usage``) covers every process in
    it, which is what the call limits are measured in.  The CPU parts are best effort: where
    the controller is missing, limits fall back to the process tree's times (``launcher``).

    Freezing (``freeze``/``thaw``: a player's child between its moves): cgroup v2's
    ``cgroup.freeze`` (on a host with v1 controllers, in a group of the unified hierarchy
    mounted beside them, ``/sys/fs/cgroup/unified``), else the v1 ``freezer`` controller;
    where neither can be made, ``can_freeze`` is False and the launcher stops the child's
    processes with signals instead.  The unified group also says how long the group's
    processes waited for a processor or the disk (``cpu.pressure``, ``io.pressure``,
    ``waiting_seconds``).  ``kill_all``
    kills a frozen group too: ``cgroup.kill`` where the kernel has it, and a v1 freezer is
    thawed after the signals (its frozen processes die only when thawed).
    """

    PREFIX = "grader-"

    def __init__(self, paths: list[Path], usage: Path | None = None, usage_scale: float = 1e-9,
                 unified: Path | None = None, freezer: Path | None = None):
        self.paths = paths
        self.usage = usage                # file holding the group's CPU time
        self.usage_scale = usage_scale    # its unit, in seconds
        self.unified = unified            # the group's cgroup v2 folder, if it has one
        self.freezer = freezer            # cgroup.freeze (v2) or freezer.state (v1), or None
        self.was_frozen = False           # whether it may be frozen now (to thaw on kill)
        self._usage_fd: int | None = None  # ``usage`` kept open (``cpu_seconds``)

    @classmethod
    def left_behind(cls, paths: list[Path]) -> "Cgroup":
        """A group found on disk (of a grader that was killed), its folders in every
        hierarchy: its freezer and its v2 part read from their files, as if it were
        frozen."""
        unified = next((path for path in paths if (path / "cgroup.kill").exists()), None)
        freezer = next((path / name for path in paths
                        for name in ("cgroup.freeze", "freezer.state")
                        if (path / name).exists()), None)
        group = cls(list(paths), unified=unified, freezer=freezer)
        group.was_frozen = freezer is not None
        return group

    @classmethod
    def name(cls) -> str:
        """Unique, and naming the grading process, so that a later run can tell a cgroup
        left behind by a killed grader (its pid gone) from one in use."""
        return f"{cls.PREFIX}{owner_pid()}-{uuid.uuid4().hex[:12]}"

    @classmethod
    def create(cls, limits: ResourceLimits, freezer: str | None = None) -> "Cgroup | None":
        """A new group with ``limits``, or None where none can be made.  ``freezer``: "v1"
        to freeze with the v1 controller even where a unified group could (the tests use
        both); by default v2 comes first."""
        name = cls.name()
        root = Path("/sys/fs/cgroup")
        made: list[Path] = []
        usage, scale = None, 1e-9
        unified = None
        try:
            if (root / "cgroup.controllers").exists():          # cgroup v2
                path = root / name
                path.mkdir()
                made.append(path)
                unified = path
                (path / "pids.max").write_text(str(limits.processes))
                (path / "memory.max").write_text(str(limits.group_memory_bytes))
                if _try_write(path / "cpu.max", f"{CPU_PERIOD_US} {CPU_PERIOD_US}"):
                    _try_write(path / "cpu.weight", "100")
                if (path / "cpu.stat").exists():
                    usage, scale = path / "cpu.stat", 1e-6
            else:                                                 # cgroup v1
                for controller, settings in (("pids", {"pids.max": limits.processes}),
                                             ("memory", {"memory.limit_in_bytes":
                                                         limits.group_memory_bytes})):
                    path = root / controller / name
                    path.mkdir()
                    made.append(path)
                    for key, value in settings.items():
                        (path / key).write_text(str(value))
                for controller in ("cpu", "cpuacct"):
                    path = root / controller / name
                    if not (root / controller).is_dir() or path in made:
                        continue
                    try:
                        path.mkdir()
                    except OSError:
                        continue
                    made.append(path)
                    if controller == "cpu":
                        _try_write(path / "cpu.cfs_period_us", str(CPU_PERIOD_US))
                        _try_write(path / "cpu.cfs_quota_us", str(CPU_PERIOD_US))
                    if (path / "cpuacct.usage").exists():
                        usage, scale = path / "cpuacct.usage", 1e-9
                if freezer != "v1":
                    unified = _optional_group(root / "unified", name, made)
        except OSError:
            cls(made).remove()
            return None
        freeze_file = None
        if unified is not None and (unified / "cgroup.freeze").exists():
            freeze_file = unified / "cgroup.freeze"
        else:
            v1 = _optional_group(root / "freezer", name, made)
            if v1 is not None and (v1 / "freezer.state").exists():
                freeze_file = v1 / "freezer.state"
        return cls(made, usage, scale, unified, freeze_file)

    @property
    def can_freeze(self) -> bool:
        return self.freezer is not None

    def freeze(self, timeout: float = 1.0) -> bool:
        """Stop every process of the group where it stands (a frozen process neither runs
        nor forks, and cannot be woken from inside); True once the kernel says the whole
        group is frozen (``cgroup.events``: ``frozen 1``; v1: ``FROZEN``), False if that
        did not happen within ``timeout`` seconds (a process in uninterruptible sleep)."""
        if self.freezer is None:
            return False
        v2 = self.freezer.name == "cgroup.freeze"
        self.was_frozen = True
        if not _try_write(self.freezer, "1" if v2 else "FROZEN"):
            return False
        for pause in _pauses(timeout):
            if self.frozen():
                return True
            time.sleep(pause)
        return self.frozen()

    def frozen(self) -> bool:
        """Whether the kernel reports the whole group frozen."""
        if self.freezer is None:
            return False
        try:
            if self.freezer.name == "cgroup.freeze":
                return "frozen 1" in (self.freezer.parent / "cgroup.events").read_text()
            return self.freezer.read_text().strip() == "FROZEN"
        except OSError:
            return False

    def thaw(self) -> None:
        if self.freezer is not None:
            _try_write(self.freezer, "0" if self.freezer.name == "cgroup.freeze"
                       else "THAWED")
            self.was_frozen = False

    def waiting_seconds(self) -> float | None:
        """How long, in all, some process of the group was ready to run but waited: for a
        processor (``cpu.pressure``'s ``some total``, kept by the kernel since the group was
        made) or for the disk (``io.pressure``'s, added where the kernel keeps it: a child
        that starts while other work fills the disk's queue waits there to read the
        interpreter's files, which is not idling either).  None where the kernel does not
        say (no unified group, pressure stall information off)."""
        if self.unified is None:
            return None
        waiting = _some_total(self.unified / "cpu.pressure")
        if waiting is None:
            return None
        return waiting + (_some_total(self.unified / "io.pressure") or 0.0)

    def cpu_seconds(self) -> float | None:
        """CPU time used by every process that was ever in the group, or None if unknown.
        The file is opened once and read again from its start each time (the kernel makes
        its text afresh): a launcher reads it twice per request and opening it each time
        cost 27 us a reading instead of 2."""
        if self.usage is None:
            return None
        try:
            if self._usage_fd is None:
                # a cgroup is Linux's, but the portable branches are tried on Linux without
                # the flags Windows lacks (tests/test_portable.py)
                self._usage_fd = os.open(self.usage,
                                         os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            text = os.pread(self._usage_fd, 4096, 0).decode()
        except OSError:
            return None
        if self.usage.name == "cpu.stat":
            for line in text.splitlines():
                key, _, value = line.partition(" ")
                if key == "usage_usec":
                    return int(value) * self.usage_scale
            return None
        return int(text.split()[0]) * self.usage_scale

    def wrap(self, argv: list[str]) -> list[str]:
        """``argv`` run by a shell that first moves itself into this cgroup, then execs."""
        script = ('n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1/cgroup.procs" || exit 97; '
                  'shift; n=$((n-1)); done; exec "$@"')
        return ["/bin/sh", "-c", script, "sh", str(len(self.paths)),
                *(str(p) for p in self.paths), *argv]

    def pids(self) -> set[int]:
        found: set[int] = set()
        for path in self.paths:
            try:
                found |= {int(p) for p in (path / "cgroup.procs").read_text().split()}
            except OSError:
                pass
        return found

    def kill_all(self) -> None:
        """Kill every process of the group, frozen or not: ``cgroup.kill`` (v2, at once, forks
        in flight included) where there is one, SIGKILL to each; then a frozen group is
        thawed, so that its killed processes can die (a v1 freezer holds them until then)
        and no process of it runs again."""
        if self.unified is not None:
            _try_write(self.unified / "cgroup.kill", "1")
        for pause in _pauses():
            pids = self.pids()
            if not pids:
                break
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if self.was_frozen:
                self.thaw()
            time.sleep(pause)
        if self.was_frozen:
            self.thaw()

    def remove(self) -> None:
        self.kill_all()
        if self._usage_fd is not None:
            os.close(self._usage_fd)
            self._usage_fd = None
        for path in self.paths:
            for pause in _pauses():
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(pause)


def _pauses(total: float = 0.5):
    """Pauses between tries that add up to about ``total`` seconds: short at first (a killed
    process is gone within a millisecond or two; a fixed 10 ms pause cost every self-check
    10 ms), then up to 10 ms each."""
    pause, spent = 0.0005, 0.0
    while spent < total:
        yield pause
        spent += pause
        pause = min(pause * 2, 0.01)


def _optional_group(hierarchy: Path, name: str, made: list[Path]) -> Path | None:
    """A group ``name`` in ``hierarchy`` (added to ``made``), or None where that hierarchy is
    missing or refuses: a group that only freezes or only reports is a help, not a need."""
    if not (hierarchy / "cgroup.procs").exists():
        return None
    try:
        (hierarchy / name).mkdir()
    except OSError:
        return None
    made.append(hierarchy / name)
    return hierarchy / name


def _try_write(path: Path, text: str) -> bool:
    try:
        path.write_text(text)
        return True
    except OSError:
        return False


def remove_stale_cgroups() -> list[Path]:
    """Remove the cgroups of grading processes that no longer run (e.g. killed with SIGKILL):
    a later run, or a test that counts cgroups, must not trip over them.  Their processes are
    killed first; cgroups of living graders are left alone.  A group's folders in all
    hierarchies go together: its processes, frozen in one of them, die only once thawed."""
    removed = []
    root = Path("/sys/fs/cgroup")
    groups: dict[str, list[Path]] = {}
    for path in [*root.glob(f"{Cgroup.PREFIX}*"), *root.glob(f"*/{Cgroup.PREFIX}*")]:
        groups.setdefault(path.name, []).append(path)
    for name, paths in groups.items():
        owner = name[len(Cgroup.PREFIX):].split("-", 1)[0]
        if owner.isdigit() and alive(int(owner)):
            continue
        Cgroup.left_behind(paths).remove()
        removed += [path for path in paths if not path.exists()]
    return removed


@functools.lru_cache(maxsize=None)
def cgroups_work() -> bool:
    """Whether a per-submission cgroup can be made here (root, a writable cgroup tree)."""
    probe = Cgroup.create(ResourceLimits())
    if probe is None:
        return False
    probe.remove()
    return True


def _some_total(path: Path) -> float | None:
    """The seconds of a pressure file's ``some total``, or None if it cannot be read."""
    try:
        text = path.read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("some "):
            for field in line.split():
                if field.startswith("total="):
                    return int(field[6:]) * 1e-6
    return None
