"""Per-submission overhead of the bubblewrap sandbox against a bare child process, measured
side by side (the two levels alternate within each round) on this machine.

    python bench/sandbox_overhead.py [--runs 15]

* startup: start a child, import the student's module, stop it (the fixed cost);
* submission: grade submissions/korrekt with every check of the bundled course.
"""

from __future__ import annotations

import json
import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.batch import budget_of, prepare  # noqa: E402
from grader.grading import grade_submission  # noqa: E402
from grader.sandbox.base import ResourceLimits
from grader.sandbox.bubblewrap import bubblewrap_works  # noqa: E402
from grader.sandbox.launcher import Child
from grader.sandbox.staging import stage_runner  # noqa: E402
from grader.tasks import load_course  # noqa: E402

LEVELS = ("process", "bubblewrap")


def startup(script: Path, level: str) -> float:
    with tempfile.TemporaryDirectory() as scratch:
        started = time.perf_counter()
        child = Child(script, ROOT / "submissions/korrekt", Path(scratch), level,
                      ResourceLimits())
        reply = json.loads(child.request({"op": "load", "module": "minimax"}, 10))
        child.stop()
        assert reply["status"] == "ok", reply
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    if not bubblewrap_works():
        sys.exit("bubblewrap is not available here")
    course = load_course(ROOT / "tasks")
    plan, answers = prepare(course)
    script = stage_runner(Path(tempfile.mkdtemp()))
    starts = {level: [] for level in LEVELS}
    grades = {level: [] for level in LEVELS}
    for _ in range(args.runs):
        for level in LEVELS:
            starts[level].append(startup(script, level))
        for level in LEVELS:
            started = time.perf_counter()
            result = grade_submission(plan, answers, script, ROOT / "submissions/korrekt",
                                      budget_of(course), level)
            grades[level].append(time.perf_counter() - started)
            assert result.score == result.max_score
    for name, table in (("startup (start, import, stop)", starts),
                        ("grade submissions/korrekt", grades)):
        bare, boxed = (statistics.median(table[level]) for level in LEVELS)
        print(f"{name:32s} process {bare * 1000:7.1f} ms   bubblewrap {boxed * 1000:7.1f} ms"
              f"   overhead {1000 * (boxed - bare):+6.1f} ms ({boxed / bare:.2f}x), "
              f"median of {args.runs}")


if __name__ == "__main__":
    main()
