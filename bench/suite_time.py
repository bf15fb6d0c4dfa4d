"""How long the README's test line (`pytest`) takes: the whole suite's wall time and the CPU time
of everything it ran (its workers, the graders they start and the sandboxed children, as far
as each was waited for), and its slowest tests.

    python bench/suite_time.py                 # as the README runs it: every core (-n auto)
    python bench/suite_time.py --workers 0     # serially, for comparison (about 20 minutes)
    python bench/suite_time.py --cpu 25        # and the 25 files and tests of most CPU time
    python bench/suite_time.py --per-file tests/test_kit.py tests/test_wheel.py \
        --against /tmp/before --rounds 3     # each file alone, in a cgroup, beside a clone

The CPU time divided by the cores is the least wall time the suite can take on an idle
machine with that many cores; on a shared machine the wall time is longer, so quote both.
Two CPU figures: rusage (what the processes the run waited for used) and, where a cgroup can
be made for the run (root, as on CI), the whole process tree's, sandboxed children included:
rusage misses those that die in their PID namespace or with their cgroup (on
tests/test_hostile.py 0.8 against 1.1 CPU-minutes).
One run of the suite takes minutes, so this script runs it once per call: alternate calls
(`--workers 2`, `--workers 0`, ...) for medians.

``--per-file`` runs each test file named (all of tests/ if none is) serially in a pytest of
its own (``-n 0``), each in a cgroup of its own (sandboxed children counted): the file's whole
cost as a worker pays it when it runs the file alone, its start-up and collection (about 3
CPU-seconds) and the module and run-wide fixtures it builds included.  ``A.py+B.py`` runs
the files one side has of A.py and B.py in one pytest (a file split in two, beside the
checkout that has it whole; run-wide fixtures such as the kit of the bundled course are then
built once, as in the suite).  ``--against DIR`` runs
the same files of another checkout (a clone at an older commit; its ``.venv`` if it has one)
alternately with this one's, ``--rounds`` times, and prints the medians and their ratio.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import statistics
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
    parser.add_argument("--per-file", action="store_true",
                        help="run each test file named (every tests/test_*.py if none) alone "
                             "and serially, each in a cgroup of its own: its CPU-seconds, "
                             "sandboxed children included, and its wall time")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="with --per-file: also run the same files of the checkout DIR "
                             "(with its .venv's Python where it has one), alternating")
    parser.add_argument("--rounds", type=int, default=1,
                        help="with --per-file: how many times to run each file (per side); "
                             "medians are printed")
    parser.add_argument("pytest_args", nargs="*",
                        help="further arguments for pytest (e.g. a test file)")
    options = parser.parse_args()
    if options.per_file:
        return per_file(options)
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
        seconds, kind, _ = tree
        print(f"CPU of the whole process tree, sandboxed children included ({kind}): "
              f"{seconds / 60:.1f} min (at least {seconds / 60 / cores:.1f} min of wall time "
              f"on {cores} idle cores)")
    return done.returncode


def per_file(options) -> int:
    """Each file alone and serially, in its own cgroup, on this checkout (and ``--against``'s),
    alternating: a table of medians."""
    files = [Path(name) for name in options.pytest_args] or sorted(
        path.relative_to(ROOT) for path in (ROOT / "tests").glob("test_*.py"))
    sides = {"here": (ROOT, Path(sys.executable))}
    if options.against is not None:
        other = options.against.resolve()
        python = other / ".venv" / "bin" / "python"
        sides["against"] = (other, python if python.exists() else Path(sys.executable))
    seconds: dict = collections.defaultdict(list)
    failed = []
    print(f"load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    for round_ in range(options.rounds):
        for file in files:
            # the sides alternate, and which goes first alternates from round to round
            for side in (list(sides) if round_ % 2 == 0 else list(sides)[::-1]):
                checkout, python = sides[side]
                # FILE+FILE...: one pytest for the files (one split into several, say) that
                # this side has
                group = [part for part in str(file).split("+") if (checkout / part).exists()]
                if not group:
                    continue
                command = [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-n", "0", *group]
                environment = dict(os.environ)
                if python.parent.parent.joinpath("pyvenv.cfg").exists():   # that venv's
                    environment["VIRTUAL_ENV"] = str(python.parent.parent)
                    environment["PATH"] = os.pathsep.join([str(python.parent),
                                                           environment.get("PATH", "")])
                done, tree = run_metered(command, environment, cwd=checkout)
                if tree is None:
                    raise SystemExit("--per-file needs a cgroup for each run (root, cgroupfs)")
                if done.returncode != 0:
                    said = (done.stdout or done.stderr).splitlines()[-1:]
                    failed.append(f"{side} {file}: {said}")
                cpu, wall = tree[0], tree[2]
                seconds[file, side].append((cpu, wall))
                print(f"{side:8} {cpu:7.1f} CPU-s {wall:7.1f} s  {file}", flush=True)
    median = statistics.median
    print(f"\nmedians of {options.rounds} run(s) per file and side (cgroup CPU-seconds, "
          f"wall seconds); load average {os.getloadavg()[0]:.1f} at the end")
    header = "  CPU-s   wall" + ("  against: CPU-s   wall  CPU ratio" if len(sides) > 1 else "")
    print(header + "  file")
    totals = collections.Counter()
    for file in files:
        row, cpus = "", []
        for side in sides:
            runs = seconds[file, side]
            cpu = median(c for c, _ in runs) if runs else None
            wall = median(w for _, w in runs) if runs else None
            cpus.append(cpu)
            totals[side] += cpu or 0.0
            row += ("" if side == "here" else "           ") + (
                f"{cpu:7.1f} {wall:6.1f}" if runs else f"{'-':>7} {'-':>6}")
        if len(sides) > 1:
            row += f"  {cpus[0] / cpus[1]:9.2f}" if None not in cpus else f"  {'-':>9}"
        print(f"{row}  {file}")
    print("total   " + "  ".join(f"{side} {totals[side]:.1f} CPU-s" for side in sides))
    for line in failed:
        print("FAILED", line)
    return 1 if failed else 0


def run_metered(command: list, environment: dict, cwd: Path = ROOT):
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
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                              env=environment)
        return done, None
    with tempfile.TemporaryDirectory(prefix="suite-run-") as folder:
        status, out, err = (Path(folder) / name for name in ("status", "out", "err"))
        # the meter's run must end well: pytest runs under a wrapper that keeps its status
        wrapper = ("import subprocess, sys\n"
                   "with open(sys.argv[2], 'w') as out, open(sys.argv[3], 'w') as err:\n"
                   "    code = subprocess.run(sys.argv[4:], stdout=out, stderr=err).returncode\n"
                   "open(sys.argv[1], 'w').write(str(code))\n")
        seconds, wall = meter.run([sys.executable, "-c", wrapper, str(status), str(out),
                                   str(err), *command], cwd=cwd, env=environment)
        done = subprocess.CompletedProcess(command, int(status.read_text()),
                                           out.read_text(), err.read_text())
    return done, (seconds, meter.kind, wall)


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
