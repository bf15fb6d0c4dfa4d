"""The bare floor of grading, against the grader, side by side: core-seconds per submission.

    python bench/floor.py [--students 20] [--runs 3] [--jobs 1] [--sandbox auto] [--against OLD]

The floor is a fresh interpreter per submission that imports the student's modules and makes
exactly the calls of the bundled course (the same trees, functions, depth limits and random
trees, hidden checks included) through the same game objects, which record the visits a
grader needs; no isolation, no JSON boundary, no verdicts, no reports.  The grader is
`grader grade` on the same batch (copies of submissions/korrekt).  Both are measured as CPU
time, alternately, and reported as medians: per submission in all (the batch's total divided
by its size) and per additional submission (a batch of N against a batch of 1, which takes
out the fixed start-up).  ``--against OLD`` also measures the grader of another checkout (a
folder with ``grader/`` in it, e.g. ``git archive main | tar -x -C /tmp/main``) in the same
alternation, so that a change is compared with what it changed on the same machine at the same
time.

CPU time is read two ways.  `rusage` is what the kernel reports for reaped descendants: exact
for the floor, but a lower bound for the grader, whose sandboxed children are killed inside
their PID namespace and may never be reaped by a process that reports them.  `machine` is the
busy time of all cores from /proc/stat during the run: it counts everything the grader
started, and also whatever else runs on the machine, so use it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FLOOR = """
import json, sys, time
student, requests = sys.argv[1], json.load(open(sys.argv[2]))
sys.path[:0] = [student]
from grader.conventions import STANDINS
sys.path.append(STANDINS)
from grader.sandbox.child import Runner
runner = Runner(student)
for request in requests:
    runner.handle(request)
"""


def requests_of_course() -> list:
    """The requests `grader grade` sends a child for the bundled course, in its order."""
    sys.path.insert(0, str(ROOT))
    from grader.grading import Plan
    from grader.tasks import load_course
    plan = Plan.of(load_course(ROOT / "tasks"))
    requests, loaded = [], set()
    for call in plan.calls:
        if call.module not in loaded:
            loaded.add(call.module)
            requests.append({"op": "load", "module": call.module})
        requests.append(call.request())
    return requests


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def machine_busy() -> float:
    """Seconds all cores spent busy since boot (/proc/stat: all but idle and iowait)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    user, nice, system, idle, iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def measured(run) -> tuple[float, float, float]:
    """(rusage core-seconds, machine core-seconds, wall seconds) of ``run()``."""
    cpu, busy, wall = cpu_of_children(), machine_busy(), time.perf_counter()
    run()
    return cpu_of_children() - cpu, machine_busy() - busy, time.perf_counter() - wall


def floor(folders: list[Path], requests_file: Path) -> tuple[float, float, float]:
    """The floor over ``folders``, one interpreter each (see ``measured``)."""
    def run():
        for folder in folders:
            subprocess.run([sys.executable, "-c", FLOOR, str(folder), str(requests_file)],
                           check=True, cwd=folder, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return measured(run)


def grader(batch: Path, out: Path, jobs: int, sandbox: str,
           checkout: Path = ROOT) -> tuple[float, float, float]:
    """``grader grade`` of ``checkout`` on ``batch`` (see ``measured``)."""
    def run():
        subprocess.run([sys.executable, "-m", "grader.cli", "grade", "--tasks",
                        str(ROOT / "tasks"), "--submissions", str(batch), "--out", str(out),
                        "--jobs", str(jobs), "--sandbox", sandbox, "--allow-weak-sandbox"],
                       check=True, cwd=checkout, capture_output=True,
                       env={**os.environ, "PYTHONPATH": str(checkout)})
    return measured(run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--sandbox", default="auto")
    parser.add_argument("--against", type=Path,
                        help="also measure the grader of this checkout, alternately")
    args = parser.parse_args()
    graders = {"grader": ROOT}
    if args.against:
        graders["against"] = args.against.resolve()
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as scratch:
        scratch = Path(scratch)
        requests_file = scratch / "requests.json"
        requests_file.write_text(json.dumps(requests_of_course()))
        batches = {}
        for size in (1, args.students):
            batch = scratch / f"batch-{size}"
            for index in range(size):
                shutil.copytree(ROOT / "submissions" / "korrekt", batch / f"korrekt-{index:04d}")
            batches[size] = batch
        samples: dict = {}
        for run in range(args.runs):
            for size, label in ((1, "1"), (args.students, "n")):
                folders = sorted(batches[size].iterdir())
                for key, value in zip(("rusage", "machine", "wall"),
                                      floor(folders, requests_file)):
                    samples.setdefault((f"floor-{label}", key), []).append(value)
                for who, checkout in graders.items():
                    for key, value in zip(("rusage", "machine", "wall"),
                                          grader(batches[size],
                                                 scratch / f"out-{who}-{run}-{size}",
                                                 args.jobs, args.sandbox, checkout)):
                        samples.setdefault((f"{who}-{label}", key), []).append(value)
    med = {key: statistics.median(values) for key, values in samples.items()}
    n = args.students
    print(f"bundled course, {n} copies of korrekt, grader with --jobs {args.jobs} "
          f"--sandbox {args.sandbox}; medians of {args.runs} alternating runs")
    if args.against:
        print(f"  against: the grader of {args.against}")
    for who in ("floor", *graders):
        print(f"  {who:>7}: batch of {n}: wall {med[(f'{who}-n', 'wall')]:.2f} s, "
              f"batch of 1: wall {med[(f'{who}-1', 'wall')]:.2f} s")
        for key in ("rusage", "machine"):
            total = med[(f"{who}-n", key)] / n
            extra = ((med[(f"{who}-n", key)] - med[(f"{who}-1", key)]) / (n - 1)
                     if n > 1 else float("nan"))
            print(f"          {key:>7} core-seconds per submission: {total:.3f} in all, "
                  f"{extra:.3f} per additional submission")
    for who in graders:
        for key in ("rusage", "machine"):
            ratio_all = med[(f"{who}-n", key)] / med[("floor-n", key)]
            ratio_extra = ((med[(f"{who}-n", key)] - med[(f"{who}-1", key)])
                           / (med[("floor-n", key)] - med[("floor-1", key)])
                           if n > 1 else float("nan"))
            print(f"  {who} / floor ({key}): {ratio_all:.2f}x per submission in all, "
                  f"{ratio_extra:.2f}x per additional submission (goal: at most 1.5x)")


if __name__ == "__main__":
    main()
