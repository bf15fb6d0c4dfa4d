"""What a student's first run of a kit's check.py costs: the run that finds no grader, makes
the kit's virtual environment in the cache folder and pip installs the kit's wheel with its
dependencies into it, then checks.  Side by side with the kit of another checkout's grader
(e.g. the commit before a change to check.py).

    python bench/kit_first_run.py --checkout /tmp/before [--runs 5]

A checkout without touching the repository's worktrees: ``git clone -q REPO /tmp/before &&
git -C /tmp/before checkout -q COMMIT``.  Each grader writes its kit of the bundled course
once (``python -m grader.cli kit`` in the checkout's folder); then, alternating round by
round, the Python this venv was made from (no grader in it, as a student's) runs each kit's
check.py on submissions/korrekt with an empty cache folder: its wall seconds and CPU
seconds (check.py and every process it waited for: venv, pip, the grader, the sandboxed
children).  pip reads the dependencies from the package index that pip is configured with
here, so the figures hold for a warm index, not for a student's download.

Printed: medians, and this checkout's over the other's; and the second run's (the
environment made) once per grader.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def plain_python() -> Path:
    """The interpreter this venv was made from: a Python without the grader."""
    return Path(sys.base_prefix) / "bin" / "python3"


def first_run(kit: Path, cache: Path, out: Path) -> tuple[float, float]:
    """check.py of ``kit`` with the cache folder ``cache``: wall and CPU seconds."""
    environment = {**os.environ, "GRADER_CACHE_DIR": str(cache)}
    for name in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE"):
        environment.pop(name, None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([str(plain_python()), str(kit / "check.py"),
                           str(ROOT / "submissions" / "korrekt"), "--out", str(out),
                           "--lang", "en"], cwd=out.parent, env=environment,
                          capture_output=True, text=True, timeout=900)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"check.py of {kit} exited {done.returncode}:\n"
                         f"{done.stdout}{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    graders = {"this": ROOT, "other": args.checkout.resolve()}
    with tempfile.TemporaryDirectory(prefix="kit-first-run-") as scratch:
        scratch = Path(scratch)
        kits = {}
        for name, folder in graders.items():
            kits[name] = scratch / f"{name}-kit"
            subprocess.run([sys.executable, "-m", "grader.cli", "kit", "--tasks",
                            str(ROOT / "tasks"), "--out", str(kits[name])], cwd=folder,
                           check=True, capture_output=True)
        times: dict = {name: ([], []) for name in graders}
        second: dict = {}
        for _ in range(args.runs):
            for name in graders:
                cache = scratch / "cache"
                shutil.rmtree(cache, ignore_errors=True)
                wall, cpu = first_run(kits[name], cache, scratch / "out")
                times[name][0].append(wall)
                times[name][1].append(cpu)
                if name not in second:
                    second[name] = first_run(kits[name], cache, scratch / "out")
        print(f"a student's first run of check.py ({args.runs} alternated runs, medians; "
              f"load average {os.getloadavg()[0]:.1f})")
        medians = {name: [statistics.median(series) for series in times[name]]
                   for name in graders}
        for index, what in enumerate(("wall", "CPU")):
            print(f"  {what:4} this {medians['this'][index]:5.1f} s, other "
                  f"{medians['other'][index]:5.1f} s "
                  f"({medians['this'][index] / medians['other'][index]:.2f}x)")
        print("  the second run (the environment made): " + ", ".join(
            f"{name} wall {wall:.1f} s, CPU {cpu:.1f} s" for name, (wall, cpu) in second.items()))


if __name__ == "__main__":
    main()
