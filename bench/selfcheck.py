"""How long a student's self-check takes: ``grader check`` on one correct submission, wall time
of the whole command (a fresh interpreter each run) and its CPU time, without the answer cache
(``--no-cache``: as before the cache), with a cold one (a new, empty ``GRADER_CACHE_DIR`` each
run: computed and stored; what the grader keeps beside its package from an earlier run is
there), a cold one on a new install (that removed too, as after an upgrade), a warm one,
the first one after a task file was edited (a warm cache folder of the course before the
edit) and a cold one of a self-check kit (``grader check --kit``, the kit written once by
``grader kit``, a new, empty cache folder each run: a CI job's check of a kit shipped with
the exercise), side by side (the six alternate within each round), on

* the bundled course (``tasks/``, ``submissions/korrekt``);
* courses imported with ``grader import-trees`` from tree tests in the Pacman multi-agent
  project's format (``bench/pacman_tests.py`` draws them, of the project's size, since the
  project's own are not in this repository): 33 alpha-beta tests (``q3``), and 33 minimax
  plus 33 alpha-beta tests (``q2`` and ``q3``), graded on
  ``tests/data/conventions/multi-agent/korrekt``.  In the same alternation, ``autograder``
  times an in-process autograder in the style of the project's own on the same tests and the
  same file (``pacman_tests.AUTOGRADER``: no isolation, no reports).

Then where the time of a warm check goes: the interpreter's bare start, the plan and answers
computed and taken from the cache (in this process), each step of a check, the sum of
``-X importtime`` (median of the runs, and the largest imports of one run), and a cProfile
top list of one warm run (the profiler slows pure-Python code down several times, so read it
for proportions, not seconds).

    python bench/selfcheck.py [--runs 9] [--sandbox auto] [--top 15] [--checkout /tmp/before]
                              [--courses all|bundled]

``--courses bundled`` times the bundled course alone (a few minutes less on a busy machine).

Bytecode is written (``PYTHONDONTWRITEBYTECODE`` is removed for the runs) and one unmeasured
run comes first, as on an installed grader.  Run it on a quiet machine: wall time counts
everything else the cores are doing.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MULTI_AGENT_STUDENT = ROOT / "tests" / "data" / "conventions" / "multi-agent" / "korrekt"


def environment(cache: Path | None) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "GRADER_NO_CACHE", "GRADER_CACHE_DIR")}
    if cache is not None:
        env["GRADER_CACHE_DIR"] = str(cache)
    return env


def check_command(course: Path, student: Path, out: Path, sandbox: str) -> list[str]:
    return [sys.executable, "-m", "grader.cli", "check", str(student), "--tasks", str(course),
            "--out", str(out), "--sandbox", sandbox]


def timed(command: list[str], env: dict, cwd: Path = ROOT) -> tuple[float, float]:
    """Wall seconds, and the CPU seconds (user + system) of the command and the children it
    waited for (rusage: a sandboxed child killed inside its PID namespace may be missed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}"
                         f"{done.stderr}")
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


MODES = ("no cache", "cold", "new install", "warm", "edited", "kit cold")
# What the grader keeps beside its package (grader.cache.shipped_folder: what it compiles from
# its own files alone); ``new install`` removes them before each run, as after an upgrade.
SHIPPED = ("report/__pycache__/templates", "report/__pycache__/documents",
           "sandbox/__pycache__/runner-bytecode", "answers/__pycache__/sources")


def new_install(checkout: Path = ROOT) -> None:
    """Remove what the grader of ``checkout`` keeps beside its package."""
    import shutil
    for folder in SHIPPED:
        shutil.rmtree(checkout / "grader" / folder, ignore_errors=True)


def edited_copy(course: Path, folder: Path) -> Path:
    """A copy of ``course`` (a task file or a folder of them) in ``folder``, its files named
    as they were, one of them edited (a comment added), as an instructor edits a task file:
    its answer cache's key is a new one."""
    import shutil
    folder.mkdir(parents=True)
    if course.is_file():
        files = [Path(shutil.copyfile(course, folder / course.name))]
        copy = files[0]
    else:
        copy = Path(shutil.copytree(course, folder / course.name))
        files = sorted(copy.rglob("*.yaml"))
    with open(files[0], "a", encoding="utf-8") as edited:
        edited.write(f"\n# edited ({folder.name})\n")
    return copy


def by_mode(course: Path, student: Path, runs: int, sandbox: str, scratch: Path,
            checkout: Path | None = None, others: dict | None = None) -> dict:
    """Median (wall, CPU) seconds per mode; the modes alternate within each round.  ``cold``:
    a new, empty cache folder (the answers are computed and stored) on a grader that has run
    before (what it keeps beside its package is there); ``new install``: the same, with
    nothing beside the package either (the first check after an upgrade or a fresh
    install); ``warm``: the folder a
    first, unmeasured run filled; ``edited``: a folder a first, unmeasured run filled, on
    the course with one task file edited (a comment added, a new edit each run: the first
    check after an instructor's edit); ``no cache``: ``--no-cache`` (computed, not stored);
    ``kit cold``: ``--kit`` instead of ``--tasks``, the course's self-check kit (written
    once by ``grader kit``), a new, empty cache folder each run; ``before``, ``before
    cold``, ``before edited``, ``before kit cold``: the grader of ``checkout``, run in that
    folder, with a warm, a new, empty and an edited course's cache folder, and its own kit;
    ``others``: more commands (name -> argv) timed in the same alternation."""
    warm_cache = scratch / "warm-cache"
    command = check_command(course, student, scratch / "out", sandbox)
    timed(command, environment(warm_cache))   # primes the warm cache and the bytecode
    modes = {"no cache": lambda run: timed([*command, "--no-cache"], environment(None)),
             "cold": lambda run: timed(command, environment(scratch / f"cold-cache-{run}")),
             "new install": lambda run: (new_install(), timed(command, environment(
                 scratch / f"new-install-cache-{run}")))[1],
             "warm": lambda run: timed(command, environment(warm_cache))}
    edited_cache = scratch / "edited-cache"
    timed(command, environment(edited_cache))

    def edited(run: int, argv: list, cache: Path, cwd: Path = ROOT):
        copy = edited_copy(course, scratch / f"edited-{cwd.name}-{run}")
        return timed([*argv[:argv.index("--tasks") + 1], str(copy),
                      *argv[argv.index("--tasks") + 2:]], environment(cache), cwd=cwd)
    modes["edited"] = lambda run: edited(run, command, edited_cache)

    def kit_command(argv: list, kit: Path, cwd: Path = ROOT) -> list:
        """``argv`` with ``--kit kit`` for ``--tasks``, the kit written first by the grader of
        ``cwd`` (its own kit: a kit is read by the grader that wrote it)."""
        subprocess.run([sys.executable, "-m", "grader.cli", "kit", "--tasks", str(course),
                        "--out", str(kit)], cwd=cwd, env=environment(scratch / "kit-cache"),
                       check=True, capture_output=True)
        at = argv.index("--tasks")
        return [*argv[:at], "--kit", str(kit), *argv[at + 2:]]
    kit = kit_command(command, scratch / "kit")
    modes["kit cold"] = lambda run: timed(kit, environment(scratch / f"kit-cold-cache-{run}"))
    if checkout is not None:
        before = check_command(course, student, scratch / "out-before", sandbox)
        before_cache = scratch / "before-warm-cache"
        timed(before, environment(before_cache), cwd=checkout)
        modes["before"] = lambda run: timed(before, environment(before_cache), cwd=checkout)
        modes["before cold"] = lambda run: timed(before, environment(
            scratch / f"before-cold-cache-{run}"), cwd=checkout)
        before_edited_cache = scratch / "before-edited-cache"
        timed(before, environment(before_edited_cache), cwd=checkout)
        modes["before edited"] = lambda run: edited(run, before, before_edited_cache,
                                                    checkout)
        before_kit = kit_command(before, scratch / "kit-before", checkout)
        modes["before kit cold"] = lambda run: timed(before_kit, environment(
            scratch / f"before-kit-cold-cache-{run}"), cwd=checkout)
    for name, other in (others or {}).items():
        timed(other, environment(None))
        modes[name] = lambda run, other=other: timed(other, environment(None))
    samples = {mode: [] for mode in modes}
    for run in range(runs):
        for mode, measure in modes.items():
            samples[mode].append(measure(run))
    return {mode: (statistics.median(w for w, _ in values), statistics.median(c for _, c in values))
            for mode, values in samples.items()}


IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def import_times(command: list[str], env: dict, runs: int):
    """Median sum of the self times of every import, and the rows of the last run."""
    sums, rows = [], []
    for _ in range(runs):
        done = subprocess.run([command[0], "-X", "importtime", *command[1:]], cwd=ROOT,
                              env=env, capture_output=True, text=True)
        rows = [(int(m[1]) / 1e6, int(m[2]) / 1e6, len(m[3]) // 2, m[4])
                for m in map(IMPORT_LINE.match, done.stderr.splitlines()) if m]
        sums.append(sum(row[0] for row in rows))
    return statistics.median(sums), rows


# The steps of ``grader check`` (grader/cli/check.py: run), each timed in a fresh interpreter
# without a profiler, one after the other; keep it in step with it.  The command itself does
# some of them at once (grader/single.py): while the child runs the calls, one thread reads or
# computes the answers and another imports the report's modules and loads its templates, so
# the steps' sum is more than a check's wall time on an idle machine.
PHASES = r"""
import gc, json, sys, tempfile, time
from pathlib import Path
marks = [("start", time.perf_counter())]
def mark(name):
    marks.append((name, time.perf_counter()))
from grader import cli
from grader.cli.common import catalogue_of
gc.set_threshold(*cli.COLLECTOR_THRESHOLDS)   # as the grader command does
from rich.console import Console
from grader.answers.book import AnswerBook
from grader.batch import budget_of, prepare
from grader.grading import grade_submission
from grader.report.views import student_view
from grader.report.files import write_atomically
from grader.report.writers import junit_xml, write_student
from grader.sandbox.levels import best_level
from grader.sandbox.staging import stage_runner
from grader.submissions.finding import Submission
from grader.submissions.staging import stage
from grader.tasks import load_course
mark("imports")
course = load_course(sys.argv[1]); mark("task files (YAML)")
level = best_level(); mark("sandbox probe")
book = AnswerBook.for_course(course); mark("answer cache: key and load")
plan, answers = prepare(course, only_visible=True, answers=book); mark("plan (random trees) and answers")
folder = Path(sys.argv[2]).resolve()
with tempfile.TemporaryDirectory() as work:
    staged = stage(Submission(folder.name, folder.name, folder, "folder"), Path(work) / "staged")
    runner = stage_runner(Path(work) / "runner"); mark("staging")
    result = grade_submission(plan, answers, runner, staged.folder, budget_of(course), level,
                              student=folder.name, workdir=Path(work))
    mark("sandboxed run and judging")
catalogue = catalogue_of(course, None); mark("message catalogue (YAML)")
view = student_view(result, course, catalogue, html=False); mark("terminal view")
with tempfile.TemporaryDirectory() as out:
    written = write_student(Path(out), result, course, catalogue)
    write_atomically(written / "junit.xml", junit_xml([result], course, catalogue))
mark("reports (Jinja templates compiled and rendered)")
print(json.dumps([(name, at - marks[index][1]) for index, (name, at) in enumerate(marks[1:])]))
"""


def phases(course: Path, student: Path, env: dict, runs: int) -> list[tuple[str, float]]:
    """Median seconds of each step of a check, in a fresh interpreter each run."""
    samples = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", PHASES, str(course), str(student)],
                              cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        samples.append(json.loads(done.stdout.splitlines()[-1]))
    return [(name, statistics.median(run[index][1] for run in samples))
            for index, (name, _) in enumerate(samples[0])]


def answers_in_process(course_folder: Path, runs: int, scratch: Path) -> dict:
    """Median seconds, in this process, of the visible checks' plan and reference answers
    (``prepare``) computed without the cache and taken from a warm one (random trees already
    generated: the trees are made once per process either way)."""
    sys.path.insert(0, str(ROOT))
    from grader.answers.book import AnswerBook
    from grader.batch import prepare
    from grader.tasks import load_course
    course = load_course(course_folder)
    os.environ["GRADER_CACHE_DIR"] = str(scratch / "in-process-cache")
    prepare(course, only_visible=True, answers=AnswerBook.for_course(course))
    samples = {"computed (no cache)": [], "from a warm cache": []}
    for _ in range(runs):
        for name, book in (("computed (no cache)", AnswerBook),
                           ("from a warm cache", lambda: AnswerBook.for_course(course))):
            started = time.perf_counter()
            prepare(course, only_visible=True, answers=book())
            samples[name].append(time.perf_counter() - started)
    return {name: statistics.median(times) for name, times in samples.items()}


def bare_start(runs: int) -> float:
    times = [timed([sys.executable, "-c", "pass"], environment(None))[0] for _ in range(runs)]
    return statistics.median(times)


def profile_top(command: list[str], env: dict, top: int) -> str:
    """``command`` (``python -m grader.cli check ...``) under cProfile, through ``main``: the
    program itself ends a check with ``os._exit``, before cProfile could write its file."""
    assert command[1:3] == ["-m", "grader.cli"], command
    with tempfile.NamedTemporaryFile(suffix=".prof") as output, \
            tempfile.NamedTemporaryFile("w", suffix=".py") as script:
        script.write("import gc, sys\nfrom grader.cli import COLLECTOR_THRESHOLDS, main\n"
                     "gc.set_threshold(*COLLECTOR_THRESHOLDS)\nsys.exit(main(sys.argv[1:]))\n")
        script.flush()
        subprocess.run([command[0], "-m", "cProfile", "-o", output.name, script.name,
                        *command[3:]], cwd=ROOT, env=env, capture_output=True, check=True)
        text = io.StringIO()
        stats = pstats.Stats(output.name, stream=text)
        stats.sort_stats("cumulative").print_stats(r"grader|reference|jinja2/environment|"
                                                   r"yaml/__init__|rich/console", top)
        stats.sort_stats("tottime").print_stats(top)
    return "\n".join(line for line in text.getvalue().splitlines()
                     if line.strip() and ".prof" not in line
                     and not line.startswith(("   Ordered", "   List reduced")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--sandbox", default="auto",
                        choices=("auto", "bubblewrap", "container", "process"))
    parser.add_argument("--top", type=int, default=15, help="rows of the profile")
    parser.add_argument("--checkout", type=Path, help="another checkout (e.g. the commit before "
                        "the cache, from git archive or a worktree) timed as 'before' (warm) and "
                        "'before cold', on this checkout's courses")
    parser.add_argument("--courses", choices=("all", "bundled"), default="all",
                        help="every course, or the bundled course alone [all]")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-selfcheck-") as scratch:
        scratch = Path(scratch)
        sys.path.insert(0, str(ROOT / "bench"))
        from pacman_tests import autograder_command, write_questions
        tests = write_questions(scratch / "pacman-tests", 33, 7)
        for folder in tests:
            for target in {scratch / "q2+q3", scratch / folder.name}:
                target.mkdir(exist_ok=True)
                subprocess.run([sys.executable, "-m", "grader.cli", "import-trees", str(folder),
                                "--out", str(target / f"{folder.name}.yaml")], cwd=ROOT,
                               check=True, capture_output=True)
        q3 = [folder for folder in tests if folder.name == "q3"]
        courses = {"bundled course (tasks/, submissions/korrekt)":
                       (ROOT / "tasks", ROOT / "submissions/korrekt", None),
                   "33 Pacman-style tree tests (q3), multi-agent/korrekt":
                       (scratch / "q3", MULTI_AGENT_STUDENT,
                        autograder_command(MULTI_AGENT_STUDENT, q3)),
                   "66 Pacman-style tree tests (q2, q3), multi-agent/korrekt":
                       (scratch / "q2+q3", MULTI_AGENT_STUDENT,
                        autograder_command(MULTI_AGENT_STUDENT, tests))}
        if args.courses == "bundled":
            courses = dict(list(courses.items())[:1])
        print(f"grader check, {args.runs} runs each, median wall time, --sandbox "
              f"{args.sandbox}, Python {sys.version.split()[0]}, {os.cpu_count()} cores, "
              f"load average {os.getloadavg()[0]:.2f}")
        modes = (*MODES, "before", "before cold", "before edited", "before kit cold") \
            if args.checkout else MODES
        print(f"{'':58s} " + " ".join(f"{mode:>16s}" for mode in (*modes, "autograder"))
              + f" {'no cache/warm':>14s} {'warm/autograder':>16s}")
        print(f"{'':58s} " + " ".join(f"{'wall':>8s}{'CPU':>8s}" for _ in (*modes, 0)))
        for name, (course, student, autograder) in courses.items():
            folder = scratch / re.sub(r"\W+", "-", name)
            folder.mkdir()
            medians = by_mode(course, student, args.runs, args.sandbox, folder,
                              args.checkout.resolve() if args.checkout else None,
                              {"autograder": autograder} if autograder else None)
            alone = medians.get("autograder")
            print(f"{name:58s} " + " ".join(f"{medians[m][0]:7.3f}s{medians[m][1]:7.3f}s"
                                            for m in modes)
                  + (f" {alone[0]:7.3f}s{alone[1]:7.3f}s" if alone else f" {'-':>16s}")
                  + f" {medians['no cache'][0] / medians['warm'][0]:13.2f}x"
                  + (f" {medians['warm'][0] / alone[0]:15.2f}x" if alone else ""))

        course, student, _ = courses[next(iter(courses))]
        warm_cache = scratch / "profile-cache"
        command = check_command(course, student, scratch / "profile-out", args.sandbox)
        timed(command, environment(warm_cache))
        start = bare_start(args.runs)
        imports, rows = import_times(command, environment(warm_cache), args.runs)
        print(f"\nWhere a warm check of the bundled course goes (medians of {args.runs}):")
        print(f"  the interpreter's bare start (python -c pass): {start:.3f} s")
        for name, seconds in answers_in_process(course, args.runs, scratch).items():
            print(f"  plan and reference answers of the visible checks, {name}: {seconds:.3f} s")
        steps = phases(course, student, environment(warm_cache), args.runs)
        print(f"  the steps of a check, timed in it (sum {sum(t for _, t in steps):.3f} s):")
        for name, seconds in steps:
            print(f"    {seconds:6.3f} s  {name}")
        print(f"  imports (sum of -X importtime self times):     {imports:.3f} s")
        print("  largest imports of one run (cumulative, self):")
        for self_time, cumulative, level, module in sorted(rows, key=lambda r: -r[1])[:12]:
            print(f"    {cumulative:6.3f} s {self_time:6.3f} s  {'  ' * level}{module}")
        print(f"\ncProfile of one warm check (top {args.top} by cumulative time among the "
              "grader's, Jinja's, YAML's and rich's functions, then by own time):")
        print(profile_top(command, environment(warm_cache), args.top))
        print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
