"""What a self-check kit costs to make, to hand out and to check with, side by side with the
grader of another checkout (e.g. the commit before the kit's answers were sealed).

    python bench/kit_cost.py --checkout /tmp/before [--runs 5] [--courses tasks ...]

A checkout without touching the repository's worktrees: ``mkdir /tmp/before && git archive
main | tar -x -C /tmp/before``.  Per course and grader, alternating round by round, a fresh
interpreter each run (``python -m grader.cli`` in the checkout's folder, so that its grader is
the one imported), the reference's answers cached (the first round, not counted, fills the
cache):

* ``grader kit``: wall seconds, and the size of each file it writes (the last run's);
* ``grader check --kit`` on the course's correct submission: wall seconds.

Printed: medians, and this checkout's over the other's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STUDENTS = {"tasks": "submissions/korrekt"}   # else the course folder's submissions/korrekt


def timed(command: list, cwd: Path, env: dict, ok=(0,)) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode not in ok:
        raise SystemExit(f"{' '.join(map(str, command))} in {cwd} exited {done.returncode}:\n"
                         f"{done.stdout}{done.stderr}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkout", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--courses", nargs="+", default=["tasks", "courses/vorlesung/tasks"])
    args = parser.parse_args()
    graders = {"this": ROOT, "other": args.checkout.resolve()}
    with tempfile.TemporaryDirectory(prefix="kit-cost-") as scratch:
        scratch = Path(scratch)
        env = {**os.environ, "GRADER_CACHE_DIR": str(scratch / "cache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for course in args.courses:
            tasks = ROOT / course
            student = ROOT / STUDENTS.get(course, str(Path(course).parent / "submissions"
                                                      / "korrekt"))
            times = {(name, what): [] for name in graders for what in ("kit", "check")}
            for run in range(args.runs + 1):
                for name, folder in graders.items():
                    kit = scratch / f"{name}-kit"
                    build = timed([sys.executable, "-m", "grader.cli", "kit", "--tasks",
                                   str(tasks), "--out", str(kit)], folder, env)
                    check = timed([sys.executable, "-m", "grader.cli", "check", str(student),
                                   "--kit", str(kit), "--out", str(scratch / "out")],
                                  folder, env, ok=(0, 1))
                    if run:        # the first round fills the answer cache and the bytecode
                        times[(name, "kit")].append(build)
                        times[(name, "check")].append(check)
            print(f"\n{course} ({args.runs} alternated runs, medians; student "
                  f"{student.relative_to(ROOT)})")
            for what in ("kit", "check"):
                medians = {name: statistics.median(times[(name, what)]) for name in graders}
                label = "grader kit" if what == "kit" else "grader check --kit"
                print(f"  {label:20} this {medians['this']:.2f} s, other {medians['other']:.2f} s"
                      f" ({medians['this'] / medians['other']:.2f}x)")
            for name in graders:
                files = sorted((scratch / f"{name}-kit").iterdir())
                sizes = ", ".join(f"{path.name} {path.stat().st_size / 1e3:.0f} kB"
                                  for path in files if "json" in path.name)
                total = sum(path.stat().st_size for path in files if "json" in path.name)
                print(f"  {name:5} files: {sizes}; answers in all {total / 1e3:.0f} kB")


if __name__ == "__main__":
    main()
