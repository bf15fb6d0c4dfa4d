"""Detection and diagnosis figures for the catalogue of mistakes, against a baseline in the
style of the Pacman project's autograder, plus the time the random-tree checks add.

    python bench/detection.py [--runs 5]

* ours: every catalogue mistake is submitted as a student (the variant's code, copied into a
  submission folder, runs in the child like any student code) and graded with the bundled
  course (the multi-player course for the two mistakes that need several MIN players or
  chance nodes; the strict-pruning variant of the course for equality-cut; the Kalah course
  for negate-every-ply, which needs extra turns): caught when it
  loses points, named when a failed check names it, and how many other mistakes are named
  beside it (0: named uniquely).
* baseline: the same variants on 30 fixed random trees with values from -9 to 1000
  (branching 2-3, depth 2-4), compared with the reference only by the root action and the set
  of generated (visited) states, as that autograder does.
* hand-written students: the faulty and textbook-signature students of the tests, named as
  the source evidence and the signature fitting let them be.
* correct styles: every folder of tests/data/styles plus submissions/korrekt, graded with all
  checks: the share marked wrong anywhere.
* time: grading submissions/korrekt with and without the random-tree checks, side by side,
  median of --runs runs each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from grader.batch import budget_of, prepare  # noqa: E402
from grader.games import make_game  # noqa: E402
from grader.grading import grade_submission  # noqa: E402
from grader.sandbox.staging import stage_runner  # noqa: E402
from grader.tasks import load_course  # noqa: E402
from reference.search import SEARCHES  # noqa: E402
from reference.variants import MISTAKES_OF, run  # noqa: E402
from test_mistakes import (EXTRA_TURNS, MULTI_PLAYER, NEEDS_STRICT_PRUNING,  # noqa: E402
                           TRANSPOSITION_COURSE, TRANSPOSITION_FUNCTIONS,
                           write_mistaken_student)


def baseline_trees(count=30, seed=188):
    rng = random.Random(seed)
    trees = []
    for _ in range(count):
        depth, nodes = rng.randint(2, 4), {}

        def build(name, level):
            if level == depth:
                nodes[name] = {"value": rng.randint(-9, 1000)}
                return
            children = [f"{name}{'.' if name[-1].isdigit() else ''}{i}"
                        for i in range(1, rng.randint(2, 3) + 1)]
            nodes[name] = {"children": children}
            for child in children:
                build(child, level + 1)
        build("A", 0)
        trees.append({"kind": "tree", "root": "A", "nodes": nodes})
    return trees


def baseline_detects(function, mistake, trees):
    search = SEARCHES[function]
    for spec in trees:
        game, root = make_game(spec)
        _, action = search(game, root)
        expected = set(game.visit_log()["visits"])
        game, root = make_game(spec)
        try:
            _, observed_action = run(mistake, function, game, root)
        except Exception:
            return True
        if observed_action != action or set(game.visit_log()["visits"]) != expected:
            return True
    return False


def courses():
    bundled = load_course(ROOT / "tasks")
    multi = load_course(ROOT / "tests/data/conventions/multi-player/tasks.yaml")
    folder = Path(tempfile.mkdtemp())
    text = (ROOT / "tasks/blatt3.yaml").read_text()
    (folder / "blatt3.yaml").write_text(text.replace("prune_on_equality: true",
                                                     "prune_on_equality: false"))
    return bundled, multi, load_course(folder), load_course(ROOT / "courses/kalah/tasks")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    bundled, multi, strict, kalah = courses()
    three_player = load_course(ROOT / "courses" / "three-player" / "tasks")
    transposition = load_course(TRANSPOSITION_COURSE)
    prepared = {id(c): prepare(c) for c in (bundled, multi, strict, kalah, three_player,
                                             transposition)}
    stage = tempfile.mkdtemp()
    child = stage_runner(Path(stage))
    trees = baseline_trees()
    rows = []
    for function, mistakes in MISTAKES_OF.items():
        for mistake in mistakes:
            course = three_player if function == "maxn" else multi if mistake in MULTI_PLAYER else (
                strict if mistake in NEEDS_STRICT_PRUNING else (
                    kalah if mistake in EXTRA_TURNS else bundled))
            if function in TRANSPOSITION_FUNCTIONS:
                course = transposition
            plan, answers = prepared[id(course)]
            folder = Path(tempfile.mkdtemp()) / mistake
            write_mistaken_student(folder, function, mistake)
            result = grade_submission(plan, answers, child, folder, budget_of(course))
            failed = [v for v in result.verdicts if not v.passed]
            named = {m for v in failed for m in (v.facts.get("diagnosis") or ())}
            base = baseline_detects(function, mistake, trees)
            rows.append((function, mistake, result.score < result.max_score, mistake in named,
                         len(named - {mistake}), base))
    print(f"{'function':10s} {'mistake':22s} ours: caught named others | baseline: caught")
    for function, mistake, caught, named, others, base in rows:
        print(f"{function:10s} {mistake:22s} {'yes' if caught else 'NO':>12s} "
              f"{'yes' if named else 'NO':>5s} {others:6d} | "
              f"{'yes' if base else 'no':>14s}")
    total = len(rows)
    print(f"\nours: caught {sum(r[2] for r in rows)}/{total}, named {sum(r[3] for r in rows)}/"
          f"{total}, named uniquely {sum(r[3] and not r[4] for r in rows)}/{total} "
          f"(others named beside it: {sum(r[4] for r in rows)} in all); "
          f"baseline caught {sum(r[5] for r in rows)}/{total}")

    # The catalogue's students carry every variant's code (one file for all), so their source
    # rules nothing out; hand-written students show what the source evidence adds.
    plan, answers = prepared[id(bundled)]
    print("\nhand-written students (tests/data/evidence, tests/data/signatures): named")
    for folder in sorted([*(ROOT / "tests/data/evidence").iterdir(),
                          *(ROOT / "tests/data/signatures").iterdir()]):
        if not (folder / "evaluation.py").exists():
            continue
        result = grade_submission(plan, answers, child, folder, budget_of(bundled))
        failed = [v for v in result.verdicts if not v.passed]
        named = sorted({m for v in failed for m in (v.facts.get("diagnosis") or ())})
        signature = next((v.facts["signature"] for v in failed if "signature" in v.facts), None)
        said = ", ".join(named) or ("signature differs" if signature else "nothing")
        name = f"{folder.parent.name}/{folder.name}"
        print(f"  {name:24s} {result.score:g}/{result.max_score:g}: {said}")

    styles = sorted(p for p in (ROOT / "tests/data/styles").iterdir() if p.is_dir())
    styles.append(ROOT / "submissions/korrekt")
    wrong = [s.name for s in styles
             if any(not v.passed for v in grade_submission(plan, answers, child, s,
                                                           budget_of(bundled)).verdicts)]
    print(f"correct styles marked wrong: {len(wrong)}/{len(styles)} {wrong}")

    without = replace(bundled, tasks=tuple(
        replace(t, checks=tuple(c for c in t.checks if c.kind != "random-trees"))
        for t in bundled.tasks if any(c.kind != "random-trees" for c in t.checks)))
    plans = {"with random trees": prepare(bundled), "without": prepare(without)}
    timings = {name: [] for name in plans}
    for _ in range(args.runs):
        for name, (plan, answers) in plans.items():
            started = time.perf_counter()
            grade_submission(plan, answers, child, ROOT / "submissions/korrekt", 60)
            timings[name].append(time.perf_counter() - started)
    medians = {name: statistics.median(values) for name, values in timings.items()}
    print(f"korrekt, median of {args.runs}: with random trees {medians['with random trees']:.3f} s, "
          f"without {medians['without']:.3f} s: the random-tree checks add "
          f"{medians['with random trees'] - medians['without']:.3f} s "
          f"({medians['with random trees'] / medians['without']:.2f}x)")
    strikt = ROOT / "submissions/strikter-schnitt"
    started = time.perf_counter()
    grade_submission(*plans["with random trees"], child, strikt, 60)
    print(f"strikter-schnitt (two failing random-tree checks, shrunk): "
          f"{time.perf_counter() - started:.3f} s")


if __name__ == "__main__":
    main()
