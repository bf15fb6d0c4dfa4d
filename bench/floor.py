"""The honest floor of grading, against the grader, side by side: wall and CPU per submission.

    python bench/floor.py [--students 20 40] [--runs 5] [--jobs 1] [--sandbox auto]
                          [--against OLD]

The floor is what an unisolated autograder would do for the same work: ONE interpreter for the
whole batch, which loads the task files, plans the same calls the grader sends a child (the
same tasks, functions, depth limits and random trees, hidden checks included), and for each
submission imports the student's modules and runs every request through the same child-side
runner (``grader.sandbox.child.Runner``: the same recording game objects and visit logs)
that the grader runs inside the sandbox.  Between submissions it forgets the student's modules.

What the floor does NOT do: no sandbox (no bubblewrap, no fresh interpreter per submission, no
limits), no JSON across a pipe, no reference answers, no verdicts, no reports or exports, no
source scans.  Everything the grader does beyond it is overhead by this measure.

The grader is ``grader grade`` on the same batch (copies of submissions/korrekt), with its
answer cache warmed by one untimed run first.  Floor and grader are run alternately, ``--runs``
times each on batches of 1 and of every ``--students`` size; the script prints medians per
submission in all (a batch's total divided by its size) and per additional submission (a batch
of N against a batch of 1, which takes out the fixed start-up), and the ratio grader / floor.

Two measures.  ``wall``: seconds on the clock.  ``cpu``: core-seconds of the run's whole
process tree, sandboxed children included, read from a cgroup made for the run (cgroup v2
``cpu.stat`` or v1 ``cpuacct.usage``), so that other work on the machine does not count (the
run gets a mount namespace in which that cgroup is the hierarchy's root, so that the cgroups
the grader makes for its children are made inside it, and counted); where
no cgroup can be made (not root, no cgroupfs), the busy time of all cores from /proc/stat,
which also counts everything else running, so use it on a quiet machine.  (Not rusage: the
sandboxed processes die in their PID namespace and are never reaped by a process that reports
them.)  ``--against OLD`` also measures the grader of another checkout (a folder with
``grader/`` in it, e.g. ``git archive main | tar -x -C /tmp/main``) in the same alternation.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FLOOR = """
import sys
tasks, folders = sys.argv[1], sys.argv[2:]
from grader.grading import Plan
from grader.tasks import load_course
plan = Plan.of(load_course(tasks))
requests, loaded = [], set()
for call in plan.calls:
    if call.module not in loaded:
        loaded.add(call.module)
        requests.append({"op": "load", "module": call.module})
    requests.append(call.request())
from grader.conventions import STANDINS
from grader.sandbox.child import Runner
sys.path.append(STANDINS)
for folder in folders:
    before = set(sys.modules)
    sys.path.insert(0, folder)
    runner = Runner(folder)
    for request in requests:
        runner.handle(request)
    sys.path.remove(folder)
    for name in set(sys.modules) - before:
        del sys.modules[name]
"""


class CpuMeter:
    """Core-seconds of one process tree: a fresh cgroup per run, or /proc/stat."""

    def __init__(self):
        self.kind, self.base, self.nest = "machine (/proc/stat)", None, False
        for base, kind in ((Path("/sys/fs/cgroup/cpuacct"), "cgroup v1 cpuacct"),
                           (Path("/sys/fs/cgroup/unified"), "cgroup v2"),
                           (Path("/sys/fs/cgroup"), "cgroup v2")):
            probe = base / f"bench-floor-probe-{uuid.uuid4().hex[:8]}"
            try:
                probe.mkdir()
            except OSError:
                continue
            usable = (probe / "cpuacct.usage").exists() or (probe / "cpu.stat").exists()
            nest = usable and subprocess.run(
                ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                 'mount --bind "$0" "$1" && mkdir "$1/inner" && rmdir "$1/inner"',
                 str(probe), str(base)], capture_output=True).returncode == 0
            probe.rmdir()
            if usable:
                self.kind, self.base, self.nest = kind, base, nest
                if not nest:
                    self.kind += (" (no mount namespace: the sandboxed children's own "
                                  "cgroups are NOT counted)")
                break

    def run(self, command, **options) -> tuple[float, float]:
        """(core-seconds, wall seconds) of ``subprocess.run(command, **options)``."""
        if self.base is None:
            busy, wall = machine_busy(), time.perf_counter()
            finished(subprocess.run(command, **options))
            return machine_busy() - busy, time.perf_counter() - wall
        group = self.base / f"bench-floor-{uuid.uuid4().hex[:8]}"
        group.mkdir()
        try:
            procs = str(group / "cgroup.procs")

            def join():
                with open(procs, "w") as handle:
                    handle.write(str(os.getpid()))
            if self.nest:
                # The grader moves each sandboxed child into a cgroup of its own, made at the
                # hierarchy's root, out of this group; in a mount namespace of its own the run
                # sees this group as that root, so the children's groups are made inside it
                # and their CPU time is charged here too (also after they are removed).
                command = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                           'mount --bind "$0" "$1" && shift && exec "$@"',
                           str(group), str(self.base), *command]
            wall = time.perf_counter()
            finished(subprocess.run(command, preexec_fn=join, **options))
            wall = time.perf_counter() - wall
            if (group / "cpuacct.usage").exists():
                cpu = int((group / "cpuacct.usage").read_text()) / 1e9
            else:
                stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
                cpu = int(stat["usage_usec"]) / 1e6
        finally:
            for _ in range(50):     # a killed sandbox may take a moment to leave the group
                try:
                    group.rmdir()
                    break
                except OSError:
                    time.sleep(0.02)
        return cpu, wall


def finished(done: subprocess.CompletedProcess) -> None:
    """Stop the benchmark where a measured run failed, with what it said (a grader's output
    is captured)."""
    if done.returncode != 0:
        said = (done.stderr or b"").decode(errors="replace")[-3000:]
        raise SystemExit(f"{done.args[-16:]} exited with {done.returncode}:\n{said}")


def machine_busy() -> float:
    """Seconds all cores spent busy since boot (/proc/stat: all but idle and iowait)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    user, nice, system, idle, iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def floor(meter: CpuMeter, folders: list[Path]) -> tuple[float, float]:
    """The floor over ``folders``, all in one interpreter."""
    return meter.run([sys.executable, "-c", FLOOR, str(ROOT / "tasks"), *map(str, folders)],
                     cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})


def grader(meter: CpuMeter, batch: Path, out: Path, jobs: int, sandbox: str,
           checkout: Path = ROOT) -> tuple[float, float]:
    """``grader grade`` of ``checkout`` on ``batch``."""
    shutil.rmtree(out, ignore_errors=True)
    return meter.run([sys.executable, "-m", "grader.cli", "grade", "--tasks",
                      str(ROOT / "tasks"), "--submissions", str(batch), "--out", str(out),
                      "--jobs", str(jobs), "--sandbox", sandbox, "--allow-weak-sandbox"],
                     cwd=checkout, capture_output=True,
                     env={**os.environ, "PYTHONPATH": str(checkout)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, nargs="+", default=[20, 40])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--sandbox", default="auto")
    parser.add_argument("--against", type=Path,
                        help="also measure the grader of this checkout, alternately")
    args = parser.parse_args()
    graders = {"grader": ROOT}
    if args.against:
        graders["against"] = args.against.resolve()
    meter = CpuMeter()
    sizes = sorted({1, *args.students})
    samples: dict = {}
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as scratch:
        scratch = Path(scratch)
        batches = {}
        for size in sizes:
            batch = scratch / f"batch-{size}"
            for index in range(size):
                shutil.copytree(ROOT / "submissions" / "korrekt", batch / f"korrekt-{index:04d}")
            batches[size] = batch
        for who, checkout in graders.items():   # warm each grader's answer cache, untimed
            grader(meter, batches[1], scratch / f"out-{who}", args.jobs, args.sandbox, checkout)
        for _ in range(args.runs):
            for size in sizes:
                measured = {"floor": floor(meter, sorted(batches[size].iterdir()))}
                for who, checkout in graders.items():
                    measured[who] = grader(meter, batches[size], scratch / f"out-{who}",
                                           args.jobs, args.sandbox, checkout)
                for who, (cpu, wall) in measured.items():
                    samples.setdefault((who, size, "cpu"), []).append(cpu)
                    samples.setdefault((who, size, "wall"), []).append(wall)
    med = {key: statistics.median(values) for key, values in samples.items()}
    print(f"bundled course, copies of korrekt; grader: --jobs {args.jobs} --sandbox "
          f"{args.sandbox}; cpu from {meter.kind}; medians of {args.runs} alternated runs")
    if args.against:
        print(f"  against: the grader of {args.against}")
    for who in ("floor", *graders):
        print(f"  {who}: batch of 1: wall {med[(who, 1, 'wall')]:.3f} s, "
              f"cpu {med[(who, 1, 'cpu')]:.3f} s")
        for n in args.students:
            for key in ("wall", "cpu"):
                total = med[(who, n, key)] / n
                extra = (med[(who, n, key)] - med[(who, 1, key)]) / (n - 1)
                print(f"    batch of {n:>3}: {key:>4} {med[(who, n, key)]:7.3f} s, "
                      f"{total:.4f} s per submission in all, "
                      f"{extra:.4f} s per additional submission")
    for who in graders:
        for n in args.students:
            for key in ("wall", "cpu"):
                ratio_all = med[(who, n, key)] / med[("floor", n, key)]
                ratio_extra = ((med[(who, n, key)] - med[(who, 1, key)])
                               / (med[("floor", n, key)] - med[("floor", 1, key)]))
                print(f"  {who} / floor, {n} submissions, {key}: {ratio_all:.2f}x per "
                      f"submission in all, {ratio_extra:.2f}x per additional submission "
                      "(goal: at most 1.5x)")


if __name__ == "__main__":
    main()
