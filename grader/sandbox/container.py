"""The ``container`` isolation level (for hosts where the grader runs as root but bubblewrap
cannot make namespaces: Docker, Gradescope, many CI images): the child runs under coreutils
``chroot --userspec`` as a private uid, in a per-child root holding only what it needs (see
``grader/sandbox/__init__.py``).  The parent's side:

* ``UidPool`` hands out unprivileged uids from a range no account uses, one per running child,
  thread-safely within this process and, through a lock file per uid, across grader processes
  on the same machine.  Distinct uids keep one submission from signalling or ptracing
  another's processes and make RLIMIT_NPROC bind per submission; they also let ``stop`` find
  and kill every process a child left behind, even one that started a new session.
* ``runtime_template`` builds, once per interpreter and grader process, a read-only tree with
  the interpreter, the shared libraries it and the stdlib's extension modules need, the
  dynamic loader and the standard library without site-packages, at the same absolute paths
  as outside (so ``sys.prefix`` works unchanged).  The pure-Python stdlib is packed, with the
  bytecode of its own ``__pycache__``, into the ``pythonXY.zip`` CPython already has first
  on sys.path: each child's root then links ~140 entries instead of ~1500.  A course's
  third-party packages (``packages:``) go into the template too, under ``/packages``, with the
  shared libraries their extension modules need (a template per interpreter and set of
  packages).
* ``ChildRoot`` makes one child's root from the template (hard links where possible), adds
  ``/runner``, ``/submission``, a private ``/tmp`` and two device nodes, and removes it all.

This module must never put anything of the grader but the staged runner into a child's root
(no reference, no task files, no reports, no other submission), never give the child write
access to anything but its own ``/tmp``, and never run any part of the child as root.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import pwd
import grp
import shutil
import signal
import stat
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import zipfile
from pathlib import Path

from .base import CHILD_FLAGS, PACKAGES_MOUNT, SUBMISSION_MOUNT, owner_pid, package_entries

# Far above any uid an installation hands out (useradd stops at 60000, systemd's dynamic users
# and container mappings below 2^31), and below the 2^32-1 that means "no uid".
UID_BASE = 1_900_000_000
UID_SLOTS = 256
# Not part of a child's runtime: installed packages, the stdlib's test suites and GUI tools,
# the static library and Makefile of the build.
SKIPPED_DIRECTORIES = {"site-packages", "dist-packages", "test", "tests", "idle_test",
                       "idlelib", "tkinter", "turtledemo", "ensurepip"}
DEVICES = {"null": os.makedev(1, 3), "urandom": os.makedev(1, 9)}


class ContainerError(RuntimeError):
    """The container level cannot be set up here; the message says why and what to do."""


def chroot_binary() -> str | None:
    """coreutils chroot, also where PATH lacks the sbin folders."""
    return shutil.which("chroot", path=os.pathsep.join(
        [os.environ.get("PATH", ""), "/usr/sbin", "/sbin", "/usr/bin", "/bin"]))


def command(python: str, inside_script: str, child_arguments: list[str], root: Path | None,
            uid: int | None, seccomp_fd: int | None, limits_json: str,
            provided: list[str]) -> list[str]:
    """The argv of a child in its own root (``ChildRoot``) as ``uid``.  chroot sets the
    groups, then the gid, then the uid, then execs: the interpreter never runs as root.  It
    changes into the new root's "/"; the runner then moves to /tmp and installs the filter
    from ``SECCOMP_FD`` itself."""
    if root is None or uid is None or seccomp_fd is None:
        raise ValueError("the container level needs a root, a uid and the filter's fd")
    return [chroot_binary() or "chroot", f"--userspec={uid}:{uid}", f"--groups={uid}",
            str(root), python, *CHILD_FLAGS, inside_script, *child_arguments,
            SUBMISSION_MOUNT, limits_json, "--seccomp-fd", str(seccomp_fd),
            "--chdir", "/tmp", *provided]


def _lock_directory() -> Path:
    base = Path("/run") if os.access("/run", os.W_OK) else Path(tempfile.gettempdir())
    path = base / "gametree-grader-uids"
    path.mkdir(mode=0o700, exist_ok=True)
    return path


def processes_of(uid: int) -> list[int]:
    """Pids of the living processes running as ``uid`` (real, effective, saved or filesystem
    uid; zombies are dead and left out).
    Read from /proc/PID/status, not from the owner of /proc/PID, which turns to root when a
    process makes itself non-dumpable."""
    wanted = str(uid)
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(os.path.join(entry.path, "status"), "rb") as status:
                for line in status:
                    if line.startswith(b"State:") and line.split()[1:2] in ([b"Z"], [b"X"]):
                        break  # dead, waiting to be reaped by its (new) parent: not running
                    if line.startswith(b"Uid:"):
                        if wanted.encode() in line.split()[1:]:
                            found.append(int(entry.name))
                        break
        except OSError:  # gone meanwhile
            continue
    return found


def kill_uid(uid: int) -> None:
    """SIGKILL every process running as ``uid`` until none is left.

    Killing pid by pid races a fork bomb (it forks faster than a loop over /proc can follow),
    so first a process running as ``uid`` itself calls kill(-1, SIGKILL), which the kernel
    delivers to every process of that uid at once, forks in flight included; the loop then
    only collects what is left."""
    if processes_of(uid):
        _kill_all_as(uid)
    for _ in range(200):
        pids = processes_of(uid)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.005)
    raise ContainerError(f"processes of uid {uid} survive SIGKILL; check for processes in "
                         f"uninterruptible sleep with: ps -o pid,stat,cmd -u {uid}")


def _kill_all_as(uid: int) -> None:
    killer = shutil.which("kill")
    setpriv = shutil.which("setpriv")
    if not killer or not setpriv:
        return
    try:
        subprocess.run([setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                        killer, "-KILL", "-1"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        pass


class UidPool:
    """Unprivileged uids for children, one per running child."""

    def __init__(self, base: int = UID_BASE, slots: int = UID_SLOTS):
        self.base, self.slots = base, slots
        self._lock = threading.Lock()
        self._held: dict[int, int] = {}   # uid -> fd of its lock file

    def acquire(self) -> int:
        with self._lock:
            for uid in range(self.base, self.base + self.slots):
                if uid in self._held or _account_exists(uid):
                    continue
                fd = os.open(_lock_directory() / str(uid), os.O_CREAT | os.O_RDWR, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:   # another grader process on this machine has it
                    os.close(fd)
                    continue
                # Nobody holds this uid now: whatever still runs under it was left by a grader
                # that was killed before it could clean up.
                try:
                    kill_uid(uid)
                except ContainerError:   # unkillable leftovers: leave this uid alone
                    os.close(fd)
                    continue
                self._held[uid] = fd
                return uid
        raise ContainerError(f"all {self.slots} sandbox uids ({self.base}..."
                             f"{self.base + self.slots - 1}) are in use; grade fewer "
                             "submissions at once (--jobs)")

    def release(self, uid: int) -> None:
        with self._lock:
            fd = self._held.pop(uid)
            os.close(fd)  # closing drops the flock

    def in_use(self) -> set[int]:
        with self._lock:
            return set(self._held)


def _account_exists(uid: int) -> bool:
    try:
        pwd.getpwuid(uid)
    except KeyError:
        try:
            grp.getgrgid(uid)
        except KeyError:
            return False
    return True


UIDS = UidPool()


# --- the runtime template -------------------------------------------------------------------

class _Tree:
    """Host paths mirrored into ``root``: files are placed at their fully resolved path, and
    every symlink met on the way is recreated, so that the same absolute paths resolve the
    same way inside (e.g. /lib64 -> /usr/lib64) without writing through a link."""

    def __init__(self, root: Path):
        self.root = root
        self.links: dict[str, str] = {}

    def resolve(self, path: str) -> str:
        parts = [p for p in path.split("/") if p]
        result, hops = "/", 0
        while parts:
            part = parts.pop(0)
            if part == ".":
                continue
            if part == "..":
                result = os.path.dirname(result)
                continue
            candidate = os.path.join(result, part)
            if os.path.islink(candidate):
                hops += 1
                if hops > 40:
                    raise ContainerError(f"{path}: too many levels of symbolic links")
                text = os.readlink(candidate)
                self.links[candidate] = text
                target = text if text.startswith("/") else os.path.join(result, text)
                parts = [p for p in target.split("/") if p] + parts
                result = "/"
            else:
                result = candidate
        return result

    def directory(self, physical: str) -> Path:
        inside = self.root / physical.lstrip("/")
        missing = []
        probe = inside
        while not probe.exists():
            missing.append(probe)
            probe = probe.parent
        for folder in reversed(missing):
            folder.mkdir(mode=0o755)
            os.chmod(folder, 0o755)  # not narrowed by the umask
        return inside

    def add_file(self, path: str) -> None:
        physical = self.resolve(path)
        target = self.directory(os.path.dirname(physical)) / os.path.basename(physical)
        if not target.exists():
            _copy_normalised(physical, target)

    def finish(self) -> None:
        for location, text in self.links.items():
            inside = self.directory(os.path.dirname(location)) / os.path.basename(location)
            if not inside.is_symlink():
                os.symlink(text, inside)
                os.lchown(inside, 0, 0)


def _copy_normalised(source: str, target: Path) -> None:
    """A root-owned copy, 0755 if the source is executable by anyone, else 0644 (never
    setuid/setgid), with the source's modification time: a stdlib .pyc is only used while
    its source's mtime matches the one recorded in it, else every start would recompile."""
    shutil.copyfile(source, target)
    status = os.stat(source)
    os.chown(target, 0, 0)
    os.chmod(target, 0o755 if status.st_mode & 0o111 else 0o644)
    os.utime(target, ns=(status.st_atime_ns, status.st_mtime_ns))


def shared_libraries(files: list[str]) -> set[str]:
    """The shared libraries and the dynamic loader ``files`` need, as ldd reports them."""
    ldd = shutil.which("ldd")
    if ldd is None:
        raise ContainerError("ldd is missing; install it (apt-get install -y libc-bin) to use "
                             "--sandbox container")
    needed: set[str] = set()
    # One ldd call for all files: ldd prints "file:" headers before each file's libraries.
    listing = subprocess.run([ldd, *files], capture_output=True, text=True, timeout=60)
    for line in listing.stdout.splitlines():
        line = line.strip()
        if "=>" in line:
            location = line.split("=>", 1)[1].strip().split(" (")[0].strip()
        else:
            location = line.split(" (")[0].strip()
        if location.startswith("/") and not location.endswith(":") and os.path.exists(location):
            needed.add(location)
    return needed


def _stdlib_files(stdlib: str) -> list[str]:
    """The standard library's files, without installed packages, tests, GUI tools, the build's
    config directory and optimised bytecode (the child never runs with -O)."""
    found = []
    for top, folders, files in os.walk(stdlib):
        folders[:] = [f for f in folders if f not in SKIPPED_DIRECTORIES
                      and not (top == stdlib and f.startswith("config-"))]
        for name in files:
            if ".opt-1." in name or ".opt-2." in name:
                continue
            path = os.path.join(top, name)
            if os.path.isfile(path):
                found.append(path)
    return found


_templates: dict[tuple, Path] = {}
_templates_lock = threading.Lock()
_workspace: Path | None = None


def workspace() -> Path:
    """A root-only folder holding the template and the per-child roots (one filesystem, so
    children's roots can hard-link the template), removed when the grader exits."""
    global _workspace
    if _workspace is None:
        # Named like a batch's temporary folder, so that the next run removes it if this
        # process is killed before its atexit handler runs (batch.remove_stale_temporaries).
        _workspace = Path(tempfile.mkdtemp(prefix=f"grader-batch-{owner_pid()}-container-"))
        os.chmod(_workspace, 0o700)
        atexit.register(shutil.rmtree, _workspace, True)
    return _workspace


def current_workspace() -> Path | None:
    return _workspace


def remove_workspace() -> None:
    """Remove this process's workspace now (a forked worker's atexit handlers do not run)."""
    global _workspace
    if _workspace is not None:
        shutil.rmtree(_workspace, ignore_errors=True)
        _workspace = None
        _templates.clear()
        _runners.clear()


def runtime_template(python: str, packages=None) -> Path:
    """The read-only runtime tree for ``python`` with the course's ``packages`` (a
    ``grader.sandbox.packages.Provision``), built on first use (cached per interpreter and packages)."""
    key = (python, packages.entries if packages else ())
    with _templates_lock:
        if key not in _templates:
            _templates[key] = _build_template(python, workspace(), packages)
        return _templates[key]


def _add_packages(tree: "_Tree", packages) -> None:
    """The packages' files and folders, root-owned and read-only, under ``/packages``, and
    the shared libraries outside them that their extension modules load (libraries they
    bring along, such as ``numpy.libs``, are found inside through ``$ORIGIN``)."""
    entries = package_entries(packages)
    if not entries:
        return
    folder = tree.directory(PACKAGES_MOUNT)
    extensions = []
    for name, entry in entries.items():
        if os.path.isdir(entry):
            _copy_read_only(Path(entry), folder / name)
            extensions += [os.path.join(top, file) for top, _, files in os.walk(entry)
                           for file in files if ".so" in file]
        else:
            _copy_normalised(entry, folder / name)
            if ".so" in name:
                extensions.append(entry)
    inside = tuple(entry + os.sep for entry in entries.values())
    for library in sorted(shared_libraries(extensions)) if extensions else ():
        if not library.startswith(inside):
            tree.add_file(library)


def _build_template(python: str, where: Path, packages=None) -> Path:
    root = Path(tempfile.mkdtemp(prefix="template-", dir=where))
    os.chmod(root, 0o755)
    tree = _Tree(root)
    # The base installation's folders, also when the grader runs from a virtual environment
    # (whose "platstdlib" is the environment's own).
    stdlib = os.path.realpath(sysconfig.get_path("stdlib"))
    dynload = os.path.realpath(sysconfig.get_config_var("DESTSHARED") or "")
    if not os.path.isdir(dynload):
        raise ContainerError(f"{dynload!r}: the interpreter's lib-dynload folder is missing; "
                             "use a complete Python installation or --sandbox process")
    platstdlib = os.path.dirname(dynload)
    files = [python, *_stdlib_files(stdlib)]
    if os.path.realpath(platstdlib) != os.path.realpath(stdlib):
        files += _stdlib_files(platstdlib)
    archive = _stdlib_archive()
    if archive is not None:
        # The pure-Python stdlib goes into the zip CPython already puts first on sys.path:
        # one file for each child's root to link instead of some 1400 (each a link to make and
        # remove per child); os.py stays as the landmark by which the interpreter finds its
        # prefix; extension modules stay files (they cannot be loaded from a zip).
        packed = [f for f in files if f.startswith(stdlib + os.sep) and not
                  f.startswith(dynload + os.sep)]
        folder = tree.directory(tree.resolve(os.path.dirname(archive)))
        _pack_stdlib(stdlib, packed, folder / os.path.basename(archive))
        landmark = os.path.join(stdlib, "os.py")
        files = [f for f in files if f not in packed] + [landmark]
    # tkinter is left out, and with it the X11 libraries its extension module would need.
    files = [f for f in files if not os.path.basename(f).startswith("_tkinter")]
    extensions = [f for f in files if f.endswith(".so")] + [python]
    files += sorted(shared_libraries(extensions))
    for path in files:
        tree.add_file(path)
    if packages:
        _add_packages(tree, packages)
    tree.finish()
    # Character devices made once here; children's roots hard-link them (the nodes are
    # root-owned, the child can only read and write the device).
    devices = tree.directory("/dev")
    for name, number in DEVICES.items():
        try:
            os.mknod(devices / name, 0o666 | stat.S_IFCHR, number)
            os.chmod(devices / name, 0o666)
        except OSError:  # no CAP_MKNOD (some containers): Python needs neither device
            pass
    return root


def _stdlib_archive() -> str | None:
    """Where the interpreter looks for a zipped stdlib (``{prefix}/lib/pythonXY.zip``, first
    on sys.path), or None where no such entry is on its path or a real one already exists."""
    path = os.path.join(os.path.realpath(sys.base_prefix), "lib",
                        f"python{sys.version_info[0]}{sys.version_info[1]}.zip")
    if path not in [os.path.realpath(p) for p in sys.path if p] or os.path.exists(path):
        return None
    return path


def _pack_stdlib(stdlib: str, files: list[str], target: Path) -> None:
    """``files`` (below ``stdlib``) into the zip ``target``, each module's compiled bytecode
    from the stdlib's own __pycache__ stored as ``name.pyc`` beside ``name.py``, where
    zipimport looks for it (it checks the recorded source mtime against the .py's entry)."""
    tag = sys.implementation.cache_tag
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as archive:
        for path in files:
            relative = os.path.relpath(path, stdlib)
            folder, name = os.path.split(relative)
            if os.path.basename(folder) == "__pycache__":
                continue  # added beside its source below
            archive.write(path, relative)
            if name.endswith(".py"):
                cached = os.path.join(stdlib, folder, "__pycache__", f"{name[:-3]}.{tag}.pyc")
                if os.path.isfile(cached):
                    archive.write(cached, os.path.join(folder, name[:-3] + ".pyc"))
    os.chown(target, 0, 0)
    os.chmod(target, 0o644)


# --- one child's root -------------------------------------------------------------------------

_runners: dict[tuple, Path] = {}


def runner_template(stage: Path) -> Path:
    """A root-owned, read-only copy of the staged runner, made once per stage (it does not
    change during a batch), for children's roots to hard-link instead of copying it again."""
    script = stage / "grader" / "sandbox" / "child.py"
    status = os.stat(script)
    key = (str(stage), status.st_ino, status.st_mtime_ns)
    with _templates_lock:
        if key not in _runners:
            holder = Path(tempfile.mkdtemp(prefix="runner-", dir=workspace()))
            _copy_read_only(stage, holder / "runner")
            _runners[key] = holder / "runner"
        return _runners[key]


def _populate_from(template: Path, root: Path) -> None:
    """Hard links to the template's files (copies if another filesystem), same modes."""
    same_device = os.stat(template).st_dev == os.stat(root.parent).st_dev
    for top, folders, files in os.walk(template):
        relative = os.path.relpath(top, template)
        here = root if relative == "." else root / relative
        for name in folders:
            source = os.path.join(top, name)
            if os.path.islink(source):
                os.symlink(os.readlink(source), here / name)
            else:
                (here / name).mkdir(mode=0o755)
                os.chmod(here / name, 0o755)
        for name in files:
            source = os.path.join(top, name)
            if os.path.islink(source):
                os.symlink(os.readlink(source), here / name)
            elif same_device:
                os.link(source, here / name)
            else:
                shutil.copy2(source, here / name)
                os.chown(here / name, 0, 0)


def _copy_read_only(source: Path, target: Path) -> None:
    """A root-owned copy the child can read but not change: folders 0755, files 0644 (0755 if
    executable).  Symlinks stay links (resolved inside the child's root, never the host's),
    sockets, FIFOs and devices are left out."""
    target.mkdir(mode=0o755)
    os.chmod(target, 0o755)
    for entry in os.scandir(source):
        destination = target / entry.name
        if entry.is_symlink():
            os.symlink(os.readlink(entry.path), destination)
            os.lchown(destination, 0, 0)
        elif entry.is_dir(follow_symlinks=False):
            _copy_read_only(Path(entry.path), destination)
        elif entry.is_file(follow_symlinks=False):
            _copy_normalised(entry.path, destination)


class ChildRoot:
    """One child's root: the runtime (with the course's packages under /packages, if any),
    /runner, /submission, a private /tmp, /dev/null and /dev/urandom; nothing else."""

    def __init__(self, python: str, stage: Path, submission: Path, uid: int, packages=None):
        self.uid = uid
        template = runtime_template(python, packages)
        self.path = Path(tempfile.mkdtemp(prefix=f"root-{uid}-", dir=template.parent))
        try:
            os.chmod(self.path, 0o755)
            _populate_from(template, self.path)
            (self.path / "runner").mkdir()
            os.chmod(self.path / "runner", 0o755)
            _populate_from(runner_template(stage), self.path / "runner")
            _copy_read_only(submission, self.path / "submission")
            scratch = self.path / "tmp"
            scratch.mkdir(mode=0o700)
            os.chown(scratch, uid, uid)
            os.chmod(scratch, 0o700)
        except BaseException:
            self.remove()
            raise

    def remove(self) -> None:
        """Delete the root, whatever the child made in its /tmp (odd modes, deep nesting,
        links pointing anywhere: rmtree works by fd and never follows links).  Call only
        once no process of the child's uid is left, or it could keep writing."""
        shutil.rmtree(self.path, ignore_errors=True)
        if self.path.exists():
            # Only a file the child made immutable could stay, and it cannot (no privilege).
            raise ContainerError(f"{self.path}: could not be removed; delete it by hand")
