"""Does a second core pay?  `grader grade --jobs 2` against `--jobs 1`, side by side.

    python bench/scaling.py [--students 40] [--runs 3] [--sandbox auto] [--course both]

Two courses: the bundled one (`tasks/`), and a random-tree-heavy one written to a temporary
folder (1,200 seeded random trees per submission: 300 each for minimax, alpha-beta and
negamax to the end, and 300 for alpha-beta at a depth limit drawn from 1 to 4 per tree).  Each
is graded on a batch of copies of `submissions/korrekt`, with `--jobs 1` and `--jobs 2`
alternately, `--runs` times; the script prints the median wall time of each and their ratio
(the speed-up of the second core).  On a machine where other work runs, the ratio is what to
quote, not the times.
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

ROOT = Path(__file__).resolve().parent.parent

RANDOM_HEAVY = """\
course: {title: "Random-tree-heavy course (bench/scaling.py)", language: en}
tasks:
  - id: random-heavy
    functions: [minimax, alphabeta, negamax]
    checks:
      - {kind: random-trees, seed: 11, trees: 300, time_limit: 20, points: 3}
      - {kind: random-trees, function: alphabeta, seed: 12, trees: 300,
         search_depth: [1, 4], time_limit: 20, points: 1}
"""


def grade(tasks: Path, batch: Path, out: Path, jobs: int, sandbox: str) -> float:
    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "grader.cli", "grade", "--tasks", str(tasks),
                    "--submissions", str(batch), "--out", str(out), "--jobs", str(jobs),
                    "--sandbox", sandbox, "--allow-weak-sandbox"],
                   check=True, cwd=ROOT, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sandbox", default="auto")
    parser.add_argument("--course", choices=("bundled", "random", "both"), default="both")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-scaling-") as work:
        work = Path(work)
        batch = work / "submissions"
        for n in range(args.students):
            shutil.copytree(ROOT / "submissions" / "korrekt", batch / f"student-{n:03d}")
        heavy = work / "random-heavy.yaml"
        heavy.write_text(RANDOM_HEAVY)
        courses = {"bundled": ROOT / "tasks", "random": heavy}
        if args.course != "both":
            courses = {args.course: courses[args.course]}
        for name, tasks in courses.items():
            times: dict[int, list[float]] = {1: [], 2: []}
            for _ in range(args.runs):
                for jobs in (1, 2):
                    times[jobs].append(grade(tasks, batch, work / "out", jobs, args.sandbox))
            one, two = statistics.median(times[1]), statistics.median(times[2])
            print(f"{name} course, {args.students} correct submissions, {args.runs} runs each: "
                  f"--jobs 1 median {one:.2f} s, --jobs 2 median {two:.2f} s; "
                  f"speed-up {one / two:.2f}x")
            for jobs in (1, 2):
                print(f"  --jobs {jobs}: " + ", ".join(f"{t:.2f}" for t in times[jobs]))


if __name__ == "__main__":
    main()
