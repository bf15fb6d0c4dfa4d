"""The adversarial batch as one run: every hostile submission of tests/data/hostile, the hostile
names, archives and links of tests/hostile_entries.py, and two correct submissions, graded at
once with `--jobs 2`; prints the batch's time, the parent's peak memory, the exit status and
whether the correct ones kept full marks.

    python bench/hostile_batch.py [--sandbox bubblewrap|container|process] [--runs 1]

The batch runs in this process (as `grader grade` would), so the peak resident set size read
afterwards is the parent's own: the children's memory is not in it.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import hostile_entries  # noqa: E402

from grader.cli import main as grader  # noqa: E402
from grader.sandbox.cgroup import cgroups_work  # noqa: E402


def build(folder: Path) -> Path:
    submissions = folder / "submissions"
    submissions.mkdir()
    hostile_entries.copy_hostile(submissions, fork_flood=cgroups_work())
    for name in ("aa-korrekt", "zz-korrekt"):
        shutil.copytree(ROOT / "submissions" / "korrekt", submissions / name)
    hostile_entries.add(submissions, ROOT / "submissions" / "korrekt")
    return submissions


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sandbox", default="auto")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    walls = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as folder:
            submissions = build(Path(folder))
            out = Path(folder) / "out"
            count = sum(1 for _ in submissions.iterdir())
            started = time.perf_counter()
            status = grader(["grade", "--tasks", str(ROOT / "tests" / "data" / "hostile" /
                                                     "tasks.yaml"),
                             "--submissions", str(submissions), "--out", str(out),
                             "--jobs", "2", "--sandbox", args.sandbox, "--allow-weak-sandbox"])
            walls.append(time.perf_counter() - started)
            reports = [p for p in ("gradebook.csv", "moodle.csv", "ilias.csv", "junit.xml",
                                   "summary.html") if (out / p).is_file()]
            correct = [json.loads((out / n / "results.json").read_text())
                       for n in ("aa-korrekt", "zz-korrekt")]
            graded = sum(1 for p in out.iterdir() if (p / "results.json").is_file())
            print(f"exit status {status}; {graded} results for {count} entries; "
                  f"batch reports {len(reports)}/5; correct: "
                  + ", ".join(f"{c['score']:g}/{c['extra_data']['max_score']:g}"
                              for c in correct))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"hostile batch, --jobs 2, --sandbox {args.sandbox}: {args.runs} run(s), median "
          f"{statistics.median(walls):.1f} s; parent peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
