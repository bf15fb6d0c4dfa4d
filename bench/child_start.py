"""Where a sandboxed child's start goes: bubblewrap alone, the interpreter's start, the
runner's imports and a student's module, in CPU time, side by side.

    python bench/child_start.py [--runs 9] [--children 10] [--importtime] [--against OLD]

Each variant starts ``--children`` children one after another at the bubblewrap level, with
the very argv the grader builds (``grader.sandbox.launcher.command``: the same mounts, flags,
seccomp filter and limits), in a cgroup made for the variant's round, and reads that group's
CPU time (children included; cgroup v1 ``cpuacct.usage`` or v2 ``cpu.stat``); the variants
alternate round by round and the script prints the median per child of each:

* ``bwrap true``: bubblewrap with the grader's arguments, running ``/bin/true``;
* ``python pass``: the child's interpreter with the runner's flags, running ``pass``;
* ``runner imports``: the interpreter importing what the runner imports before a request
  (``grader.sandbox.child`` and what ``Runner`` and ``main`` import);
* ``runner + load``: the staged runner answering one request, loading
  ``submissions/korrekt/minimax.py``, then seeing its requests end (what a submission's child
  costs before its first call, without the parent's side: its cgroup, pipes and reading).

Differences between neighbours are the parts.  ``--against OLD`` adds ``OLD: runner + load``,
the runner of another checkout (a folder with ``grader/`` in it, e.g. ``git archive COMMIT |
tar -x -C /tmp/old``) staged by that checkout and started as this checkout starts a child,
in the same alternation.  ``--importtime`` also runs the last variant
once with ``-X importtime`` and prints the modules whose import took longest (cumulative,
microseconds, as the interpreter reports them inside the sandbox).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.sandbox.base import CHILD_FLAGS, RUNNER_MOUNT, ResourceLimits, seccomp_fd  # noqa: E402
from grader.sandbox.bubblewrap import bubblewrap_works  # noqa: E402
from grader.sandbox.launcher import command  # noqa: E402
from grader.sandbox.staging import stage_runner  # noqa: E402

IMPORTS = ("import sys; sys.path[:0] = ['%s']; import grader.sandbox.child as c; "
           "c.Runner('/submission'); import grader.conventions.absent" % RUNNER_MOUNT)


def cpu_group() -> tuple[Path, str]:
    for base, usage in ((Path("/sys/fs/cgroup/cpuacct"), "cpuacct.usage"),
                        (Path("/sys/fs/cgroup"), "cpu.stat")):
        group = base / f"bench-child-start-{uuid.uuid4().hex[:8]}"
        try:
            group.mkdir()
        except OSError:
            continue
        if (group / usage).exists():
            return group, usage
        group.rmdir()
    raise SystemExit("no cgroup with CPU accounting can be made here (run as root)")


def remove(group: Path) -> None:
    """Remove a measuring group once its last process has left (a sandbox's inner processes
    may take a moment after bubblewrap itself)."""
    for _ in range(100):
        try:
            group.rmdir()
            return
        except OSError:
            time.sleep(0.01)
    group.rmdir()


def read_cpu(group: Path, usage: str) -> float:
    text = (group / usage).read_text()
    if usage == "cpu.stat":
        return int(dict(line.split() for line in text.splitlines())["usage_usec"]) / 1e6
    return int(text) / 1e9


def child_argv(stage: Path, script: Path, variant: str, extra: tuple = ()) -> tuple:
    """The argv of one child of ``variant`` and the descriptors it is passed."""
    request_read, request_write = os.pipe()
    reply_read, reply_write = os.pipe()
    filter_fd = seccomp_fd()
    argv = command("bubblewrap", stage, script, ROOT / "submissions" / "korrekt", request_read,
                   reply_write, ResourceLimits(), filter_fd)
    python_at = argv.index("--") + 1
    flags_end = python_at + 1 + len(CHILD_FLAGS)    # then -c and the runner's boot code
    head, python, flags = argv[:python_at], argv[python_at], argv[python_at + 1:flags_end]
    if variant == "bwrap true":
        argv = [*head, "/bin/true"]
    elif variant == "python pass":
        argv = [*head, python, *flags, *extra, "-c", "pass"]
    elif variant == "runner imports":
        argv = [*head, python, *flags, *extra, "-c", IMPORTS]
    else:
        argv = [*head, python, *flags, *extra, *argv[flags_end:]]
    passed = [request_read, reply_write] + ([filter_fd] if filter_fd is not None else [])
    return argv, passed, request_write, reply_read


def run_child(stage: Path, script: Path, variant: str, group: Path | None,
              extra: tuple = ()) -> tuple[bytes, bytes]:
    argv, passed, request_write, reply_read = child_argv(stage, script, variant, extra)
    os.write(request_write, b'{"op": "load", "module": "minimax", "id": "1"}\n')
    os.close(request_write)

    def join():
        if group is not None:
            with open(group / "cgroup.procs", "w") as handle:
                handle.write(str(os.getpid()))
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, pass_fds=passed, preexec_fn=join,
                               env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                                    "PYTHONHASHSEED": "0"})
    for fd in passed:
        os.close(fd)
    with os.fdopen(reply_read, "rb") as replies:
        reply = replies.read()
    err = process.stderr.read()
    process.wait()
    if variant == "runner + load" and b'"status": "ok"' not in reply:
        raise SystemExit(f"the runner did not load the module: {reply!r} {err[-2000:]!r}")
    return reply, err


def importtime(stage: Path, script: Path) -> None:
    _, err = run_child(stage, script, "runner + load", None, ("-X", "importtime"))
    rows = []
    for line in err.decode().splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        self_us, cumulative, name = (part.strip() for part in
                                     line[len("import time:"):].split("|"))
        rows.append((int(cumulative), int(self_us), name))
    print(f"imports inside the sandbox (-X importtime, {len(rows)} modules, "
          f"{sum(r[1] for r in rows) / 1000:.1f} ms in all); longest cumulative:")
    for cumulative, self_us, name in sorted(rows, reverse=True)[:25]:
        print(f"  {cumulative / 1000:7.2f} ms cumulative, {self_us / 1000:6.2f} ms own  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--children", type=int, default=10)
    parser.add_argument("--importtime", action="store_true")
    parser.add_argument("--against", type=Path)
    args = parser.parse_args()
    if not bubblewrap_works():
        raise SystemExit("bubblewrap cannot make its namespaces here")
    variants = ["bwrap true", "python pass", "runner imports", "runner + load"]
    if args.against:
        variants.append(f"{args.against}: runner + load")
    samples: dict[str, list[float]] = {variant: [] for variant in variants}
    walls: dict[str, list[float]] = {variant: [] for variant in variants}
    with tempfile.TemporaryDirectory(prefix="bench-child-start-") as scratch:
        stage = Path(scratch) / "runner"
        script = stage_runner(stage)
        stages = {variant: (stage, script) for variant in variants}
        if args.against:
            old = Path(scratch) / "old-runner"
            subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; "
                            "from grader.sandbox.staging import stage_runner; "
                            "stage_runner(Path(sys.argv[1]))", str(old)], check=True,
                           cwd=args.against, env={**os.environ, "PYTHONPATH": str(args.against)})
            stages[variants[-1]] = (old, old / "grader" / "sandbox" / "child.py")
        for variant in variants:            # warm the page cache, untimed
            run_child(*stages[variant], variant.split(": ")[-1], None)
        for _ in range(args.runs):
            for variant in variants:
                group, usage = cpu_group()
                try:
                    started = time.perf_counter()
                    for _ in range(args.children):
                        run_child(*stages[variant], variant.split(": ")[-1], group)
                    walls[variant].append((time.perf_counter() - started) / args.children)
                    samples[variant].append(read_cpu(group, usage) / args.children)
                finally:
                    remove(group)
        print(f"CPU per sandboxed child (cgroup), medians of {args.runs} alternated rounds of "
              f"{args.children} children; load average {os.getloadavg()[0]:.2f}")
        previous = 0.0
        for variant in variants:
            cpu = statistics.median(samples[variant])
            print(f"  {variant:15s} {cpu * 1000:6.1f} ms CPU ({(cpu - previous) * 1000:+6.1f}), "
                  f"wall {statistics.median(walls[variant]) * 1000:6.1f} ms")
            previous = cpu if ": " not in variant else previous
        if args.importtime:
            importtime(stage, script)


if __name__ == "__main__":
    main()
