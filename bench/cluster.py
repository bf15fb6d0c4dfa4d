"""What does the Dask executor cost?  `grader grade --cluster` on a LocalCluster of two worker
processes (one thread each) against `grader grade --jobs 2`, side by side, on this machine.

    python bench/cluster.py [--students 20] [--runs 3] [--sandbox auto]

The batch is copies of `submissions/korrekt` graded against the bundled course, the two ways
alternately, `--runs` times; the script prints the median wall time of each and their ratio.
Both use the same two cores, so the ratio is the cluster executor's overhead (staging in the
parent, shipping copies and rendered files through the scheduler), not a speed-up: a real
cluster pays off by having more cores.  Needs the cluster extra (pip install -e '.[cluster]').
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import distributed

ROOT = Path(__file__).resolve().parent.parent


def grade(batch: Path, out: Path, sandbox: str, *extra: str) -> float:
    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "grader.cli", "grade", "--tasks", str(ROOT / "tasks"),
                    "--submissions", str(batch), "--out", str(out), "--sandbox", sandbox,
                    "--allow-weak-sandbox", *extra], check=True, cwd=ROOT, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sandbox", default="auto")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as work, \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     dashboard_address=":0") as cluster:
        work = Path(work)
        batch = work / "submissions"
        for n in range(args.students):
            shutil.copytree(ROOT / "submissions" / "korrekt", batch / f"student-{n:03d}")
        ways = {"--jobs 2": ("--jobs", "2"),
                "--cluster (LocalCluster, 2 workers)": ("--cluster", cluster.scheduler_address)}
        times: dict[str, list[float]] = {name: [] for name in ways}
        for _ in range(args.runs):
            for name, extra in ways.items():
                times[name].append(grade(batch, work / "out", args.sandbox, *extra))
        local, remote = (statistics.median(times[name]) for name in ways)
        print(f"bundled course, {args.students} correct submissions, {args.runs} runs each: "
              f"--jobs 2 median {local:.2f} s, --cluster median {remote:.2f} s; "
              f"cluster / local {remote / local:.2f}")
        for name in ways:
            print(f"  {name}: " + ", ".join(f"{t:.2f}" for t in times[name]))


if __name__ == "__main__":
    main()
