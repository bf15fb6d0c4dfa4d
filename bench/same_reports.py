"""Do two checkouts write the same reports?  Byte for byte, apart from timing.

    python bench/same_reports.py grade CHECKOUT OUT [--only NAME...]  # graded by CHECKOUT
    python bench/same_reports.py compare OUT_A OUT_B     # exit 1 and list every difference
    python bench/same_reports.py both CHECKOUT_A CHECKOUT_B [--keep DIR]

For a change that must not alter any verdict, message or page (a speed-up, a refactoring):
grade the bundled course and the example students of the tests with the checkout before the
change and the one after, then compare every file written (results.json, feedback.md,
feedback.html, the state files, gradebook.csv, moodle.csv, ilias.csv, junit.xml,
summary.html).  Only what measures time is blanked before comparing: ``execution_time`` and
``seconds`` in JSON, the "seconds: 1.23 s" line of the feedback pages, junit's ``time=``
and the batch's duration on the summary page.

A checkout is a folder with ``grader/`` in it (e.g. ``git archive main | tar -x -C /tmp/main``);
both are run by this Python, which needs the grader's dependencies installed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (name, task file or folder, submissions folder), relative to a checkout.  Student folders
# that only time limits decide (tests/data/timing, the hostile ones) are left out: their
# reports differ from run to run by nature.
BATCHES = (
    ("course", "tasks", "submissions"),
    ("styles", "tasks", "tests/data/styles"),
    ("signatures", "tasks", "tests/data/signatures"),
    ("do-nothing", "tasks", "tests/data/do-nothing"),
    ("evidence", "tasks", "tests/data/evidence"),
    ("forgery", "tasks", "tests/data/forgery"),
    ("helpers", "tests/data/conventions/helpers/tasks.yaml", "tests/data/conventions/helpers"),
    ("multi-agent", "tests/data/conventions/multi-agent/tasks.yaml",
     "tests/data/conventions/multi-agent"),
    ("multi-player", "tests/data/conventions/multi-player/tasks.yaml",
     "tests/data/conventions/multi-player"),
    ("negamax-sign", "tests/data/conventions/negamax-sign/tasks.yaml",
     "tests/data/conventions/negamax-sign"),
    ("random-horizons", "tests/data/random-horizons/tasks.yaml", "tests/data/random-horizons"),
    ("random-multi-agent", "tests/data/random-multi-agent/tasks.yaml",
     "tests/data/random-multi-agent"),
)
# (name, task file or folder, one submission folder): a student's self-check (visible only)
CHECKS = (
    ("check-korrekt", "tasks", "submissions/korrekt"),
    ("check-ohne-alphabeta", "tasks", "submissions/ohne-alphabeta"),
    ("check-strikter-schnitt", "tasks", "submissions/strikter-schnitt"),
)

# Students whose output is the state of their own process (/proc): different on every run.
VOLATILE = {"tests/data/forgery": ("proc-self",)}

TIMING = (
    (re.compile(r'("(?:execution_time|seconds)": )[0-9.eE+-]+'), r"\1#"),
    (re.compile(r': [0-9]+\.[0-9]+ s\b'), ": # s"),
    (re.compile(r'time="[0-9.]+"'), 'time="#"'),
    (re.compile(r'[0-9]+\.[0-9] s\b'), "# s"),
)


def grade(checkout: Path, out: Path, only: tuple = ()) -> None:
    """Every batch and self-check above (``only``: those named), graded by ``checkout``, into
    ``out/<name>``."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    for name, tasks, submissions in BATCHES:
        if only and name not in only:
            continue
        with tempfile.TemporaryDirectory(prefix="same-reports-batch-") as scratch:
            folder = checkout / submissions
            if submissions in VOLATILE:
                folder = Path(scratch) / Path(submissions).name
                shutil.copytree(checkout / submissions, folder,
                                ignore=lambda _, names: [n for n in names
                                                         if n in VOLATILE[submissions]])
            command = [sys.executable, "-m", "grader.cli", "grade", "--tasks",
                       str(checkout / tasks), "--submissions", str(folder), "--out",
                       str(out / name), "--jobs", "2", "--allow-weak-sandbox"]
            subprocess.run(command, cwd=checkout, env=env, check=True, capture_output=True)
    for name, tasks, folder in CHECKS:
        if only and name not in only:
            continue
        command = [sys.executable, "-m", "grader.cli", "check", str(checkout / folder),
                   "--tasks", str(checkout / tasks), "--out", str(out / name)]
        # exit 1 = a visible check failed: expected for the faulty students
        subprocess.run(command, cwd=checkout, env=env, capture_output=True)


def normalised(path: Path) -> bytes:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    for pattern, replacement in TIMING:
        text = pattern.sub(replacement, text)
    return text.encode("utf-8")


def compare(first: Path, second: Path) -> list[str]:
    """Every file that differs, or exists on one side only."""
    def files(root: Path) -> set:
        return {p.relative_to(root) for p in root.rglob("*") if p.is_file()}
    left, right = files(first), files(second)
    differences = [f"only in {first}: {p}" for p in sorted(left - right)]
    differences += [f"only in {second}: {p}" for p in sorted(right - left)]
    for path in sorted(left & right):
        if normalised(first / path) != normalised(second / path):
            differences.append(f"differs: {path}")
    return differences


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("grade")
    one.add_argument("checkout", type=Path)
    one.add_argument("out", type=Path)
    one.add_argument("--only", nargs="+", default=(), help="only these batches")
    two = commands.add_parser("compare")
    two.add_argument("first", type=Path)
    two.add_argument("second", type=Path)
    both = commands.add_parser("both")
    both.add_argument("first", type=Path)
    both.add_argument("second", type=Path)
    both.add_argument("--keep", type=Path, help="keep the reports here")
    args = parser.parse_args()
    if args.command == "grade":
        grade(args.checkout.resolve(), args.out.resolve(), tuple(args.only))
        return 0
    if args.command == "compare":
        differences = compare(args.first, args.second)
    else:
        with tempfile.TemporaryDirectory(prefix="same-reports-") as scratch:
            keep = (args.keep or Path(scratch)).resolve()
            grade(args.first.resolve(), keep / "first")
            grade(args.second.resolve(), keep / "second")
            differences = compare(keep / "first", keep / "second")
    for line in differences:
        print(line)
    print("same reports" if not differences else f"{len(differences)} differences")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
