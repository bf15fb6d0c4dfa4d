"""What every isolation level shares: the levels' names, the limits a child runs under, the
mounts it sees, the seccomp filter, the interpreter it runs, and the pid that names this
grading process's cgroups and temporary folders.

The floor below the levels (``bubblewrap.py``, ``container.py``, ``process.py``), the cgroup
(``cgroup.py``) and the launcher: it imports none of them.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import os
import sys
import tempfile
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


def owner_pid() -> int:
    """The pid that names this process's cgroups and temporary folders (see ``OWNER``)."""
    return OWNER or os.getpid()


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists (one we may not signal counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def package_entries(packages) -> dict[str, str]:
    """Name under ``/packages`` -> the file or folder of site-packages it shows (the first of
    two entries with one name wins)."""
    entries: dict[str, str] = {}
    for entry in packages.entries if packages else ():
        entries.setdefault(os.path.basename(entry), entry)
    return entries


SECCOMP_FOLDER = "seccomp"     # compiled filters kept in the cache folder (seccomp_program)


@functools.lru_cache(maxsize=None)
def seccomp_program() -> bytes | None:
    """The compiled seccomp filter, or None where pyseccomp/libseccomp is missing.

    Kept in the cache folder (``seccomp/``, under ``grader.cache``'s rules: a file of ours
    that nobody else can write) under the SHA-256 of this module's source (the rules), the
    architecture and pyseccomp's module file: compiling it imports pyseccomp, which asks
    ldconfig where libseccomp is, and the child of a check cannot start before it has its
    filter (about 35 ms of every self-check)."""
    import importlib.util
    try:
        found = importlib.util.find_spec("pyseccomp")
    except (ImportError, ValueError):
        found = None
    if found is None or found.origin is None:
        return None
    from ..cache import keep, private_folder, read_kept
    folder = private_folder(SECCOMP_FOLDER)
    path = None
    if folder is not None:
        try:
            module = os.stat(found.origin)
            digest = hashlib.sha256(Path(__file__).read_bytes())
        except OSError:
            digest = None
        if digest is not None:
            machine = os.uname().machine if hasattr(os, "uname") else sys.platform
            digest.update(repr((machine, sys.byteorder, found.origin,
                                module.st_size, module.st_mtime_ns)).encode())
            path = folder / f"{digest.hexdigest()}.bpf"
            kept = read_kept(path)
            # a program is whole BPF instructions, 8 bytes each
            if kept and len(kept) % 8 == 0:
                return kept
    program = _compiled_seccomp_program()
    if program is not None and path is not None:
        keep(path, program)
    return program


def _compiled_seccomp_program() -> bytes | None:
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


def seccomp_fd() -> int | None:
    """A fresh readable fd holding the filter (bubblewrap reads it once)."""
    program = seccomp_program()
    if program is None:
        return None
    read_end, write_end = os.pipe()
    os.write(write_end, program)
    os.close(write_end)
    return read_end
