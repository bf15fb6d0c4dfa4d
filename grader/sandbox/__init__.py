"""Isolated runs of student code: a child process at one of three isolation levels, each layer
tested by tests/test_hostile.py.

``child.py`` is the only module here that runs next to student code; it is staged together
with ``grader/games`` and ``grader/conventions`` (and nothing else of the grader) into a
folder of its own (``staging.py``), so student code cannot import the reference, the task
files or the parent's modules.  The parent's side, one floor at a time:

* ``base.py``: what every level shares (limits, mounts, the seccomp filter);
* one module per level: ``bubblewrap.py``, ``container.py``, ``process.py``; and the
  per-submission ``cgroup.py`` every level uses where it can;
* ``launcher.py``: starts the child at its level, sends calls, enforces time limits and
  cleans up everything the child started (``processes.py``: its process tree;
  ``captured.py``: what it prints; ``portable.py``: where POSIX's tools are missing);
* ``levels.py``: which levels work here (``--sandbox auto``);
* ``boundary.py``: the one trust boundary, where every reply of a child is validated;
* ``run.py``: one submission's child, seen from the grading: its calls within the
  submission's time budget; ``packages.py``: the third-party packages a course provides.

The levels:

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
runs under coreutils ``chroot --userspec`` in a root of its own (``container.py``), as an
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

Third-party packages a course provides (``packages:``, see ``packages.py``) are the
one exception to the masked site-packages: their top-level files and folders appear read-only
under ``/packages`` (bubblewrap: bind mounts; container: copies in the root's template,
with the shared libraries their extension modules need; process: a folder of links in the
scratch folder), which the runner puts on its import path after the standard library; the rest
of site-packages stays out of sight at every level.

At every level, the child lowers its own rlimits (CPU seconds, address space, open files, file
size, no core dumps, processes) before it imports any student code.
"""
