"""Run a script (the self-check kit's check.py) as on a machine without POSIX's tools, the
way a student's Windows Python is: before anything of the grader is imported, the modules
Windows lacks (fcntl, resource, pwd, grp) cannot be imported and the os functions and flags it
lacks (process groups, sysconf, readv, non-blocking pipes, uids, fchmod, O_NOFOLLOW,
O_CLOEXEC, O_NONBLOCK) are gone.  The grader must then take its portable branches
(grader/sandbox/portable.py): threads reading the child's pipes instead of select(), the
child killed without a process group, no cache that needs file owners.

    python without_posix.py SCRIPT [ARGUMENT ...]

What the child runs is unchanged: it is started by the grader as its own interpreter.
"""

import os
import runpy
import sys

for name in ("fcntl", "resource", "pwd", "grp", "termios"):
    sys.modules[name] = None            # import fails, as on Windows
for name in ("killpg", "sysconf", "readv", "set_blocking", "geteuid", "getuid", "fchmod",
             "O_NOFOLLOW", "O_CLOEXEC", "O_NONBLOCK"):
    if hasattr(os, name):
        delattr(os, name)

from grader.sandbox import portable  # noqa: E402

assert portable.THREADED_PIPES, portable.describe()
print(f"without POSIX: {portable.describe()}", file=sys.stderr, flush=True)
script = sys.argv[1]
sys.argv = sys.argv[1:]
runpy.run_path(script, run_name="__main__")
