"""How long reading a course's task files takes: ``import grader.tasks`` and ``load_course`` of
the bundled courses (``tasks/`` and ``courses/vorlesung/tasks/``), each in a fresh interpreter
with the parsed documents already in the cache folder (as a student's second self-check reads
them), medians of alternated runs.  With ``--checkout DIR`` (e.g. ``git worktree add
/tmp/before main``) the same runs of that checkout alternate with this one's, so the cost of
a change (the schema check of every mapping, say) reads as a difference of medians.

    python bench/task_loading.py [--runs 15] [--checkout /tmp/before]

Bytecode is written for both checkouts before the runs (``PYTHONDONTWRITEBYTECODE`` is
removed), so that neither pays for compiling.  Run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COURSES = ("tasks", "courses/vorlesung/tasks")
PROGRAM = """
import sys, time
sys.path.insert(0, {root!r})
start = time.perf_counter()
from grader.tasks import load_course
imported = time.perf_counter()
for course in {courses!r}:
    load_course({root!r} + "/" + course)
print(imported - start, time.perf_counter() - imported)
"""


def one_run(root: Path, cache: str, env: dict) -> tuple[float, float]:
    done = subprocess.run([sys.executable, "-c", PROGRAM.format(root=str(root),
                                                               courses=COURSES)],
                          capture_output=True, text=True, check=True, cwd=root,
                          env={**env, "GRADER_CACHE_DIR": cache})
    imported, loaded = map(float, done.stdout.split())
    return imported, loaded


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--checkout", type=Path, help="another checkout to alternate with")
    args = parser.parse_args(argv)
    env = {key: value for key, value in os.environ.items()
           if key != "PYTHONDONTWRITEBYTECODE"}
    roots = [ROOT] + ([args.checkout.resolve()] if args.checkout else [])
    times: dict[Path, list] = {root: [] for root in roots}
    with tempfile.TemporaryDirectory() as cache:
        for root in roots:
            subprocess.run([sys.executable, "-m", "compileall", "-q", "grader", "reference"],
                           cwd=root, env=env, check=True, stdout=subprocess.DEVNULL)
            one_run(root, cache, env)        # unmeasured: fills the document cache
        for _ in range(args.runs):
            for root in roots:
                times[root].append(one_run(root, cache, env))
    for root, runs in times.items():
        imported = statistics.median(run[0] for run in runs) * 1000
        loaded = statistics.median(run[1] for run in runs) * 1000
        print(f"{root}: import grader.tasks {imported:.1f} ms, load_course of "
              f"{' and '.join(COURSES)} {loaded:.1f} ms (medians of {len(runs)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
