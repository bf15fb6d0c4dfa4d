"""Isolation levels for running student code, each layer tested by tests/test_hostile.py.

``bubblewrap`` (full): the child runs under bubblewrap in new user, PID, network, IPC, UTS and
cgroup namespaces, as uid 65534, with ``--die-with-parent``, ``--new-session`` and a cleared
environment.  It sees a read-only view holding only the Python runtime (its site-packages
masked), the staged child-side runner (``/runner``) and the student's own folder
(``/submission``), plus a size-limited scratch ``/tmp``; nothing else: no reference package,
no task files, no other submission, no reports, no home directory.  A seccomp filter (built
with pyseccomp, handed to bubblewrap as ``--seccomp FD``) refuses sockets other than AF_UNIX
and a few syscalls a search never needs.  Where cgroups can be created, a per-submission
cgroup bounds memory and processes and is emptied at the end.

``container`` (for hosts where the grader runs as root but bubblewrap cannot make namespaces:
Docker, Gradescope, many CI images, Ubuntu 24.04 with restricted user namespaces): the child
runs under coreutils ``chroot --userspec`` in a root of its own (``chroot.py``), as an
unprivileged uid that no other running child shares (from 1_900_000_000 up, one per child,
released when it stops), with no supplementary groups.  Its root holds only a read-only copy
of the runtime (the interpreter, the libraries it and the stdlib's extension modules need, the
dynamic loader, the stdlib without site-packages (zipped), at their usual absolute paths),
the staged runner (``/runner``), a root-owned copy of the student's folder
(``/submission``), a private ``/tmp`` and ``/dev/null``, ``/dev/urandom``; no /proc.  Before any student code loads, the
runner sets PR_SET_NO_NEW_PRIVS and installs the same seccomp filter itself (the program comes
through an inherited fd); if that fails it refuses to run student code.  Because the uid is
not 0, RLIMIT_NPROC binds per submission; the cgroup is used as at the full level, and on stop
every process of the child's uid is killed before its root is removed.  What it does not do:
no network, PID or IPC namespace (the filter stands in for the network; abstract AF_UNIX
sockets and SysV IPC stay reachable), and the scratch ``/tmp`` is bounded per file
(RLIMIT_FSIZE) but not in total.  Strong enough for hidden checks (``STRONG_LEVELS``).

``process`` (fallback, e.g. a student's laptop without bubblewrap): a plain child process with
the same runner, rlimits, timeouts, a new session and a group kill (and the cgroup where one
can be made).  Hidden checks are withheld here unless the instructor insists.

Third-party packages a course provides (``packages:``, see ``grader/packages.py``) are the
one exception to the masked site-packages: their top-level files and folders appear read-only
under ``/packages`` (bubblewrap: bind mounts; container: copies in the root's template,
with the shared libraries their extension modules need; process: a folder of links in the
scratch folder), which the runner puts on its import path after the standard library; the rest
of site-packages stays out of sight at every level.

At every level, the child lowers its own rlimits (CPU seconds, address space, open files, file
size, no core dumps, processes) before it imports any student code.
"""

from __future__ import annotations

import errno
import functools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

LEVELS = ("bubblewrap", "container", "process")          # strongest first
# Levels at which hidden checks (secret inputs) may run: student code cannot read or send
# anything of the grader's there.
STRONG_LEVELS = ("bubblewrap", "container")
# No user or system site-packages, no bytecode, unbuffered output.  Not -I/-E: the child's
# environment is built from scratch anyway, and PYTHONHASHSEED=0 in it makes set and dict
# orders in student code, and so grades, the same run after run.
CHILD_FLAGS = ("-s", "-S", "-B", "-u")
SANDBOX_UID = 65534
# The batch process a grading process works for (None: itself).  Cgroups and temporary
# folders are named after it, so that a later run removes them once that process is gone.
OWNER: int | None = None
CPU_PERIOD_US = 100_000          # cgroup CPU quota period; the quota is one full period
RUNNER_MOUNT = "/runner"
SUBMISSION_MOUNT = "/submission"
PACKAGES_MOUNT = "/packages"
# Numerical libraries start a thread per core at import; the child has one core (cgroup) and
# at most 64 processes, so they get one thread.
PACKAGE_THREADS = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
# Syscalls a search never needs; refused with EPERM inside the sandbox.
DENIED_SYSCALLS = ("ptrace", "bpf", "keyctl", "add_key", "request_key", "userfaultfd",
                   "perf_event_open", "mount", "umount2", "pivot_root", "unshare", "setns",
                   "kexec_load", "init_module", "finit_module", "delete_module", "reboot",
                   "swapon", "swapoff", "process_vm_readv", "process_vm_writev")


@dataclass(frozen=True)
class ResourceLimits:
    cpu_seconds: int = 120           # the child's whole life
    memory_bytes: int = 1 << 30      # address space (rlimit) and memory (cgroup)
    processes: int = 64              # cgroup pids.max; RLIMIT_NPROC (binds where uid is not 0)
    open_files: int = 64
    file_bytes: int = 1 << 20        # any file the child writes (not its output: pipes)
    scratch_bytes: int = 16 << 20    # the sandbox's /tmp

    def as_child_argument(self) -> dict:
        return asdict(self)

    @property
    def group_memory_bytes(self) -> int:
        """The cgroup's memory bound: above the address-space limit, so that one process that
        hogs memory meets MemoryError at once (its own, reproducible failure) instead of
        driving the group into reclaim, where it thrashes on its own code pages until its time
        runs out; the group bound still caps what several processes hold together."""
        return self.memory_bytes + max(256 << 20, self.memory_bytes // 4)


def base_python() -> str:
    """The real interpreter behind a virtual environment (the sandbox mounts its prefix)."""
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


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


@functools.lru_cache(maxsize=None)
def container_problem() -> str | None:
    """Why the container level cannot be used here (a message saying what to do), or None
    once a probe child has started in its chroot, installed its filter and answered."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return ("the container level needs root (it chroots and switches to a private uid); "
                "run the grader as root or use --sandbox process")
    if chroot_binary() is None:
        return "coreutils chroot is missing; install coreutils or use --sandbox process"
    if seccomp_program() is None:
        return ("pyseccomp or libseccomp is missing, so the child could not be filtered; "
                "apt-get install -y libseccomp2 && pip install pyseccomp, or use "
                "--sandbox process")
    from .launcher import Child, ChildFailure, stage_runner
    from .chroot import ContainerError
    with tempfile.TemporaryDirectory(prefix="grader-probe-") as folder:
        folder = Path(folder)
        (folder / "submission").mkdir()
        (folder / "submission" / "probe.py").write_text("ANSWER = 42\n")
        (folder / "scratch").mkdir()
        child = Child(stage_runner(folder / "stage"), folder / "submission",
                      folder / "scratch", "container", ResourceLimits(cpu_seconds=20))
        try:
            from .. import boundary
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


def chroot_binary() -> str | None:
    """coreutils chroot, also where PATH lacks the sbin folders."""
    return shutil.which("chroot", path=os.pathsep.join(
        [os.environ.get("PATH", ""), "/usr/sbin", "/sbin", "/usr/bin", "/bin"]))


def best_level() -> str:
    """The strongest level that works here."""
    if bubblewrap_works():
        return "bubblewrap"
    return "container" if container_works() else "process"


@functools.lru_cache(maxsize=None)
def seccomp_program() -> bytes | None:
    """The compiled seccomp filter, or None where pyseccomp/libseccomp is missing."""
    try:
        import pyseccomp as seccomp
    except Exception:  # the package, or the libseccomp it loads, is missing
        return None
    import socket
    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    rules.add_rule(seccomp.ERRNO(errno.EACCES), "socket",
                   seccomp.Arg(0, seccomp.NE, socket.AF_UNIX))
    for name in DENIED_SYSCALLS:
        try:
            rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
        except Exception:  # a syscall this architecture does not have
            continue
    with tempfile.TemporaryFile() as program:
        rules.export_bpf(program)
        program.seek(0)
        return program.read()


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
    processes waited for a processor (``cpu.pressure``, ``waiting_seconds``).  ``kill_all``
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
        """How long, in all, some process of the group was ready to run but waited for a
        processor (``cpu.pressure``'s ``some total``, kept by the kernel since the group was
        made), or None where the kernel does not say (no unified group, pressure stall
        information off)."""
        if self.unified is None:
            return None
        try:
            text = (self.unified / "cpu.pressure").read_text()
        except OSError:
            return None
        for line in text.splitlines():
            if line.startswith("some "):
                for field in line.split():
                    if field.startswith("total="):
                        return int(field[6:]) * 1e-6
        return None

    def cpu_seconds(self) -> float | None:
        """CPU time used by every process that was ever in the group, or None if unknown."""
        if self.usage is None:
            return None
        try:
            text = self.usage.read_text()
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


def owner_pid() -> int:
    """The pid that names this process's cgroups and temporary folders (see ``OWNER``)."""
    return OWNER or os.getpid()


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


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists (one we may not signal counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@functools.lru_cache(maxsize=None)
def cgroups_work() -> bool:
    """Whether a per-submission cgroup can be made here (root, a writable cgroup tree)."""
    probe = Cgroup.create(ResourceLimits())
    if probe is None:
        return False
    probe.remove()
    return True


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


def package_entries(packages) -> dict[str, str]:
    """Name under ``/packages`` -> the file or folder of site-packages it shows (the first of
    two entries with one name wins)."""
    entries: dict[str, str] = {}
    for entry in packages.entries if packages else ():
        entries.setdefault(os.path.basename(entry), entry)
    return entries


def process_package_folder(packages, folder: Path) -> Path:
    """At the process level: a folder of symbolic links to the provided packages' entries,
    for the child's import path (site-packages itself would show every package)."""
    folder.mkdir(exist_ok=True)
    for name, entry in package_entries(packages).items():
        link = folder / name
        if not link.is_symlink():
            os.symlink(entry, link)
    return folder


def command(level: str, stage: Path, child_script: Path, submission: Path, request_fd: int,
            reply_fd: int, limits: ResourceLimits, seccomp_fd: int | None,
            root: Path | None = None, uid: int | None = None, packages=None,
            package_folder: Path | None = None) -> list[str]:
    """The argv that starts the child at ``level`` (``container``: in ``root``, as ``uid``;
    ``packages``: the course's ``grader.packages.Provision``, shown at ``/packages``, at the
    process level in ``package_folder``)."""
    import json
    python = base_python() if level != "process" else sys.executable
    child_arguments = [str(request_fd), str(reply_fd)]
    limits_json = json.dumps(limits.as_child_argument())
    provided: list[str] = []
    if packages:
        provided = ["--provides", ",".join(packages.names), "--packages",
                    str(package_folder) if level == "process" else PACKAGES_MOUNT]
    if level == "process":
        return [python, *CHILD_FLAGS, str(child_script), *child_arguments,
                str(submission), limits_json, *provided]
    inside_script = f"{RUNNER_MOUNT}/{child_script.relative_to(stage).as_posix()}"
    if level == "container":
        if root is None or uid is None or seccomp_fd is None:
            raise ValueError("the container level needs a root, a uid and the filter's fd")
        # chroot sets the groups, then the gid, then the uid, then execs: the interpreter
        # never runs as root.  It changes into the new root's "/"; the runner then moves to
        # /tmp and installs the filter from SECCOMP_FD itself.
        return [chroot_binary() or "chroot", f"--userspec={uid}:{uid}", f"--groups={uid}",
                str(root), python, *CHILD_FLAGS, inside_script, *child_arguments,
                SUBMISSION_MOUNT, limits_json, "--seccomp-fd", str(seccomp_fd),
                "--chdir", "/tmp", *provided]
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


def seccomp_fd() -> int | None:
    """A fresh readable fd holding the filter (bubblewrap reads it once)."""
    program = seccomp_program()
    if program is None:
        return None
    read_end, write_end = os.pipe()
    os.write(write_end, program)
    os.close(write_end)
    return read_end
