"""A realistic class graded in one batch: wall time, core-seconds per submission and the
parent's peak memory.

    python bench/class_of_1000.py [--students 1000] [--jobs 2] [--sandbox auto] [--seed 1]
                                  [--checkout DIR]

The class is built from the example students and the mistake catalogue, shuffled with the
seed: about 70 % correct (submissions/korrekt and the correct textbook styles of
tests/data/styles), 20 % with one catalogue mistake (the catalogue's own variant as the
student's code, as in tests/test_mistakes.py), 5 % hanging (submissions/endlosschleife) and
5 % broken (submissions/syntaxfehler, or an empty folder).  It is graded by `grader grade` on
the bundled course.  Core-seconds are counted twice: by `rusage` (a lower bound: sandboxed
processes killed inside their PID namespace are missed) and by the cores' busy time in
/proc/stat (everything, other load on the machine included: use a quiet one); the peak memory is the grader process's own (its maximum resident set size, read
from /proc while it runs).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from reference.variants import MISTAKES_OF  # noqa: E402
from test_mistakes import (EXTRA_TURNS, MULTI_PLAYER, NEEDS_STRICT_PRUNING,  # noqa: E402
                           write_mistaken_student)

SHARES = (("correct", 0.70), ("mistake", 0.20), ("hanging", 0.05), ("broken", 0.05))


def build_class(folder: Path, students: int, seed: int) -> tuple[dict, dict]:
    rng = random.Random(seed)
    correct = [ROOT / "submissions" / "korrekt"] + sorted(
        p for p in (ROOT / "tests" / "data" / "styles").iterdir() if p.is_dir())
    mistakes = [(function, mistake) for function, names in MISTAKES_OF.items()
                if function in ("minimax", "alphabeta", "negamax") for mistake in names
                if mistake not in MULTI_PLAYER and mistake not in NEEDS_STRICT_PRUNING
                and mistake not in EXTRA_TURNS and mistake != "chance-as-min"]
    kinds = []
    for kind, share in SHARES:
        kinds += [kind] * round(share * students)
    kinds = (kinds + ["correct"] * students)[:students]
    rng.shuffle(kinds)
    counts: dict = {}
    kind_of: dict = {}
    for index, kind in enumerate(kinds):
        target = folder / f"student-{index:04d}"
        counts[kind] = counts.get(kind, 0) + 1
        kind_of[target.name] = kind
        if kind == "correct":
            shutil.copytree(rng.choice(correct), target)
        elif kind == "mistake":
            write_mistaken_student(target, *rng.choice(mistakes))
        elif kind == "hanging":
            shutil.copytree(ROOT / "submissions" / "endlosschleife", target)
        elif rng.random() < 0.5:
            shutil.copytree(ROOT / "submissions" / "syntaxfehler", target)
        else:
            target.mkdir()   # handed in nothing
    return counts, kind_of


def machine_busy() -> float:
    """Seconds all cores spent busy since boot (/proc/stat: all but idle and iowait)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    user, nice, system, idle, iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def peak_rss_of(pid: int, stop: threading.Event, found: list) -> None:
    """The process's peak resident set size (VmHWM), sampled until it exits."""
    while not stop.is_set():
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    found[0] = max(found[0], int(line.split()[1]) * 1024)
        except OSError:
            return
        time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sandbox", default="auto")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checkout", type=Path, help="another checkout (e.g. a git worktree "
                        "of an older commit) that grades the same class after this one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-class-") as scratch:
        scratch = Path(scratch)
        counts, kind_of = build_class(scratch / "class", args.students, args.seed)
        print(f"class of {args.students} (seed {args.seed}): "
              + ", ".join(f"{counts.get(kind, 0)} {kind}" for kind, _ in SHARES))
        graders = [("this checkout", ROOT)]
        if args.checkout is not None:
            graders.append((f"--checkout {args.checkout}", args.checkout.resolve()))
        for name, folder in graders:
            report(name, grade_once(folder, scratch, scratch / f"out-{len(name)}", args),
                   kind_of, args)


def grade_once(folder: Path, scratch: Path, out: Path, args) -> tuple:
    """Grade the class with the grader of ``folder``: (status, wall, cores' busy seconds,
    rusage CPU seconds, the batch process's peak RSS, grading seconds per result folder)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy = machine_busy()
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "grader.cli", "grade", "--tasks", str(ROOT / "tasks"),
         "--submissions", str(scratch / "class"), "--out", str(out),
         "--jobs", str(args.jobs), "--sandbox", args.sandbox, "--allow-weak-sandbox"],
        cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    stop, peak = threading.Event(), [0]
    watcher = threading.Thread(target=peak_rss_of, args=(process.pid, stop, peak))
    watcher.start()
    status = process.wait()
    stop.set()
    watcher.join()
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy = machine_busy() - busy
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    seconds = {results.parent.name: json.loads(results.read_text())["execution_time"]
               for results in out.glob("*/results.json")}
    return status, wall, busy, cpu, peak[0], seconds


def report(name: str, measured: tuple, kind_of: dict, args) -> None:
    status, wall, busy, cpu, peak, by_student = measured
    seconds: dict = {}
    for student, value in by_student.items():
        seconds.setdefault(kind_of.get(student, "?"), []).append(value)
    print(f"{name}: grader grade --jobs {args.jobs} --sandbox {args.sandbox}: exit {status}, "
          f"{len(by_student)} results, wall {wall:.1f} s ({wall / 60:.2f} min), "
          f"core-seconds per submission {busy / args.students:.3f} (machine) / "
          f"{cpu / args.students:.3f} (rusage), "
          f"parent peak {peak / 2**20:.0f} MB")
    total = sum(sum(times) for times in seconds.values()) or 1.0
    print("  grading time per submission (results.json execution_time, in its worker):")
    for kind, _ in SHARES:
        times = seconds.get(kind, [])
        if times:
            print(f"    {kind:8s} median {statistics.median(times):.2f} s, "
                  f"{sum(times) / total:.0%} of all grading time")

if __name__ == "__main__":
    main()
