"""Where a grading worker's own CPU time goes, per submission: the worker's side of grading
copies of ``submissions/korrekt`` (or ``--submission``) on the bundled course, in this process,
under cProfile.

    python bench/worker_profile.py [--students 20] [--sandbox auto] [--top 30]
                                   [--submission submissions/korrekt] [--checkout DIR]

It builds the batch's context as ``grader grade`` does (the plan and the reference answers,
untimed), grades one submission to warm up, then grades ``--students`` copies one after
another with ``grader.worker.SubmissionGrader`` (staging, forgery scan, the sandboxed child,
judging, diagnoses, pictures and the student's rendered reports).  It prints the worker's CPU
time per submission unprofiled (``time.process_time``: this process only, not the child)
with that of its named steps (``STEPS``, each function timed where the worker calls it; an
indented step is part of the one above it, and shrinking's runs count among the runs too:
copies of one student with a mistake share the reference answers of the smaller trees their
shrinks try after the first copy, as a class's students with the same mistake do), then a CPU-time cProfile of more copies (the profiler inflates many small calls: judging and
rendering look larger there than they are).  The child's own CPU time is printed apart, per
submission: what its cgroup (or process tree) counted from bubblewrap's start to the child's
stop, read by the launcher as it stops the child (see also ``bench/child_start.py`` and
``bench/floor.py``).  ``--checkout DIR`` measures the grader of another checkout on this
checkout's course and copies, e.g. the commit before a change, to alternate with this one.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# ``--checkout DIR``: the grader of another checkout (e.g. the commit before a change), on
# this checkout's course and submissions, so that both are measured by the same script
CHECKOUT = Path(sys.argv[sys.argv.index("--checkout") + 1]).resolve() if (
    "--checkout" in sys.argv[:-1]) else ROOT
sys.path.insert(0, str(CHECKOUT))

from grader.grading import prepare  # noqa: E402
from grader.report.messages import Catalogue  # noqa: E402
from grader.sandbox import launcher  # noqa: E402
from grader.sandbox.levels import best_level  # noqa: E402
from grader.sandbox.run import budget_of  # noqa: E402
from grader.submissions.finding import find  # noqa: E402
from grader.submissions.staging import tasks_hash  # noqa: E402
from grader.tasks import load_course  # noqa: E402
from grader.worker import Context, SubmissionGrader  # noqa: E402

# Named steps, timed without a profiler: (label, module, class or None, function timed there)
STEPS = (("staging the copy", "grader.worker", None, "stage"),
         ("forgery scan", "grader.worker", None, "scan_forgery"),
         ("the runs as the parent sees them", "grader.sandbox.run", "SubmissionRun", "run_call"),
         ("  reading the child's replies", "grader.sandbox.launcher", "Child", "request"),
         ("  decoding them (boundary)", "grader.sandbox.boundary", None, "decode"),
         ("  turning them into observations", "grader.sandbox.run", None, "observe"),
         ("  starting the child (parent side)", "grader.sandbox.launcher", "Child", "start"),
         ("  stopping it", "grader.sandbox.launcher", "Child", "stop"),
         ("judging", "grader.grading", None, "judge_all"),
         ("shrinking counterexamples (runs included)", "grader.grading", None,
          "shrink_counterexample"),
         ("  reference answers of smaller trees", "grader.grading", None, "shrinking_answer"),
         ("rendering the student's files", "grader.worker", None, "report_files"))


def timed_steps() -> dict:
    """Wrap each step's function so that it adds its CPU time to the returned counter."""
    import importlib
    spent = dict.fromkeys((label for label, *_ in STEPS), 0.0)
    for label, module, owner, name in STEPS:
        holder = importlib.import_module(module)
        if owner:
            holder = getattr(holder, owner)
        function = getattr(holder, name)

        def wrapper(*args, _function=function, _label=label, **kwargs):
            started = time.process_time()
            try:
                return _function(*args, **kwargs)
            finally:
                spent[_label] += time.process_time() - started
        setattr(holder, name, wrapper)
    return spent


def child_cpu() -> dict:
    """Count the CPU time of each child a submission ran (its cgroup's, or its process
    tree's: bubblewrap, the interpreter's start, the runner and the calls, over restarts
    too), as the launcher reads it when it stops the child: {id of the Child: seconds}."""
    spent = {}
    stop = launcher.Child.stop

    def counted(child):
        stop(child)
        spent[id(child)] = child.final_cpu
    launcher.Child.stop = counted
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=20)
    parser.add_argument("--sandbox", default="auto")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--submission", type=Path, default=ROOT / "submissions" / "korrekt",
                        help="the folder graded in copies (e.g. a student with a mistake)")
    parser.add_argument("--checkout", type=Path,
                        help="measure the grader of this checkout (a folder with grader/)")
    args = parser.parse_args()
    level = best_level() if args.sandbox == "auto" else args.sandbox
    course = load_course(ROOT / "tasks")
    plan, answers = prepare(course)
    catalogue = Catalogue(course.language)
    context = Context(course, plan, answers, level, budget_of(course), catalogue.language,
                      tasks_hash(course.source_files))
    with tempfile.TemporaryDirectory(prefix="bench-worker-") as scratch:
        batch = Path(scratch) / "batch"
        for index in range(args.students + 1):
            shutil.copytree(args.submission, batch / f"copy-{index:04d}")
        submissions = find(batch)
        grader = SubmissionGrader(context)
        try:
            outcome = grader.grade(submissions[0])          # warm, untimed
            assert outcome.kind == "graded", outcome
            half = len(submissions[1:]) // 2
            spent = timed_steps()
            children = child_cpu()
            started = time.process_time()
            for submission in submissions[1:half + 1]:
                grader.grade(submission)
            plain = (time.process_time() - started) / half
            steps = dict(spent)         # the profiled copies below add to ``spent``
            child = sum(children.values()) / half
            profile = cProfile.Profile(time.process_time)   # CPU, not waiting
            profile.enable()
            for submission in submissions[half + 1:]:
                grader.grade(submission)
            profile.disable()
            profiled = len(submissions) - half - 1
        finally:
            grader.close()
    print(f"grader of {CHECKOUT}")
    print(f"the child's CPU per submission (its cgroup or process tree, read as it stops): "
          f"{child * 1000:.1f} ms")
    print(f"worker CPU per submission (in-process, unprofiled, {half} copies of "
          f"{args.submission.name}, "
          f"level {level}): {plain * 1000:.1f} ms")
    for label, seconds in steps.items():
        print(f"  {label:40s} {seconds / half * 1000:6.1f} ms")
    print(f"\ncProfile (CPU time) over {profiled} more copies:")
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(args.top)
    print(text.getvalue())
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(args.top)
    print(text.getvalue())


if __name__ == "__main__":
    main()
