"""Time `grader grade` on the bundled course: median wall time of repeated runs, and the median
per-submission time from results.json.

    python bench/grade_time.py [--runs 5] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    walls, per_student = [], {}
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as out:
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "grader.cli", "grade", "--out", out,
                            "--jobs", str(args.jobs)], cwd=ROOT, check=True,
                           capture_output=True)
            walls.append(time.perf_counter() - started)
            for results in Path(out).glob("*/results.json"):
                data = json.loads(results.read_text())
                per_student.setdefault(results.parent.name, []).append(data["execution_time"])
    print(f"grader grade, bundled course, --jobs {args.jobs}, {args.runs} runs: "
          f"median {statistics.median(walls):.2f} s (min {min(walls):.2f}, max {max(walls):.2f})")
    for student, times in sorted(per_student.items()):
        print(f"  {student:20s} median {statistics.median(times):.3f} s per submission")


if __name__ == "__main__":
    main()
