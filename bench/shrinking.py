"""How small the shown counterexamples are, and what shrinking them costs: the grader's
reducer against the Hypothesis-based shrinker it used before, side by side.

    python bench/shrinking.py [--probes 400]

Every catalogue mistake is submitted as a student (as in bench/detection.py: the variant's
code runs in the sandboxed child) and graded twice, once with each shrinker, in alternating
order.  For every random-tree check that fails, it prints the counterexample's size (nodes)
and the time spent shrinking it, then the sums, the number of checks where either side is
smaller, and whether the mistake is still named on its page.

* grader: ``grader.shrinking.shrink``, the greedy reducer on the failing tree;
* hypothesis: Hypothesis's ``find`` over a strategy of small trees (derandomized, no
  database, 150 examples, at most ``--probes`` trees), then the same greedy pass to polish
  its result or, if it found nothing, to reduce the failing tree (the grader's shrinker until
  November 2026).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from hypothesis import HealthCheck, Phase, find, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import grader.grading as grading  # noqa: E402
import grader.shrinking as shrinking  # noqa: E402
from detection import courses  # noqa: E402
from grader.grading import grade_submission, prepare  # noqa: E402
from grader.sandbox.run import budget_of  # noqa: E402
from grader.sandbox.staging import stage_runner  # noqa: E402
from reference.variants import MISTAKES_OF  # noqa: E402
from test_mistakes import (EXTRA_TURNS, MULTI_PLAYER, NEEDS_STRICT_PRUNING,  # noqa: E402
                           write_mistaken_student)

VALUES = st.one_of(st.integers(-4, 4), st.integers(-10**9, 10**9))


@st.composite
def small_trees(draw, players=None):
    """Trees of at most four plies and three children per node, shrinking towards leaves,
    fewer children and small values."""
    nodes: dict[str, dict] = {}

    def build(name: str, level: int) -> None:
        if not (level == 0 or (level < 4 and draw(st.booleans()))):
            nodes[name] = {"value": draw(VALUES)}
            if players is not None and draw(st.booleans()):
                nodes[name]["outcome"] = "lose"
            return
        children = [f"{name}{'.' if name[-1].isdigit() else ''}{i}"
                    for i in range(1, draw(st.integers(1, 3)) + 1)]
        nodes[name] = {"children": children, "eval": draw(VALUES)}
        for child in children:
            build(child, level + 1)

    build("A", 0)
    tree = {"kind": "tree", "root": "A", "nodes": nodes}
    return {**tree, "players": list(players)} if players is not None else tree


class _Spent(Exception):
    pass


def hypothesis_shrink(failing, disagrees, probes=400, seconds=60.0):
    deadline, count = time.monotonic() + seconds, 0

    def condition(tree):
        nonlocal count
        count += 1
        if count > probes or time.monotonic() > deadline:
            raise _Spent
        return disagrees(tree)

    try:
        found = find(small_trees(players=failing.get("players")), condition, settings=settings(
            database=None, derandomize=True, max_examples=150, deadline=None,
            phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck)))
    except Exception:  # noqa: BLE001 - nothing found, budget spent, or a flaky search
        found = None
    reduced = shrinking._greedy(found if found is not None else failing, disagrees, probes,
                                deadline)
    tidy = shrinking.renamed(reduced)
    return tidy if disagrees(tidy) else reduced


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--probes", type=int, default=400)
    args = parser.parse_args()
    grader_shrink = shrinking.shrink
    shrinkers = {"grader": grader_shrink, "hypothesis": hypothesis_shrink}
    measured: list = []
    original = grading.shrink_counterexample

    def timed(verdict, plan, run, answers):
        started = time.perf_counter()
        result = original(verdict, plan, run, answers)
        if result is not verdict:
            measured.append((verdict.check.id, result.facts["example"]["nodes"],
                             time.perf_counter() - started))
        return result

    grading.shrink_counterexample = timed
    bundled, multi, strict, _ = courses()
    prepared = {id(c): (prepare(c), budget_of(c)) for c in (bundled, multi, strict)}
    # (the mistakes that need extra turns show on the Kalah course, which has no random trees)
    # (and max^n's on the three-player course: neither has random trees)
    cases = [(f, m) for f, mistakes in MISTAKES_OF.items() for m in mistakes
             if m not in EXTRA_TURNS and f not in ("maxn", "alphabeta_tt", "negascout", "mtdf")]
    rows = []
    print(f"{'mistake':42} {'grader':>22} {'hypothesis':>22}")
    with tempfile.TemporaryDirectory() as tmp:
        child = stage_runner(Path(tmp) / "runner")
        for number, (function, mistake) in enumerate(cases):
            folder = Path(tmp) / f"{function}-{mistake}"
            write_mistaken_student(folder, function, mistake)
            course = multi if mistake in MULTI_PLAYER else (
                strict if mistake in NEEDS_STRICT_PRUNING else bundled)
            (plan, answers), budget = prepared[id(course)]
            seen = {}
            order = list(shrinkers) if number % 2 == 0 else list(reversed(shrinkers))
            for name in order:
                limit = args.probes
                shrinking.shrink = (lambda shrinker: lambda failing, disagrees: shrinker(
                    failing, disagrees, limit))(shrinkers[name])
                measured.clear()
                result = grade_submission(plan, answers, child, folder, budget)
                named = any(mistake in (v.facts.get("diagnosis") or ())
                            for v in result.verdicts if not v.passed)
                seen[name] = (list(measured), named)
            if not seen["grader"][0] and not seen["hypothesis"][0]:
                continue
            cells = []
            for name in shrinkers:
                checks, named = seen[name]
                cells.append(f"{[n for _, n, _ in checks]!s:>12} {sum(s for *_, s in checks):6.2f}s"
                             + ("" if named else " (not named)"))
            print(f"{function + ' ' + mistake:42} {cells[0]:>22} {cells[1]:>22}", flush=True)
            rows.append(seen)
    shrinking.shrink = grader_shrink
    pairs = [(g, h) for row in rows for g, h in zip(row["grader"][0], row["hypothesis"][0])]
    nodes = {name: sum(n for _, n, _ in (c for row in rows for c in row[name][0]))
             for name in shrinkers}
    seconds = {name: sum(s for *_, s in (c for row in rows for c in row[name][0]))
               for name in shrinkers}
    ratios = [h[2] / g[2] for g, h in pairs if g[2] > 0]
    print(f"\n{len(pairs)} shrunk checks of {len(rows)} mistakes, at most {args.probes} trees each")
    for name in shrinkers:
        print(f"  {name:11} nodes in all {nodes[name]:4d}, shrinking {seconds[name]:6.2f} s, "
              f"not named {sum(not row[name][1] for row in rows)}")
    print(f"  smaller with grader: {sum(g[1] < h[1] for g, h in pairs)}, with hypothesis: "
          f"{sum(h[1] < g[1] for g, h in pairs)}, same size: {sum(g[1] == h[1] for g, h in pairs)}")
    print(f"  time hypothesis/grader per check: median {statistics.median(ratios):.1f}x, "
          f"in all {seconds['hypothesis'] / seconds['grader']:.1f}x")


if __name__ == "__main__":
    main()
