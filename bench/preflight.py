"""What the batch's preflight costs: before the first submission, `grader grade` stages the
runner and starts one sandboxed child on an empty folder (grader.batch.preflight), so that a
machine that cannot run children stops the batch with one line instead of grading a class 0.

    python bench/preflight.py [--runs 9] [--sandbox auto]

Prints the median wall time of the preflight (in its own temporary folder, as the batch runs
it) over the runs, and the median of staging the runner alone, for comparison.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from grader.batch import preflight_in_temporary  # noqa: E402
from grader.sandbox.levels import best_level  # noqa: E402
from grader.sandbox.staging import stage_runner  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--sandbox", default="auto")
    args = parser.parse_args()
    level = best_level() if args.sandbox == "auto" else args.sandbox
    preflight_in_temporary(level)          # warm: the runner's bytecode kept, the root built
    whole, staging = [], []
    for _ in range(args.runs):             # alternated
        started = time.perf_counter()
        preflight_in_temporary(level)
        whole.append(time.perf_counter() - started)
        with tempfile.TemporaryDirectory() as folder:
            started = time.perf_counter()
            stage_runner(Path(folder) / "runner")
            staging.append(time.perf_counter() - started)
    print(f"{level}: preflight {1000 * statistics.median(whole):.0f} ms, of which staging the "
          f"runner {1000 * statistics.median(staging):.0f} ms (medians of {args.runs})")


if __name__ == "__main__":
    main()
