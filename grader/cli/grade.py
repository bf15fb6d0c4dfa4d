"""``grader grade``: every submission of a folder or an LMS's download, against the task
files, into reports, the gradebook and the LMS exports; in shards, on a cluster, resumable."""

from __future__ import annotations

import argparse
import os
import signal
from pathlib import Path

from .common import (EXIT_BAD_INPUT, EXIT_CANNOT_GRADE, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK,
                     NO_CACHE_HELP, batch_level, catalogue_of, checked_course, console,
                     raise_interrupt)
from .lms import add_lms_options, handback_of, roster_of, write_lms
from .outcome import print_closing_line, print_needs_person

NAME = "grade"

GRADE_EPILOG = """\
examples:
  grader grade                                  # submissions/ against tasks/, into reports/
  grader grade --submissions abgaben --out reports/blatt3 --lang en
  grader grade --resume                         # after an interruption: grade the rest

sharding (--shard K/N): grade one of N shards of the submissions, e.g. as a Slurm job array
or a CI matrix, then combine the shards' output folders with grader merge:
  grader grade --shard 1/3 --out shards/1     # ... 2/3 and 3/3 elsewhere, at the same time
  grader merge shards/1 shards/2 shards/3 --out reports
A submission's shard depends on its own name only (SHA-256), so adding or removing a student
moves no one else. A shard may hold no submission (exit 0, empty exports).

exit status: 0 every submission graded or listed as needing a person; 1 an export could not
be written; 2 bad input (task files, pins, --shard, --moodle-worksheet, --roster, no
submissions, weak sandbox refused); 3 the grader cannot grade here (its runner or sandbox
fails, or the first submissions all failed in the grader for one reason: one line says
why, nothing is graded 0); 130 interrupted (finish with --resume)."""


def register(command) -> None:

    grade = command(NAME, help="grade every submission folder; write reports",
                    description="Grade every submission folder and archive of "
                    "--submissions against the task files; write per-student "
                    "reports, the gradebook, LMS exports, junit.xml and a summary.",
                    epilog=GRADE_EPILOG)
    grade.add_argument("--tasks", default="tasks", help="task file or folder [tasks]")
    grade.add_argument("--submissions", default="submissions",
                       help="folder with one sub-folder or archive per student, or an LMS's "
                       "download as it comes: Moodle's zip, its flat download, ILIAS's "
                       "download top [submissions]")
    grade.add_argument("--out", default="reports", help="where reports go [reports]")
    grade.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                       help="submissions graded at once [number of cores]; ignored with "
                       "--cluster")
    grade.add_argument("--cluster", metavar="ADDRESS", help="grade on the Dask cluster whose "
                       "scheduler is at ADDRESS (e.g. tcp://scheduler:8786), each worker in "
                       "its own sandbox; needs pip install -e '.[cluster]'")
    grade.add_argument("--lang", choices=("de", "en"), help="language of the feedback "
                       "[the course's]")
    grade.add_argument("--sandbox", choices=("auto", "bubblewrap", "container", "process"),
                       default="auto", help="isolation of student code [auto: the strongest "
                       "that works: bubblewrap, else container (root), else process]")
    grade.add_argument("--allow-weak-sandbox", action="store_true",
                       help="grade even at the 'process' level, where student code runs as you")
    grade.add_argument("--resume", action="store_true",
                       help="skip submissions already graded with the same task files and "
                       "submission content")
    grade.add_argument("--shard", type=_shard, metavar="K/N",
                       help="grade only shard K of N (K from 1 to N), for job arrays and CI "
                       "matrices; combine the shards with grader merge [all submissions]")
    grade.add_argument("--moodle-worksheet", metavar="FILE", help="Moodle's grading worksheet "
                       "of the assignment (Grading action: Download grading worksheet): written "
                       "filled in as OUT/moodle-worksheet.csv, to upload back (Upload grading "
                       "worksheet); the submissions are the folders of Moodle's download")
    add_lms_options(grade)
    grade.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)


def run(args) -> int:
    """Grade a batch; SIGINT and SIGTERM stop it (exit 130) with what was graded written."""
    from ..batch import EnvironmentFailure
    from ..cluster import ClusterError
    previous = signal.signal(signal.SIGTERM, raise_interrupt)
    try:
        return _grade(args)
    except EnvironmentFailure as error:
        # One line, not a class graded 0: nothing here is the students' doing.
        console(stderr=True).print(f"Cannot grade here: {error}. Fix that and run the same "
                                   f"command again (with --resume to keep what was "
                                   f"graded).", markup=False, highlight=False, soft_wrap=True)
        return EXIT_CANNOT_GRADE
    except KeyboardInterrupt:
        console(stderr=True).print("Interrupted.", markup=False)
        return EXIT_INTERRUPTED
    except ClusterError as error:   # --cluster: Dask missing, scheduler unreachable
        console(stderr=True).print(f"{error}; nothing was graded.", markup=False,
                                   highlight=False)
        return EXIT_BAD_INPUT
    finally:
        signal.signal(signal.SIGTERM, previous)


def _grade(args) -> int:
    from ..submissions.downloads import DownloadError, prepare
    err = console(stderr=True)
    checked = checked_course(args.tasks, args, err)
    if checked is None:
        return EXIT_BAD_INPUT
    try:
        # Moodle's zip, its flat download, ILIAS's download top: a folder of submissions
        prepared = prepare(Path(args.submissions))
    except DownloadError as error:
        err.print(str(error), markup=False, highlight=False)
        return EXIT_BAD_INPUT
    try:
        for line in prepared.said:
            err.print(line, markup=False, highlight=False)
        return _grade_folder(args, checked, prepared.root, err)
    finally:
        prepared.cleanup()


def _grade_folder(args, checked, root: Path, err) -> int:
    from ..batch import grade_batch
    from ..report.safe import terminal_text
    from ..submissions.finding import find
    course, answers = checked
    listed = find(root)
    if not listed:
        from ..submissions.finding import passed_over
        skipped = passed_over(root)
        hint = (f" (only {', '.join(skipped)}, whose names start with . or _ and are taken for "
                "hidden or tool folders)" if skipped else "")
        err.print(f"{root}: holds no submission folders or archives{terminal_text(hint)}",
                  markup=False)
        return EXIT_BAD_INPUT
    count = len(args.shard.select(listed)) if args.shard else len(listed)
    out = Path(args.out)
    catalogue = catalogue_of(course, args.lang)
    worksheet = _worksheet(args.moodle_worksheet, err)
    if worksheet is False:
        return EXIT_BAD_INPUT
    roster = roster_of(args.roster, err)
    if roster is False:
        return EXIT_BAD_INPUT
    handback = handback_of(worksheet, roster, args.moodle_scale, course, err)
    if handback is None:
        return EXIT_BAD_INPUT
    level = batch_level(args, err, "grade a batch")
    if level is None:
        return EXIT_BAD_INPUT

    def line(result, done, total):
        from ..report.grades import has_grade
        score = f"{result.score:g}" if has_grade(result) else "—"   # a person grades it
        return (f"[{done}/{total}] {terminal_text(result.student)}: "
                f"{score}/{result.max_score:g}")
    if err.is_terminal:
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeRemainingColumn)
        # No refresh thread: the batch forks its workers, which a running thread makes unsafe.
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=err, transient=True,
                      auto_refresh=False) as bar:
            job = bar.add_task("grading", total=count)

            def progress(result, done, total):
                bar.update(job, completed=done, description=terminal_text(result.student))
                bar.refresh()
            outcome = grade_batch(course, root, out, args.jobs, catalogue, progress, level,
                                  args.resume, False, answers, args.shard,
                                  args.cluster, roster, handback)
    else:
        def progress(result, done, total):
            err.print(line(result, done, total), markup=False, highlight=False)
        outcome = grade_batch(course, root, out, args.jobs, catalogue, progress, level,
                              args.resume, False, answers, args.shard,
                              args.cluster, roster, handback)
    if roster is not None:      # its notes, as the summary has them, for the closing line
        outcome.results = roster.annotated(outcome.results)
    results = outcome.results
    if worksheet is not None and not outcome.interrupted:
        outcome.export_errors += _write_worksheet(worksheet, results, catalogue, out,
                                                  handback.scale)
    if not outcome.interrupted:
        outcome.export_errors += write_lms(args, results, catalogue, out, err, worksheet,
                                           roster)
    for problem in outcome.export_errors:
        err.print(f"Could not write {terminal_text(problem)}", markup=False, highlight=False)
    from ..submissions.finding import passed_over
    skipped = passed_over(root)
    if skipped:
        err.print(f"Not graded (names starting with . or _ are taken for hidden or tool "
                  f"folders; rename a student's to grade it): "
                  f"{terminal_text(', '.join(skipped))}", markup=False, highlight=False)
    if outcome.interrupted:
        err.print(f"Interrupted: {len(results)} of {count} submission(s) graded and written; "
                  f"finish with the same command and --resume. Reports: {out}/summary.html",
                  markup=False, highlight=False)
        return EXIT_INTERRUPTED
    shard = (f" of shard {args.shard} ({len(listed)} in all; combine the shards with "
             f"grader merge)" if args.shard else "")
    items = handback.items(results)
    print_needs_person(err, results, items, out)
    print_closing_line(err, f"Graded {len(results)} submission(s){shard}", outcome, course, out,
                       items)
    return EXIT_FAILED if outcome.export_errors else EXIT_OK


def _worksheet(path: str | None, err):
    """The worksheet (``lms.moodle.Worksheet``), None without one, False (after saying
    why) when it is unusable: checked before anything is graded."""
    if path is None:
        return None
    from ..lms.moodle import Worksheet, WorksheetError
    try:
        return Worksheet(Path(path).read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, WorksheetError) as error:
        err.print(f"--moodle-worksheet {path}: {error}", markup=False, highlight=False)
        return False


def _write_worksheet(sheet, results, catalogue, out: Path, scale) -> list[str]:
    """Write the filled-in worksheet (what it leaves to a person is listed at the end)."""
    from ..report.grades import grade_comment
    from ..lms.handback import fill, match_worksheet
    from ..report.files import write_atomically
    fill(sheet, match_worksheet(sheet, results), scale,
         lambda result: grade_comment(result, catalogue))
    try:
        write_atomically(out / "moodle-worksheet.csv", sheet.text())
    except OSError as error:
        return [f"{out / 'moodle-worksheet.csv'}: {error}"]
    return []


def _shard(text: str):
    from ..shards import parse_shard
    try:
        return parse_shard(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
