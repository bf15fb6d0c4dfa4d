"""What a CPU-hungry submission costs its neighbours: three correct submissions graded with
`--jobs 2` beside tests/data/hostile/cpu-hog (30 processes spinning from its import on), and
without it, alternately in one run; medians of the neighbours' scores and grading times.

    python bench/cpu_hog.py [--runs 3] [--sandbox auto] [--checkout PATH]

Time limits are the child's own CPU time and each submission's cgroup gets one core at most,
so the hog may slow its neighbours' wall-clock time a little but must not cost them points.

Where the kernel's scheduler autogroups are on (/proc/sys/kernel/sched_autogroup_enabled = 1,
common on desktops), each session already gets a fair share and the hog's effect is small
either way; servers and containers often run without them.  To see what the cgroup's CPU
quota does, compare with them off (as root: echo 0 > /proc/sys/kernel/sched_autogroup_enabled)
and with `--checkout` pointing at a grader without the quota.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NEIGHBOURS = ("korrekt-1", "korrekt-2", "korrekt-3")


def batch(with_hog: bool, sandbox: str, checkout: Path = ROOT) -> tuple[dict, float]:
    with tempfile.TemporaryDirectory() as folder:
        submissions, out = Path(folder) / "submissions", Path(folder) / "out"
        submissions.mkdir()
        for name in NEIGHBOURS:
            shutil.copytree(ROOT / "submissions" / "korrekt", submissions / name)
        if with_hog:
            shutil.copytree(ROOT / "tests" / "data" / "hostile" / "cpu-hog",
                            submissions / "cpu-hog")
            shutil.copy(ROOT / "submissions" / "korrekt" / "minimax.py",
                        submissions / "cpu-hog" / "korrekt.py")
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "grader.cli", "grade", "--tasks",
                        str(ROOT / "tasks"), "--submissions", str(submissions), "--out",
                        str(out), "--jobs", "2", "--sandbox", sandbox,
                        "--allow-weak-sandbox"], cwd=checkout, check=True, capture_output=True)
        wall = time.perf_counter() - started
        results = {name: json.loads((out / name / "results.json").read_text())
                   for name in NEIGHBOURS}
        return results, wall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sandbox", default="auto")
    parser.add_argument("--checkout", type=Path, default=ROOT,
                        help="grade with the grader of another checkout (e.g. an older commit "
                        "in a git worktree), for a before/after comparison")
    args = parser.parse_args()
    scores = {True: [], False: []}
    seconds = {True: [], False: []}
    walls = {True: [], False: []}
    maximum = None
    for _ in range(args.runs):
        for with_hog in (True, False):
            results, wall = batch(with_hog, args.sandbox, args.checkout.resolve())
            walls[with_hog].append(wall)
            for data in results.values():
                scores[with_hog].append(data["score"])
                seconds[with_hog].append(data["execution_time"])
                maximum = data["extra_data"]["max_score"]
    print(f"CPU hog beside 3 correct neighbours, bundled course, --jobs 2, "
          f"{args.runs} runs each, alternating:")
    for with_hog in (True, False):
        label = "beside the hog " if with_hog else "without the hog"
        print(f"  {label}: neighbour score median {statistics.median(scores[with_hog]):g}/"
              f"{maximum:g} (min {min(scores[with_hog]):g}), grading time median "
              f"{statistics.median(seconds[with_hog]):.2f} s per neighbour, batch "
              f"{statistics.median(walls[with_hog]):.1f} s")
    ratio = statistics.median(seconds[True]) / statistics.median(seconds[False])
    print(f"  neighbour grading time beside/without: {ratio:.2f}x")


if __name__ == "__main__":
    main()
