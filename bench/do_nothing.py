"""Scores of submissions that do no search, answer a constant or answer in the wrong shape
(tests/data/do-nothing), and of the correct example for contrast, on the bundled course: with
this checkout's grader and, side by side, with another checkout's (an older commit in a git
worktree) on that checkout's own bundled course.

    git worktree add /tmp/before <commit>
    python bench/do_nothing.py [--checkout /tmp/before]

Prints one row per submission: its score with each grader, out of each course's maximum.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "data" / "do-nothing"


def scores(checkout: Path) -> tuple[dict, float]:
    """Grade the fixtures and the correct example with the grader and course of ``checkout``."""
    with tempfile.TemporaryDirectory() as folder:
        submissions, out = Path(folder) / "submissions", Path(folder) / "out"
        shutil.copytree(FIXTURES, submissions)
        shutil.copytree(ROOT / "submissions" / "korrekt", submissions / "korrekt")
        subprocess.run([sys.executable, "-m", "grader.cli", "grade", "--tasks",
                        str(checkout / "tasks"), "--submissions", str(submissions), "--out",
                        str(out), "--allow-weak-sandbox"], cwd=checkout, check=True,
                       capture_output=True)
        maximum = 0.0
        found = {}
        for results in out.glob("*/results.json"):
            data = json.loads(results.read_text())
            found[results.parent.name] = data["score"]
            maximum = data["extra_data"]["max_score"]
        return found, maximum


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", type=Path, help="another checkout to compare with")
    args = parser.parse_args()
    columns = []
    if args.checkout:
        columns.append(("before", *scores(args.checkout.resolve())))
    columns.append(("now", *scores(ROOT)))
    names = sorted(columns[-1][1])
    width = max(len(name) for name in names)
    print(f"{'submission':<{width}}  " + "  ".join(f"{label:>10}" for label, _, _ in columns))
    for name in names:
        cells = []
        for _, found, maximum in columns:
            score = found.get(name)
            cells.append(f"{'-' if score is None else f'{score:g}/{maximum:g}':>10}")
        print(f"{name:<{width}}  " + "  ".join(cells))
    for label, found, maximum in columns:
        nothing = [score for name, score in found.items() if name != "korrekt"]
        print(f"{label}: {sum(s > 0 for s in nothing)} of {len(nothing)} do-nothing "
              f"submissions score points, {sum(nothing):g} points in all")


if __name__ == "__main__":
    main()
