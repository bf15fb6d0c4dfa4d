"""Per-child start overhead of the three isolation levels, side by side (the levels alternate
within each round, so load on the machine hits them alike), and the one-off cost of building
the container level's runtime template.

    python bench/container_overhead.py [--runs 15] [--packages numpy ...]

startup: start a child, import submissions/korrekt's module, stop it (root removed, uid
given back): the fixed cost a submission pays at each level, and again after every timeout.
Needs root for the container level and working namespaces for bubblewrap; a level that does
not work here is left out and said so.  ``--packages``: as for a course that provides those
third-party packages (installed beside the grader), whose files every child then sees.
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

from grader.sandbox.packages import Provision, problem_with, provision  # noqa: E402
from grader.sandbox import container  # noqa: E402
from grader.sandbox.base import LEVELS, ResourceLimits, base_python
from grader.sandbox.bubblewrap import bubblewrap_works
from grader.sandbox.levels import container_problem
from grader.sandbox.launcher import Child
from grader.sandbox.staging import stage_runner  # noqa: E402


def startup(script: Path, level: str, packages: Provision) -> float:
    with tempfile.TemporaryDirectory() as scratch:
        started = time.perf_counter()
        child = Child(script, ROOT / "submissions/korrekt", Path(scratch), level,
                      ResourceLimits(), packages)
        reply = json.loads(child.request({"op": "load", "module": "minimax"}, 10))
        child.stop()
        assert reply["status"] == "ok", (reply, child.output())
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--packages", nargs="*", default=[])
    args = parser.parse_args()
    for name in args.packages:
        if problem_with(name):
            parser.error(problem_with(name))
    packages = provision(tuple(args.packages))
    script = stage_runner(Path(tempfile.mkdtemp()))
    levels = []
    for level in LEVELS:
        if level == "bubblewrap" and not bubblewrap_works():
            print("bubblewrap: not available here, left out")
        elif level == "container" and container_problem() is not None:
            print(f"container: left out ({container_problem()})")
        else:
            levels.append(level)
    if "container" in levels:
        # container_problem's probe built a template already; time a fresh build.
        started = time.perf_counter()
        template = container._build_template(base_python(), container.workspace(), packages)
        built = time.perf_counter() - started
        files = sum(1 for _ in template.rglob("*"))
        print(f"template build (one-off per batch): {built * 1000:.0f} ms, {files} entries")
    times = {level: [] for level in levels}
    for _ in range(args.runs):
        for level in levels:
            times[level].append(startup(script, level, packages))
    base = statistics.median(times["process"])
    for level in levels:
        median = statistics.median(times[level])
        print(f"startup {level:10s} median {median * 1000:7.1f} ms  "
              f"(min {min(times[level]) * 1000:6.1f}, max {max(times[level]) * 1000:6.1f})  "
              f"over process {1000 * (median - base):+6.1f} ms, median of {args.runs}")
    if "container" in levels:
        # The part of the container start that is the per-child root alone.
        durations = []
        for _ in range(args.runs):
            started = time.perf_counter()
            root = container.ChildRoot(base_python(), script.parent.parent.parent,
                                    ROOT / "submissions/korrekt", container.UID_BASE + 200_000,
                                    packages)
            root.remove()
            durations.append(time.perf_counter() - started)
        print(f"  of which the per-child root (make + remove): median "
              f"{statistics.median(durations) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
