"""What a self-check kit costs and how good its counterexamples are, side by side with the
full grader, on the bundled course.

    python bench/kit.py [--runs 7]

* the kit: the time ``grader kit`` takes and the size of each file;
* a self-check's wall time, ``grader check --kit`` against ``grader check --tasks`` (warm
  answer cache) on ``submissions/korrekt``, alternating, a fresh interpreter each run;
* the counterexamples: every catalogue mistake of minimax, alpha-beta and negamax submitted
  as a student (the variant's code runs in the sandboxed child, as in bench/detection.py) and
  graded three ways: the grader (shrunk with the reference), the kit (the smallest of its
  small trees that fails the same way), and the kit without its small trees (the check's own
  smallest failing tree).  Printed: nodes per failing random-tree check, and whether the
  same mistakes are named.
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
sys.path.insert(0, str(ROOT / "tests"))

from grader.answers.book import AnswerBook  # noqa: E402
from grader.kit import KitAnswers, build_kit, load_kit  # noqa: E402
from grader.sandbox.levels import best_level  # noqa: E402
from grader.single import grade_folder  # noqa: E402
from grader.tasks import load_course  # noqa: E402
from reference.variants import MISTAKES_OF  # noqa: E402
from test_mistakes import (EXTRA_TURNS, MULTI_PLAYER, NEEDS_STRICT_PRUNING,  # noqa: E402
                           write_mistaken_student)


def timed_checks(kit: Path, runs: int) -> dict:
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    commands = {
        "check --kit": ["--kit", str(kit)],
        "check --tasks": ["--tasks", str(ROOT / "tasks")],
    }
    times: dict = {name: [] for name in commands}
    with tempfile.TemporaryDirectory() as out:
        for round_number in range(runs + 1):
            for name, options in commands.items():
                started = time.perf_counter()
                subprocess.run([sys.executable, "-m", "grader.cli", "check",
                                str(ROOT / "submissions" / "korrekt"), *options, "--out", out],
                               env=environment, capture_output=True, check=True)
                if round_number:          # the first round warms caches and bytecode
                    times[name].append(time.perf_counter() - started)
    return times


def random_tree_examples(result) -> dict:
    return {v.check.id: v.facts["example"]["nodes"] for v in result.verdicts
            if v.check.kind == "random-trees" and not v.passed and "example" in v.facts}


def named(result) -> set:
    return {(v.check.id, tuple(v.facts.get("diagnosis", ()))) for v in result.verdicts
            if not v.passed}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    course = load_course(ROOT / "tasks")
    level = best_level()
    with tempfile.TemporaryDirectory() as tmp:
        kit_folder = Path(tmp) / "kit"
        started = time.perf_counter()
        build_kit(course, AnswerBook(), kit_folder)
        print(f"grader kit (answers computed afresh): {time.perf_counter() - started:.1f} s")
        for path in sorted(kit_folder.iterdir()):
            print(f"  {path.name:40} {path.stat().st_size / 1e6:6.2f} MB")
        started = time.perf_counter()
        kit = load_kit(kit_folder)
        print(f"loading kit.json: {time.perf_counter() - started:.3f} s")

        times = timed_checks(kit_folder, args.runs)
        base = statistics.median(times["check --tasks"])
        for name, values in times.items():
            median = statistics.median(values)
            print(f"{name:15} median {median:.3f} s over {len(values)} runs "
                  f"({median / base:.2f}x check --tasks)")

        full = AnswerBook.for_course(course)
        without_small = KitAnswers(kit.answers._seal, kit.answers._answers,
                                   kit.answers._mistakes, small={}, folder=kit_folder)
        totals = {"grader": 0, "kit": 0, "kit without small trees": 0}
        same_names = checks = cases = 0
        print(f"\n{'mistake':40} {'grader':>7} {'kit':>5} {'own':>5}")
        for function, mistakes in MISTAKES_OF.items():
            if function in ("expectimax", "maxn", "alphabeta_tt", "negascout", "mtdf"):
                # no random trees for them here
                continue
            for mistake in mistakes:
                if mistake in MULTI_PLAYER or mistake in NEEDS_STRICT_PRUNING \
                        or mistake in EXTRA_TURNS:
                    continue
                student = Path(tmp) / f"{function}-{mistake}"
                write_mistaken_student(student, function, mistake)
                graded = grade_folder(course, student, level, only_visible=True, answers=full)
                by_kit = grade_folder(kit.course, student, level, answers=kit.answers)
                own = grade_folder(kit.course, student, level, answers=without_small)
                cases += 1
                same_names += named(graded) == named(by_kit)
                sizes = [random_tree_examples(r) for r in (graded, by_kit, own)]
                for check_id in sizes[0]:
                    checks += 1
                    row = [sizes[0][check_id], sizes[1].get(check_id), sizes[2].get(check_id)]
                    for name, nodes in zip(totals, row):
                        totals[name] += nodes or 0
                    print(f"{function + ' ' + mistake:40} {row[0]:>7} {row[1]:>5} {row[2]:>5}")
        print(f"\n{checks} failing random-tree checks of {cases} mistakes; nodes in all: "
              + ", ".join(f"{name} {total}" for name, total in totals.items()))
        print(f"same checks failed with the same mistakes named: {same_names} of {cases}")


if __name__ == "__main__":
    main()
