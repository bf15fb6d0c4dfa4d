"""How long the README's test line (`pytest`) takes: the whole suite's wall time and the CPU time
of everything it ran (its workers, the graders they start and the sandboxed children, as far
as each was waited for), and its slowest tests.

    python bench/suite_time.py                 # as the README runs it: every core (-n auto)
    python bench/suite_time.py --workers 0     # serially, for comparison (about 20 minutes)
    python bench/suite_time.py --cpu 25        # and the 25 files and tests of most CPU time

The CPU time divided by the cores is the least wall time the suite can take on an idle
machine with that many cores; on a shared machine the wall time is longer, so quote both.
Two CPU figures: rusage (what the processes the run waited for used) and, where a cgroup can
be made for the run (root, as on CI), the whole process tree's, sandboxed children included:
rusage misses those that die in their PID namespace or with their cgroup (on
tests/test_hostile.py 0.8 against 1.1 CPU-minutes).
One run of the suite takes minutes, so this script runs it once per call: alternate calls
(`--workers 2`, `--workers 0`, ...) for medians.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="auto",
                        help="pytest-xdist's -n: auto (the default, as in pyproject.toml), "
                             "a number, or 0 for a serial run")
    parser.add_argument("--slowest", type=int, default=15,
                        help="how many of the slowest test phases to print (default 15)")
    parser.add_argument("--log", type=Path,
                        help="also write pytest's whole output (failures with tracebacks) here")
    parser.add_argument("--cpu", type=int, default=0, metavar="N",
                        help="also print the N test files and the N tests that took the most "
                             "CPU time, their own and their children's (bench/cpu_per_test.py)")
    parser.add_argument("pytest_args", nargs="*",
                        help="further arguments for pytest (e.g. a test file)")
    options = parser.parse_args()
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "-n", options.workers, f"--durations={options.slowest}", *options.pytest_args]
    environment = dict(os.environ)
    per_test = tempfile.TemporaryDirectory(prefix="suite-cpu-")
    if options.cpu:
        command[3:3] = ["-p", "cpu_per_test"]
        environment["PYTHONPATH"] = os.pathsep.join(
            [str(ROOT / "bench"), *filter(None, [environment.get("PYTHONPATH")])])
        environment["SUITE_CPU_DIR"] = per_test.name
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done, tree = run_metered(command, environment)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if options.log:
        options.log.write_text(done.stdout + done.stderr)
    lines = done.stdout.splitlines()
    slowest = next((i for i, line in enumerate(lines) if "slowest" in line), None)
    if slowest is not None:
        print("\n".join(lines[slowest:slowest + options.slowest + 1]))
    print("\n".join(line for line in lines if line.startswith(("FAILED", "ERROR"))))
    print(lines[-1] if lines else done.stderr)
    if options.cpu:
        print_cpu(Path(per_test.name), options.cpu)
    per_test.cleanup()
    cores = os.cpu_count() or 1
    print(f"workers {options.workers}: wall {wall / 60:.1f} min, CPU {cpu / 60:.1f} min "
          f"by rusage (at least {cpu / 60 / cores:.1f} min of wall time on {cores} idle "
          f"cores); the machine's load average at the end {os.getloadavg()[0]:.1f}")
    if tree is not None:
        seconds, kind = tree
        print(f"CPU of the whole process tree, sandboxed children included ({kind}): "
              f"{seconds / 60:.1f} min (at least {seconds / 60 / cores:.1f} min of wall time "
              f"on {cores} idle cores)")
    return done.returncode


def run_metered(command: list, environment: dict):
    """``(completed pytest, (core-seconds, how counted) or None)``.  rusage counts only the
    processes someone waited for: a sandboxed child that dies in its PID namespace or is
    killed with its cgroup is never reported to the pytest worker, so the rusage figure
    above misses part of what the sandboxed runs cost.  Where ``bench/floor.py``'s meter can
    make a cgroup for the run (and a mount namespace in which the children's own cgroups are
    made inside it), its figure counts every process of the run; elsewhere it is left out."""
    sys.path.insert(0, str(ROOT / "bench"))
    from floor import CpuMeter
    meter = CpuMeter()
    if meter.base is None or not meter.nest:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                              env=environment)
        return done, None
    with tempfile.TemporaryDirectory(prefix="suite-run-") as folder:
        status, out, err = (Path(folder) / name for name in ("status", "out", "err"))
        # the meter's run must end well: pytest runs under a wrapper that keeps its status
        wrapper = ("import subprocess, sys\n"
                   "with open(sys.argv[2], 'w') as out, open(sys.argv[3], 'w') as err:\n"
                   "    code = subprocess.run(sys.argv[4:], stdout=out, stderr=err).returncode\n"
                   "open(sys.argv[1], 'w').write(str(code))\n")
        seconds, _ = meter.run([sys.executable, "-c", wrapper, str(status), str(out),
                                str(err), *command], cwd=ROOT, env=environment)
        done = subprocess.CompletedProcess(command, int(status.read_text()),
                                           out.read_text(), err.read_text())
    return done, (seconds, meter.kind)


def print_cpu(folder: Path, count: int) -> None:
    """The files and tests of most CPU time (own + waited-for children), with wall time."""
    rows = [row for file in sorted(folder.glob("*.json")) for row in json.loads(file.read_text())]
    files: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0])
    for test, own, children, wall in rows:
        totals = files[test.split("::")[0]]
        totals[0] += own
        totals[1] += children
        totals[2] += wall
    print(f"CPU seconds of {len(rows)} tests: {sum(r[1] for r in rows):.0f} in the pytest "
          f"workers, {sum(r[2] for r in rows):.0f} in the children they waited for")
    print(" CPU   own  children  wall  file")
    for name, (own, children, wall) in sorted(files.items(), key=lambda kv: -sum(kv[1][:2]))[:count]:
        print(f"{own + children:5.1f} {own:5.1f} {children:8.1f} {wall:6.1f}  {name}")
    print(" CPU   own  children  wall  test")
    for test, own, children, wall in sorted(rows, key=lambda r: -(r[1] + r[2]))[:count]:
        print(f"{own + children:5.1f} {own:5.1f} {children:8.1f} {wall:6.1f}  {test}")


if __name__ == "__main__":
    sys.exit(main())
