"""``grader merge``: the output folders of every shard of one ``grader grade --shard K/N``
split, combined into one run's reports and exports."""

from __future__ import annotations

from pathlib import Path

from .common import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, catalogue_of, console, load_tasks
from .lms import add_lms_options, handback_of, roster_of, write_lms
from .outcome import print_closing_line, print_needs_person

NAME = "merge"

MERGE_EPILOG = """\
example:
  grader grade --shard 1/2 --out shards/1 && grader grade --shard 2/2 --out shards/2
  grader merge shards/1 shards/2 --out reports

Each folder must be the --out of a finished `grader grade --shard K/N` (with its hidden
files .batch.json and <student>/.grading.json). Refused, with what to do, when a shard of the
split is missing or given twice, the shards were graded with different task files, grader
versions, submissions folders or languages, a shard was interrupted, a student is in two
shards or a student's state is missing. The exports are then a single run's, apart from the
timings (see the README, "Sharding: job arrays and CI matrices").

exit status: 0 merged; 1 an export could not be written; 2 the shards cannot be merged (or
the task files are malformed); nothing is written then."""


def register(command) -> None:
    merge = command(NAME, help="combine the output folders of grader grade "
                    "--shard K/N into one run's reports",
                    description="Combine the output folders of `grader grade "
                    "--shard K/N` (every shard of one split) into the reports of "
                    "one run: student folders, gradebook.csv, moodle.csv, "
                    "ilias.csv, junit.xml and summary.html.",
                    epilog=MERGE_EPILOG)
    merge.add_argument("shards", nargs="+", metavar="OUT_DIR",
                       help="the --out folder of each shard")
    merge.add_argument("--out", required=True, metavar="DIR",
                       help="where the merged reports go (not one of the shard folders)")
    merge.add_argument("--tasks", default="tasks",
                       help="the task files the shards were graded with [tasks]")
    merge.add_argument("--lang", choices=("de", "en"),
                       help="language of the exports; must be the shards' [the shards']")
    add_lms_options(merge)


def run(args) -> int:
    from ..merge import MergeError, merge
    from ..report.safe import terminal_text
    err = console(stderr=True)
    course = load_tasks(args.tasks, err)
    if course is None:
        return EXIT_BAD_INPUT
    roster = roster_of(args.roster, err)
    if roster is False:
        return EXIT_BAD_INPUT
    handback = handback_of(None, roster, args.moodle_scale, course, err)
    if handback is None:
        return EXIT_BAD_INPUT
    try:
        outcome = merge([Path(folder) for folder in args.shards], Path(args.out), course,
                        args.tasks, args.lang, roster, handback)
    except MergeError as error:
        for problem in error.problems:
            err.print(terminal_text(problem), markup=False, highlight=False)
        err.print(f"{len(error.problems)} problem(s); nothing was merged.", markup=False)
        return EXIT_BAD_INPUT
    if roster is not None:      # its notes, as the summary has them, for the closing line
        outcome.results = roster.annotated(outcome.results)
    catalogue = catalogue_of(course, outcome.language)
    outcome.export_errors += write_lms(args, outcome.results, catalogue, Path(args.out), err,
                                       None, roster)
    for problem in outcome.export_errors:
        err.print(f"Could not write {terminal_text(problem)}", markup=False, highlight=False)
    items = handback.items(outcome.results)
    print_needs_person(err, outcome.results, items, args.out)
    print_closing_line(err, f"Merged {len(args.shards)} shard(s): {len(outcome.results)} "
                            "submission(s)", outcome, course, args.out, items)
    return EXIT_FAILED if outcome.export_errors else EXIT_OK
