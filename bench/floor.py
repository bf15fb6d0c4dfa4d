"""The bare floor of grading, against the grader, side by side: core-seconds per submission.

    python bench/floor.py [--students 20] [--runs 3] [--jobs 1] [--sandbox auto]

The floor is a fresh interpreter per submission that imports the student's modules and makes
exactly the calls of the bundled course (the same trees, functions, depth limits and random
trees, hidden checks included) through the same game objects, which record the visits a
grader needs; no isolation, no JSON boundary, no verdicts, no reports.  The grader is
`grader grade` on the same batch (copies of submissions/korrekt).  Both are measured as CPU
time of all processes (user + system, children included), alternately, and reported as
medians: per submission in all (the batch's total divided by its size) and per additional
submission (a batch of N against a batch of 1, which takes out the fixed start-up).
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


def floor(folders: list[Path], requests_file: Path) -> tuple[float, float]:
    """(core-seconds, wall seconds) of the floor over ``folders``, one interpreter each."""
    cpu, wall = cpu_of_children(), time.perf_counter()
    for folder in folders:
        subprocess.run([sys.executable, "-c", FLOOR, str(folder), str(requests_file)],
                       check=True, cwd=folder, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return cpu_of_children() - cpu, time.perf_counter() - wall


def grader(batch: Path, out: Path, jobs: int, sandbox: str) -> tuple[float, float]:
    cpu, wall = cpu_of_children(), time.perf_counter()
    subprocess.run([sys.executable, "-m", "grader.cli", "grade", "--tasks", str(ROOT / "tasks"),
                    "--submissions", str(batch), "--out", str(out), "--jobs", str(jobs),
                    "--sandbox", sandbox, "--allow-weak-sandbox"],
                   check=True, cwd=ROOT, capture_output=True)
    return cpu_of_children() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--sandbox", default="auto")
    args = parser.parse_args()
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
        figures = {key: [] for key in ("floor-1", "floor-n", "grader-1", "grader-n")}
        walls = {key: [] for key in figures}
        for run in range(args.runs):
            for size, label in ((1, "1"), (args.students, "n")):
                folders = sorted(batches[size].iterdir())
                cpu, wall = floor(folders, requests_file)
                figures[f"floor-{label}"].append(cpu)
                walls[f"floor-{label}"].append(wall)
                cpu, wall = grader(batches[size], scratch / f"out-{run}-{size}", args.jobs,
                                   args.sandbox)
                figures[f"grader-{label}"].append(cpu)
                walls[f"grader-{label}"].append(wall)
    med = {key: statistics.median(values) for key, values in figures.items()}
    wall = {key: statistics.median(values) for key, values in walls.items()}
    n = args.students
    print(f"bundled course, {n} copies of korrekt, grader with --jobs {args.jobs} "
          f"--sandbox {args.sandbox}; medians of {args.runs} alternating runs (core-seconds)")
    for who in ("floor", "grader"):
        total = med[f"{who}-n"] / n
        extra = (med[f"{who}-n"] - med[f"{who}-1"]) / (n - 1) if n > 1 else float("nan")
        print(f"  {who:>6}: batch of {n} {med[f'{who}-n']:.2f} s (wall {wall[f'{who}-n']:.2f} s), "
              f"batch of 1 {med[f'{who}-1']:.2f} s; per submission in all {total:.3f} s, "
              f"per additional submission {extra:.3f} s")
    ratio_all = med["grader-n"] / med["floor-n"]
    ratio_extra = ((med["grader-n"] - med["grader-1"]) / (med["floor-n"] - med["floor-1"])
                   if n > 1 else float("nan"))
    print(f"  grader / floor: {ratio_all:.2f}x per submission in all, "
          f"{ratio_extra:.2f}x per additional submission (goal: at most 1.5x)")


if __name__ == "__main__":
    main()
