"""The ``grader`` command: grade, check, solve, validate, import-trees, merge, classroom.
Nothing else
lives here.

Each command imports what it needs when it runs, so that ``grader check`` starts without the
batch's progress bars, tables, pins or forgery scan (``python -X importtime``).
"""

from __future__ import annotations

import sys

if __name__ == "__main__":
    # python -m grader.cli: the current folder, which may be a student's, is first on the
    # import path; off it before argparse, json or yaml is imported (grader.startup).
    from grader.startup import leave_start_folder
    leave_start_folder()

# Only after that: the rest of the imports.
import argparse  # noqa: E402
import contextlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import signal  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:
    from rich.console import Console

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130
EXIT_CANNOT_GRADE = 3   # the grader fails here the same way for every submission
NO_CACHE_HELP = ("compute the reference answers, parse the task files and compile the templates "
                 "and the runner afresh, and keep none of them (also: GRADER_NO_CACHE=1) "
                 "[they are kept in $GRADER_CACHE_DIR, else ~/.cache/gametree-grader]")


def _console(stderr: bool = False) -> Console:
    from rich.console import Console
    return Console(stderr=True, soft_wrap=True) if stderr else Console()


class _ConsoleLater:
    """Standard error's console, made when something is printed: ``grader check`` starts the
    student's child before it imports rich."""

    def __init__(self):
        self.console = None

    def print(self, *args, **options) -> None:
        if self.console is None:
            self.console = _console(stderr=True)
        self.console.print(*args, **options)


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

TOURNAMENT_EPILOG = """\
examples:
  grader tournament --tasks courses/spiel/tasks --submissions courses/spiel/submissions \\
      --out turnier --baselines random,greedy,alphabeta:2
  grader tournament ... --schedule swiss --rounds 7     # a large class: Swiss rounds
  grader tournament ... --schedule sampled --rounds 5   # or 5 random opponents each
  grader tournament ... --resume                        # after an interruption: the rest

The task with a match check (or --task ID) gives the game, the depth, the search and the
evaluation function every submission plays with. Each matchup is a pair of games from one
random opening with the seats swapped. OUT gets leaderboard.html, ratings.csv,
players/*.html, tournament.json and games.jsonl (the journal --resume continues).

exit status: 0 every game played; 1 some matchups failed in the grader itself (listed; run
again with --resume); 2 bad input (task files, no playable task, an unknown baseline, a
journal of another tournament, weak sandbox refused); 130 interrupted (continue with
--resume)."""

CHECK_EPILOG = """\
examples:
  grader check                                  # the current folder, against ./tasks
  grader check meine-abgabe --tasks blatt3.yaml --lang en
  grader check . --points                       # ends with 'Points X/Y' for CI
  grader check . --classroom-result classroom.json   # GitHub Classroom's result (see
                                                # grader classroom)

Only the visible checks run; the hidden ones are only counted. The feedback page is written
to --out (feedback.html, feedback.md and junit.xml, in a folder named after yours).
With --kit, the checks and their answers come from a self-check kit (grader kit) instead of
the task files: no model solution is needed.
  grader check meine-abgabe --kit blatt3-kit/

exit status: 0 every visible check passes; 1 a check fails; 2 bad input (task files, no
such folder, the chosen sandbox does not work here) or the --classroom-result file could
not be written."""

SOLVE_EPILOG = """\
examples:
  grader solve                                  # a table per task
  grader solve tasks/blatt3.yaml --json         # one JSON object per task and function

exit status: 0 printed; 2 the task files are malformed."""

VALIDATE_EPILOG = """\
example:
  grader validate tasks/

Every problem is printed with its file and line.

exit status: 0 the task files are well-formed and every pinned answer holds; 1 a pinned
answer disagrees with the reference; 2 a task file is malformed."""

IMPORT_EPILOG = """\
example:
  grader import-trees multiagent/test_cases/q2 --out tasks/pacman-q2.yaml
  grader validate tasks/pacman-q2.yaml

exit status: 0 every test imported; 2 no such folder, a bad --prefix, nothing importable, or
a test that could not be imported (the others are still written)."""

KIT_EPILOG = """\
example:
  grader kit --tasks tasks/ --out blatt3-kit/
  # a student, in their submission folder, with nothing but Python installed:
  python3 ../blatt3-kit/check.py

The kit holds the visible checks only, with the reference's answers (and the mistake
catalogue's) precomputed for exactly their calls and sealed as salted digests (the check says
where a search differs, never what the reference has; a replay of the files earns nothing),
a wheel of the grader without the model solutions, and check.py, which installs that wheel
once into a virtual environment when no grader is installed. Hidden checks are only counted;
nothing of them is in the kit. Digests of small values can be found by trying: grades that
count come from grader grade.

exit status: 0 written; 1 the kit could not be written; 2 the task files are malformed or a
pinned answer disagrees with the reference."""

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

GRADESCOPE_EPILOG = """\
example:
  grader gradescope --tasks tasks --out autograder.zip
  unzip -l autograder.zip     # setup.sh, run_autograder, tasks/*.yaml, the grader's wheel

Upload the zip as a programming assignment's autograder (Configure Autograder, Ubuntu base
image). setup.sh installs bubblewrap, libseccomp2 and the grader (its dependencies from the
package index) and computes the reference answers when Gradescope builds the image;
run_autograder grades each submission on every check, the hidden ones too, at the strongest
sandbox that works there. The task files are checked and their pinned answers verified first.

exit status: 0 written; 1 the zip (or the grader's wheel) could not be written; 2 the task
files are malformed or a pinned answer disagrees with the reference."""

GRADESCOPE_RUN_EPILOG = """\
example (what run_autograder does; a folder standing in for /autograder):
  mkdir -p ag/source ag/submission && unzip -q autograder.zip -d ag/source
  cp submissions/korrekt/*.py ag/submission/
  grader gradescope-run --root ag && cat ag/results/results.json

exit status: 0 results.json written, whatever the score; 1 the grader failed on the
submission or results.json could not be written; 2 the task files in ROOT/source/tasks are
unusable. results.json is written in every case where its folder can be written."""


CLASSROOM_EPILOG = """\
example (in the root of the assignment's template repository):
  grader classroom --tasks tasks \\
      --install "gametree-grader @ git+https://github.com/ORG/gametree-grader.git@v0.1.0"
  git add .github/workflows/classroom.yml && git commit -m "Autograding"

The workflow is named "Autograding Tests" with the one job "run-autograding-tests", as
GitHub Classroom requires. On every push it installs bubblewrap and the grader, runs
`grader check . --tasks PATH` (the visible checks), writes the feedback to the run's summary
page and as the artifact "feedback", and hands the result to
classroom-resources/autograding-grading-reporter@v1, which reports the points to Classroom.
Without --install the workflow installs from a placeholder URL: replace it before use.

With --kit, the template repository holds a self-check kit (grader kit) instead of the task
files, so that students find neither the hidden checks nor the model solutions in it: the
workflow runs the kit's check.py, which installs the kit's own wheel.
  grader kit --tasks ~/kurs/tasks --out kit && grader classroom --kit kit

exit status: 0 written; 2 bad input (task files or kit, a --tasks or --kit path outside the
repository, a --install or --tasks that is not one line) or the file could not be
written."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="grader", description="Grade game-tree search "
                                     "exercises (minimax, alpha-beta, negamax, evaluation).")
    from . import __version__
    parser.add_argument("--version", action="version", version=f"grader {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, **options) -> argparse.ArgumentParser:
        # The epilogs' examples and exit statuses keep their line breaks.
        return commands.add_parser(name, formatter_class=argparse.RawDescriptionHelpFormatter,
                                   **options)

    grade = command("grade", help="grade every submission folder; write reports",
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
    _lms_options(grade)
    grade.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)

    _tournament_command(command)

    check = command("check", help="self-check one submission folder (visible checks)",
                    description="A student's self-check: grade one submission "
                    "folder on the visible checks only, print a summary and write "
                    "the feedback page.", epilog=CHECK_EPILOG)
    check.add_argument("folder", nargs="?", default=".", help="your submission folder [.]")
    check.add_argument("--tasks", default="tasks", help="task file or folder [tasks]")
    check.add_argument("--kit", metavar="DIR", help="a self-check kit (grader kit) instead of "
                       "--tasks: its visible checks and precomputed answers")
    check.add_argument("--lang", choices=("de", "en"))
    check.add_argument("--sandbox", choices=("auto", "bubblewrap", "container", "process"),
                       default="auto")
    check.add_argument("--out", help="where feedback.html, feedback.md and junit.xml go "
                       "[reports/check; when that would lie inside the submission folder, "
                       "check/ in the grader's cache folder, so that no report ends up in the "
                       "hand-in]")
    check.add_argument("--points", action="store_true",
                       help="end with a line 'Points X/Y' (the visible checks' points)")
    check.add_argument("--classroom-result", metavar="FILE",
                       help="write GitHub Classroom's grading result (the JSON its "
                       "autograding-grading-reporter reads: one test per visible check) to "
                       "FILE; in a GitHub Actions step ($GITHUB_OUTPUT set) also set the "
                       "step's output 'result' to its base64 form")
    check.add_argument("--student", metavar="KEY", help="whose tree a hand exercise with "
                       "variants is checked on: your username (the key of grader sheets) "
                       "[the folder's name]")
    check.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)

    solve = command("solve", help="print the reference answers",
                    description="Print the reference's answers of every task: "
                    "value, move, optimal moves, visited nodes and their order, "
                    "and the pruned nodes of trees (for instructors).",
                    epilog=SOLVE_EPILOG)
    solve.add_argument("path", nargs="?", default="tasks", help="task file or folder [tasks]")
    solve.add_argument("--json", action="store_true", help="a JSON array instead of a table")
    solve.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)

    validate = command("validate", help="check task files and their pinned answers",
                       description="Check the task files and verify every answer "
                       "they pin against the reference.", epilog=VALIDATE_EPILOG)
    validate.add_argument("path", nargs="?", default="tasks", help="task file or folder [tasks]")
    validate.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)

    kit = command("kit", help="write a self-check kit for students: visible checks, their "
                  "answers, no model solutions", description="Write the self-check kit an "
                  "instructor hands students: the visible checks with their answers "
                  "precomputed and sealed, a grader without the model solutions, and check.py "
                  "to run it.", epilog=KIT_EPILOG)
    kit.add_argument("--tasks", default="tasks", help="task file or folder [tasks]")
    kit.add_argument("--out", required=True, metavar="DIR", help="the kit's folder (created)")
    kit.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)

    importer = command("import-trees", help="turn the Pacman multi-agent project's "
                       "game-tree tests (*.test, *.solution) into a task file",
                       description="Turn the game-tree tests of the Pacman "
                       "multi-agent project (NAME.test with NAME.solution) into a "
                       "YAML task file.", epilog=IMPORT_EPILOG)
    importer.add_argument("folder", help="folder with NAME.test and NAME.solution files")
    importer.add_argument("--out", help="task file to write [print to the terminal]")
    importer.add_argument("--module", default="multiAgents",
                          help="the students' module with the agents [multiAgents]")
    importer.add_argument("--prefix", help="prefix of the task ids, so that several folders "
                          "can be imported into one course [the folder's name]")

    merge = command("merge", help="combine the output folders of grader grade "
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
    _classroom_parser(command)
    _gradescope_commands(command)
    _sheets_parser(command)
    _lms_options(merge)
    return parser


def _classroom_parser(command) -> None:
    classroom = command("classroom", help="write the GitHub Classroom autograding workflow "
                        "of an assignment's template repository",
                        description="Write the GitHub Actions workflow that grades a "
                        "GitHub Classroom assignment on every push: the visible checks of "
                        "the task files, feedback on the run's page, and the points "
                        "reported to Classroom.", epilog=CLASSROOM_EPILOG)
    classroom.add_argument("--tasks", default="tasks", help="the task file or folder, as a "
                           "path inside the repository relative to its root (the current "
                           "folder) [tasks]")
    classroom.add_argument("--out", default=".github/workflows/classroom.yml",
                           help="the workflow file to write [.github/workflows/classroom.yml]")
    classroom.add_argument("--kit", metavar="DIR", help="a self-check kit inside the "
                           "repository (grader kit), run instead of the task files: no hidden "
                           "check and no model solution in the repository")
    classroom.add_argument("--install", metavar="SPEC", help="what pip installs the grader "
                           "from in the workflow: a requirement such as 'gametree-grader @ "
                           "git+https://github.com/ORG/gametree-grader.git@v0.1.0' [a "
                           "placeholder URL to replace]")
    classroom.add_argument("--lang", choices=("de", "en"),
                           help="language of the feedback [the course's]")


SHEETS_EPILOG = """\
examples:
  grader sheets --tasks courses/von-hand/tasks --roster teilnehmer.csv --out blaetter
  grader sheets --students abgaben/ --out blaetter      # keyed by the submissions' names
  grader sheets --names namen.txt --out blaetter --task aufgabe1

For each student and hand task: OUT/<student>/sheet.html (prints on A4), the answer template
<answers>.yaml and the form <answers>-form.html; OUT/solutions/<task>-<code>.html per variant;
OUT/index.html and variants.csv; OUT/moodle-questions.xml (Moodle XML, Cloze). Grading finds
each student's tree by the same key: pass the same --roster to grader grade.

exit status: 0 written; 1 a file could not be written; 2 bad input (task files, no hand task,
a roster, folder or name list that cannot be used)."""


def _sheets_parser(command) -> None:
    sheets = command("sheets", help="one sheet per student for the hand exercises: their own "
                     "tree, answer template and form, solutions, a Moodle question bank",
                     description="Write per-student sheets of the course's hand exercises "
                     "(tree tasks with answers:): each student's own tree (drawn from the "
                     "task's variants: seed and the student's key), a printable sheet, the "
                     "answer template and form, the solution of each variant, and every "
                     "variant as a Moodle question bank.", epilog=SHEETS_EPILOG)
    sheets.add_argument("--tasks", default="tasks", help="task file or folder [tasks]")
    sheets.add_argument("--out", required=True, metavar="DIR", help="where the sheets go")
    who = sheets.add_mutually_exclusive_group(required=True)
    who.add_argument("--roster", metavar="FILE", help="the course's participants as CSV (as "
                     "for grader grade --roster): keyed by username, else ID number, else email")
    who.add_argument("--students", metavar="DIR", help="a submissions folder: keyed by each "
                     "submission's name, as grader grade names it")
    who.add_argument("--names", metavar="FILE", help="a text file with one student per line")
    sheets.add_argument("--task", metavar="ID", help="only this hand task [all of them]")
    sheets.add_argument("--lang", choices=("de", "en"), help="language of the sheets "
                        "[the course's]")
    sheets.add_argument("--no-moodle", action="store_true",
                        help="leave out moodle-questions.xml")
    sheets.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)


def cmd_sheets(args) -> int:
    from .hand.sheets import SheetsError, from_folder, from_names, from_roster, write_sheets
    from .report.messages import Catalogue
    from .lms.roster import RosterError
    err = _console(stderr=True)
    course = _load(args.tasks, err)
    if course is None:
        return EXIT_BAD_INPUT
    try:
        students = (from_roster(args.roster) if args.roster else
                    from_folder(args.students) if args.students else from_names(args.names))
        from .grading import prepare
        _, answers = prepare(course, answers=_answer_book(course, args))
        summary = write_sheets(course, students, Path(args.out),
                               Catalogue(args.lang or course.language), answers,
                               task_id=args.task, moodle=not args.no_moodle)
        answers.save()
    except (SheetsError, RosterError) as error:
        for line in str(error).splitlines():
            err.print(line, markup=False, highlight=False)
        return EXIT_BAD_INPUT
    except OSError as error:
        err.print(f"{args.out}: cannot be written ({error})", markup=False)
        return EXIT_FAILED
    variants = ", ".join(f"{task}: {count}" for task, count in summary["variants"].items())
    print(f"{summary['students']} students, {summary['files']} files in {args.out}; "
          f"distinct trees per task: {variants}")
    return EXIT_OK


def _tournament_command(command) -> None:
    tournament = command("tournament", help="a class tournament: every submission and the "
                         "baselines play each other; ratings with intervals",
                         description="Play a tournament between the submissions' searches "
                         "(with their evaluation functions) and built-in baselines, each "
                         "submission in its own sandbox; rate the games with confidence "
                         "intervals and write a leaderboard and a page per player.",
                         epilog=TOURNAMENT_EPILOG)
    tournament.add_argument("--tasks", default="tasks", help="task file or folder [tasks]")
    tournament.add_argument("--submissions", default="submissions",
                            help="folder with one sub-folder per student [submissions]")
    tournament.add_argument("--out", default="tournament", help="where the leaderboard and "
                            "the pages go [tournament]")
    tournament.add_argument("--task", metavar="ID", help="the task to play [the one with a "
                            "match check]")
    tournament.add_argument("--baselines", default="random,greedy,alphabeta:2",
                            help="comma-separated built-in players: random, greedy, "
                            "alphabeta:D [random,greedy,alphabeta:2]; '' for none")
    # grader.play.schedule.SCHEDULES, spelled out: importing grader.play here would cost every
    # command (grader check too) the players' imports
    tournament.add_argument("--schedule", choices=("round-robin", "swiss", "sampled"),
                            default="round-robin",
                            help="who plays whom: everyone against everyone, Swiss rounds, or "
                            "rounds of random opponents [round-robin]")
    tournament.add_argument("--rounds", type=int, default=0, help="rounds of a swiss or "
                            "sampled schedule")
    tournament.add_argument("--pairs", type=int, default=1, help="pairs of games (seats "
                            "swapped) per matchup [1]")
    tournament.add_argument("--opening", type=int, help="random plies before each pair "
                            "[the match check's, else 2]")
    tournament.add_argument("--seed", type=int, help="seed of the openings [the match "
                            "check's, else 1]")
    tournament.add_argument("--move-seconds", type=float, help="CPU seconds per move [the "
                            "match check's, else the task's call_seconds]")
    tournament.add_argument("--game-seconds", type=float, help="CPU seconds per game and "
                            "player [the match check's, else 30 moves' worth]")
    tournament.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                            help="matchups played at once [number of cores]")
    tournament.add_argument("--cluster", metavar="ADDRESS", help="play on the Dask cluster "
                            "whose scheduler is at ADDRESS, each worker in its own sandbox; "
                            "needs pip install -e '.[cluster]'")
    tournament.add_argument("--resume", action="store_true", help="continue an interrupted "
                            "tournament in OUT: play only the matchups not in its journal")
    tournament.add_argument("--sandbox", choices=("auto", "bubblewrap", "container",
                                                  "process"), default="auto")
    tournament.add_argument("--allow-weak-sandbox", action="store_true",
                            help="play even at the 'process' level, where student code runs "
                            "as you")


def _gradescope_commands(command) -> None:
    """grader gradescope (the autograder zip) and grader gradescope-run (what its
    run_autograder calls inside Gradescope's image)."""
    gradescope = command("gradescope", help="write a Gradescope autograder zip",
                         description="Write a Gradescope autograder zip: setup.sh, "
                         "run_autograder, the task files and a wheel of this grader, which "
                         "grades each submission on every check (hidden ones included) "
                         "and writes Gradescope's results.json.", epilog=GRADESCOPE_EPILOG)
    gradescope.add_argument("--tasks", default="tasks", help="task file or folder [tasks]")
    gradescope.add_argument("--out", default="autograder.zip",
                            help="the zip to write [autograder.zip]")
    gradescope.add_argument("--lang", choices=("de", "en"), help="language of the feedback "
                            "in Gradescope [the course's]")
    gradescope.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)
    run = command("gradescope-run", help="grade one submission as the Gradescope "
                  "autograder does (run_autograder calls it)",
                  description="Grade ROOT/submission against ROOT/source/tasks on every "
                  "check at the strongest sandbox that works (hidden checks withheld at the "
                  "'process' level) and write ROOT/results/results.json in Gradescope's "
                  "format, with the course's leaderboard.", epilog=GRADESCOPE_RUN_EPILOG)
    run.add_argument("--root", default=os.environ.get("AUTOGRADER_ROOT", "/autograder"),
                     help="the autograder's folder [$AUTOGRADER_ROOT, else /autograder]")
    run.add_argument("--lang", choices=("de", "en"), help="language of the feedback "
                     "[the course's]")


def _shard(text: str):
    from .shards import parse_shard
    try:
        return parse_shard(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(argv=None) -> int:
    from .tasks import TaskFileError
    args = build_parser().parse_args(argv)
    try:
        with _caches_off(getattr(args, "no_cache", False)):
            return _command(args)
    except TaskFileError as error:
        # found only once answers are computed: a task whose reference search never ends
        err = _console(stderr=True)
        for problem in error.problems:
            err.print(str(problem), markup=False, highlight=False)
        err.print(f"{len(error.problems)} problem(s) in the task files; nothing was graded.",
                  markup=False)
        return EXIT_BAD_INPUT
    except ModuleNotFoundError as error:
        if error.name != "reference":
            raise
        # A grader installed from a self-check kit's wheel has no model solutions.
        _console(stderr=True).print(
            "This grader has no model solutions (it was installed from a self-check kit): "
            "only `grader check --kit KIT [FOLDER]` works with it.", markup=False)
        return EXIT_BAD_INPUT


@contextlib.contextmanager
def _caches_off(off: bool):
    """``--no-cache``: for the command's duration, GRADER_NO_CACHE=1, which every store of the
    cache folder (answers, parsed YAML, compiled templates, the runner's bytecode, the
    sources' digest) reads when it is used."""
    if not off:
        yield
        return
    from .cache import DISABLE_VARIABLE
    previous = os.environ.get(DISABLE_VARIABLE)
    os.environ[DISABLE_VARIABLE] = "1"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(DISABLE_VARIABLE, None)
        else:
            os.environ[DISABLE_VARIABLE] = previous


def _command(args) -> int:
    return {"grade": cmd_grade, "check": cmd_check, "solve": cmd_solve,
            "validate": cmd_validate, "import-trees": cmd_import, "kit": cmd_kit,
            "merge": cmd_merge, "classroom": cmd_classroom, "gradescope": cmd_gradescope,
            "gradescope-run": cmd_gradescope_run,
            "tournament": cmd_tournament, "sheets": cmd_sheets}[args.command](args)


# The collector's thresholds for a command: generation 0 is collected after 100,000 new
# container objects instead of 700.  A command makes a few hundred thousand objects that live
# to its end (tasks, random trees, answers, compiled templates, and the visit logs children
# send), and with the default (700, 10, 10) the collector scans them again and again: about
# 40 ms of a 0.45 s self-check, for almost no garbage (a check frees some 5,000 objects by
# collection).  Cyclic garbage is still collected, at most 100,000 objects late.
COLLECTOR_THRESHOLDS = (100_000, 50, 100)


def program() -> None:
    """The ``grader`` command itself.  After a self-check, the process ends without tearing
    the interpreter down (its exit handlers run, its output is flushed): a student waits for
    that teardown, and nothing of a check is left to it."""
    import gc
    gc.set_threshold(*COLLECTOR_THRESHOLDS)    # the batch's forked workers inherit them
    argv = sys.argv[1:]
    code = main(argv)
    if argv[:1] == ["check"]:
        import atexit
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


def cmd_tournament(args) -> int:
    """A class tournament (``grader.play.tournament``); SIGINT and SIGTERM stop it (exit 130)
    with every finished matchup in the journal.

    Its worker processes (``--jobs``) are started by multiprocessing's spawn as ``python -c
    ...``, which puts the current folder first on their import path before they learn the
    grader's: a student's ``pickle.py`` or ``socket.py`` there would run in them, as you.
    ``PYTHONSAFEPATH`` (Python 3.11 and later) keeps it off; the sandboxed players' own
    environment is built from scratch and never sees it."""
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    safe_path = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        return _tournament(args)
    except KeyboardInterrupt:
        _console(stderr=True).print("Interrupted; continue with --resume.", markup=False)
        return EXIT_INTERRUPTED
    finally:
        signal.signal(signal.SIGTERM, previous)
        if safe_path is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = safe_path


def _tournament(args) -> int:
    import tempfile
    from .cluster import ClusterError
    from .play.entrants import TournamentError, playable_task, setup_from_task, stage_entrants
    from .play.tournament import run_tournament, seated
    from .report.tournament import write_reports
    from .report.safe import terminal_text
    from .submissions.staging import tasks_hash
    err = _console(stderr=True)
    course = _load(args.tasks, err)
    if course is None:
        return EXIT_BAD_INPUT
    root = Path(args.submissions)
    if not root.is_dir():
        err.print(f"{root}: no such folder; pass the folder of submissions with --submissions",
                  markup=False)
        return EXIT_BAD_INPUT
    level = _batch_level(args, err, "play")
    if level is None:
        return EXIT_BAD_INPUT
    out = Path(args.out)
    baselines = [name.strip() for name in args.baselines.split(",") if name.strip()]
    with tempfile.TemporaryDirectory(prefix="grader-tournament-") as scratch:
        try:
            task = playable_task(course, args.task)
            setup = setup_from_task(course, task, schedule=args.schedule, rounds=args.rounds,
                                    pairs=args.pairs, opening=args.opening, seed=args.seed,
                                    move_seconds=args.move_seconds,
                                    game_seconds=args.game_seconds, level=level)
            modules = tuple(dict.fromkeys(
                [setup.module] + ([setup.evaluation.partition(".")[0]]
                                  if setup.evaluation else [])))
            entrants, left_out = stage_entrants(root, Path(scratch), modules, baselines)
            for entry in left_out:
                err.print(f"Left out {terminal_text(entry['name'])}: "
                          f"{terminal_text(entry['problem'])}", markup=False, highlight=False)
            done = [0, 0]

            def announce(total, already):
                done[:] = [already, total]
                if already:
                    err.print(f"{already} of {total} matchups already played (--resume)",
                              markup=False)

            def played(matchup, outcome):
                done[0] += 1
                if "games" in outcome:
                    scored = [seated(matchup.a, matchup.b, number, replay)
                              for number, replay in enumerate(outcome["games"], 1)]
                    points = sum(p if first == matchup.a else 1 - p
                                 for first, _, p in scored)
                    what = f"{points:g}-{2 - points:g}"
                else:
                    what = "failed in the grader (listed; --resume plays it again)"
                err.print(f"[{done[0]}/{done[1]}] {terminal_text(matchup.a)} - "
                          f"{terminal_text(matchup.b)}: {what}", markup=False,
                          highlight=False)
            from .play.arena import ClusterPlay
            from .play.tournament import Progress
            executor = (ClusterPlay(setup, entrants, args.cluster) if args.cluster
                        else None)
            try:
                outcome = run_tournament(setup, entrants, out, jobs=args.jobs,
                                         resume=args.resume,
                                         tasks_hash=tasks_hash(course.source_files),
                                         left_out=left_out,
                                         progress=Progress(announce, played),
                                         executor=executor)
            finally:
                if executor is not None:
                    executor.close()
        except (TournamentError, ClusterError) as error:
            err.print(f"{error}; no game was played.", markup=False, highlight=False)
            return EXIT_BAD_INPUT
    write_reports(out, outcome)
    from .play.ratings import leaderboard
    for rank, rating in enumerate(leaderboard(outcome.ratings), 1):
        err.print(f"{rank:3d}. {terminal_text(rating.player)}: {rating.mu:.1f} "
                  f"± {rating.z * rating.sigma:.1f} ({rating.wins}-{rating.draws}-"
                  f"{rating.losses})", markup=False, highlight=False)
    err.print(f"{len(outcome.record['games'])} games in "
              f"{outcome.record['wall_seconds']:g} s. Leaderboard: {out / 'leaderboard.html'}",
              markup=False, highlight=False)
    return EXIT_FAILED if outcome.errors else EXIT_OK


def cmd_merge(args) -> int:
    from .merge import MergeError, merge
    from .report.safe import terminal_text
    err = _console(stderr=True)
    course = _load(args.tasks, err)
    if course is None:
        return EXIT_BAD_INPUT
    roster = _roster(args.roster, err)
    if roster is False:
        return EXIT_BAD_INPUT
    handback = _handback(None, roster, args.moodle_scale, course, err)
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
    catalogue = _catalogue(course, outcome.language)
    outcome.export_errors += _write_lms(args, outcome.results, catalogue, Path(args.out), err,
                                        None, roster)
    for problem in outcome.export_errors:
        err.print(f"Could not write {terminal_text(problem)}", markup=False, highlight=False)
    items = handback.items(outcome.results)
    _needs_person(err, outcome.results, items, args.out)
    _closing_line(err, f"Merged {len(args.shards)} shard(s): {len(outcome.results)} "
                       "submission(s)", outcome, course, args.out, items)
    return EXIT_FAILED if outcome.export_errors else EXIT_OK


def cmd_gradescope(args) -> int:
    from .lms.gradescope import build_autograder
    from .wheel import WheelError
    err = _console(stderr=True)
    checked = _checked_course(args.tasks, args, err)
    if checked is None:
        return EXIT_BAD_INPUT
    course, _ = checked
    try:
        out = build_autograder(course, Path(args.out), args.lang)
    except ValueError as error:     # a game module the zip cannot hold where the tasks look
        err.print(str(error), markup=False, highlight=False)
        return EXIT_BAD_INPUT
    except (OSError, WheelError) as error:
        err.print(f"Could not write {args.out}: {error}", markup=False, highlight=False)
        return EXIT_FAILED
    err.print(f"Wrote {out}: {len(course.tasks)} tasks, {course.max_score:g} points. Upload "
              "it as the assignment's autograder on Gradescope (Configure Autograder).",
              markup=False, highlight=False)
    return EXIT_OK


def cmd_gradescope_run(args) -> int:
    from .lms.gradescope import run
    try:
        return run(Path(args.root), args.lang)
    except OSError as error:   # results.json could not be written
        print(f"Could not write {Path(args.root) / 'results' / 'results.json'}: {error}",
              file=sys.stderr)
        return EXIT_FAILED


def _closing_line(err, done: str, outcome, course, out, items=()) -> None:
    """What a batch or a merge did: how many, the average of the grades given, who needs a
    person (submissions, and the hand-back's ``items``: participants left without a grade),
    where."""
    from .report.grades import has_grade
    from .report.writers import needs_person
    results = outcome.results
    attention = sum(1 for r in results if needs_person(r))
    graded = [r.score for r in results if has_grade(r)]
    average = sum(graded) / len(graded) if graded else 0.0
    said = [f"{attention} submission(s)" if attention else "",
            f"{len(items)} hand-back item(s)" if items else ""]
    err.print(f"{done}; average {average:.1f}/{course.max_score:g}"
              + (f"; {' and '.join(s for s in said if s)} need a person (see "
                 f"{out}/summary.html#attention)" if attention or items else "")
              + f". Reports: {out}/gradebook.csv, {out}/summary.html",
              markup=False, highlight=False)


def cmd_import(args) -> int:
    from .importer import import_trees, to_yaml
    err = _console(stderr=True)
    folder = Path(args.folder)
    if not folder.is_dir():
        err.print(f"{folder}: no such folder", markup=False)
        return EXIT_BAD_INPUT
    if args.prefix is not None and not re.fullmatch(r"[A-Za-z0-9_.-]+", args.prefix):
        err.print(f"--prefix {args.prefix!r}: use letters, digits, '-', '_' or '.'",
                  markup=False)
        return EXIT_BAD_INPUT
    document, problems, skipped = import_trees(folder, args.module, args.prefix)
    for warning in skipped:
        err.print(f"warning: {warning}", markup=False, highlight=False)
    for problem in problems:
        err.print(str(problem), markup=False, highlight=False)
    if not document["tasks"]:
        err.print(f"{folder}: no test could be imported", markup=False)
        return EXIT_BAD_INPUT
    text = to_yaml(document)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        err.print(f"Wrote {len(document['tasks'])} task(s) to {args.out}; check them with "
                  f"`grader validate {args.out}`.", markup=False)
    else:
        print(text, end="")
    return EXIT_BAD_INPUT if problems else EXIT_OK


def _load(path, err: Console):
    """The course, or None after printing every problem (file:line: what is wrong)."""
    from .tasks import TaskFileError, load_course
    try:
        course = load_course(path)
        for warning in course.warnings:
            err.print(f"warning: {warning}", markup=False, highlight=False)
        return course
    except TaskFileError as error:
        for problem in error.problems:
            err.print(str(problem), markup=False, highlight=False)
        err.print(f"{len(error.problems)} problem(s) in the task files; nothing was graded.",
                  markup=False)
        return None


def _catalogue(course, lang):
    from .report.messages import Catalogue
    return Catalogue(lang or course.language)


def _answer_book(course, args):
    """The reference answers' book: backed by the on-disk cache unless ``--no-cache``."""
    from .answers.book import AnswerBook
    return AnswerBook.for_course(course, use_cache=not args.no_cache)


def _checked_course(path, args, err: Console):
    """``(course, answers)``: the task files loaded and every answer they pin verified (the
    answers computed, or taken from the cache, on the way); None after saying what is
    wrong."""
    from .grading import prepare
    course = _load(path, err)
    if course is None:
        return None
    _, answers = prepare(course, answers=_answer_book(course, args))
    if not _pins_hold(course, answers, err):
        return None
    return course, answers


def _pins_hold(course, answers, err: Console) -> bool:
    from .answers.pins import verify_pins
    problems = verify_pins(course, answers)
    for problem in problems:
        err.print(str(problem), markup=False, highlight=False)
    if problems:
        err.print("Pinned answers disagree with the reference; fix the pins (or the task).",
                  markup=False)
    return not problems


def cmd_grade(args) -> int:
    """Grade a batch; SIGINT and SIGTERM stop it (exit 130) with what was graded written."""
    from .batch import EnvironmentFailure
    from .cluster import ClusterError
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        return _grade(args)
    except EnvironmentFailure as error:
        # One line, not a class graded 0: nothing here is the students' doing.
        _console(stderr=True).print(f"Cannot grade here: {error}. Fix that and run the same "
                                    f"command again (with --resume to keep what was "
                                    f"graded).", markup=False, highlight=False, soft_wrap=True)
        return EXIT_CANNOT_GRADE
    except KeyboardInterrupt:
        _console(stderr=True).print("Interrupted.", markup=False)
        return EXIT_INTERRUPTED
    except ClusterError as error:   # --cluster: Dask missing, scheduler unreachable
        _console(stderr=True).print(f"{error}; nothing was graded.", markup=False,
                                    highlight=False)
        return EXIT_BAD_INPUT
    finally:
        signal.signal(signal.SIGTERM, previous)


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


def _grade(args) -> int:
    from .submissions.downloads import DownloadError, prepare
    err = _console(stderr=True)
    checked = _checked_course(args.tasks, args, err)
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
    from .batch import grade_batch
    from .report.safe import terminal_text
    from .submissions.finding import find
    course, answers = checked
    listed = find(root)
    if not listed:
        from .submissions.finding import passed_over
        skipped = passed_over(root)
        hint = (f" (only {', '.join(skipped)}, whose names start with . or _ and are taken for "
                "hidden or tool folders)" if skipped else "")
        err.print(f"{root}: holds no submission folders or archives{terminal_text(hint)}",
                  markup=False)
        return EXIT_BAD_INPUT
    count = len(args.shard.select(listed)) if args.shard else len(listed)
    out = Path(args.out)
    catalogue = _catalogue(course, args.lang)
    worksheet = _worksheet(args.moodle_worksheet, err)
    if worksheet is False:
        return EXIT_BAD_INPUT
    roster = _roster(args.roster, err)
    if roster is False:
        return EXIT_BAD_INPUT
    handback = _handback(worksheet, roster, args.moodle_scale, course, err)
    if handback is None:
        return EXIT_BAD_INPUT
    level = _batch_level(args, err, "grade a batch")
    if level is None:
        return EXIT_BAD_INPUT

    def line(result, done, total):
        from .report.grades import has_grade
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
        outcome.export_errors += _write_lms(args, results, catalogue, out, err, worksheet,
                                            roster)
    for problem in outcome.export_errors:
        err.print(f"Could not write {terminal_text(problem)}", markup=False, highlight=False)
    from .submissions.finding import passed_over
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
    _needs_person(err, results, items, out)
    _closing_line(err, f"Graded {len(results)} submission(s){shard}", outcome, course, out,
                  items)
    return EXIT_FAILED if outcome.export_errors else EXIT_OK


def _worksheet(path: str | None, err):
    """The worksheet (``lms.moodle.Worksheet``), None without one, False (after saying
    why) when it is unusable: checked before anything is graded."""
    if path is None:
        return None
    from .lms.moodle import Worksheet, WorksheetError
    try:
        return Worksheet(Path(path).read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, WorksheetError) as error:
        err.print(f"--moodle-worksheet {path}: {error}", markup=False, highlight=False)
        return False


def _handback(worksheet, roster, scale, course, err):
    """The batch's hand-back (``lms.handback.Handback``), after saying loudly what its
    scale does to the grades; None (after saying why) when the course's points cannot be
    written on the LMS's scale: checked before anything is graded."""
    from .lms.handback import Handback
    handback = Handback(worksheet or None, roster or None, scale)
    refusals, warnings = handback.problems(course.max_score)
    for line in warnings:
        err.print(f"WARNING: {line}", markup=False, highlight=False, style="bold yellow")
    for line in refusals:
        err.print(line, markup=False, highlight=False)
    if refusals:
        err.print("The grades cannot be written on the LMS's scale; nothing was graded.",
                  markup=False)
        return None
    return handback


def _write_worksheet(sheet, results, catalogue, out: Path, scale) -> list[str]:
    """Write the filled-in worksheet (what it leaves to a person is listed at the end)."""
    from .report.grades import grade_comment
    from .lms.handback import fill, match_worksheet
    from .report.files import write_atomically
    fill(sheet, match_worksheet(sheet, results), scale,
         lambda result: grade_comment(result, catalogue))
    try:
        write_atomically(out / "moodle-worksheet.csv", sheet.text())
    except OSError as error:
        return [f"{out / 'moodle-worksheet.csv'}: {error}"]
    return []


def _needs_person(err, results, items, out) -> None:
    """At the end of a batch, everything a person must decide, one line each, in the
    terminal's language (English): the submissions that could not be graded as handed in
    or carry a note that needs a decision, then the hand-back's participants without a grade
    and folders no one got (``lms.handback``).  The harmless notes stay on the summary
    page."""
    from .notes import needs_person
    from .report.messages import Catalogue
    from .report.safe import terminal_text
    from .report.writers import note_text
    english = Catalogue("en")
    lines = []
    for result in sorted(results, key=lambda r: r.student):
        said = ([english.text(f"ui.{result.problem}", detail=result.problem_detail)]
                if result.problem else [])
        said += [note_text(note, english) for note in result.notes if needs_person(note)]
        if said:
            lines.append(f"  {result.display}: {' '.join(said)}")
    lines += [f"  {item.text(english)}" for item in items]
    if not lines:
        return
    err.print(f"Needs a person (also in {out}/summary.html#attention):", markup=False,
              highlight=False)
    for line in lines:
        err.print(terminal_text(line), markup=False, highlight=False)


# -- LMS round trips: the roster, Moodle's feedback zip, ILIAS's status file and zip ----------

LMS_HELP = ("which LMS the feedback goes back to: moodle writes OUT/moodle-feedback.zip "
            "(Upload multiple feedback files in a zip), ilias OUT/ilias-status.csv and "
            "OUT/ilias-feedback.zip (multi-feedback upload), none neither [auto: moodle when a "
            "folder is named like Moodle's download (Name_123456_assignsubmission_file_), "
            "else ilias when one is named like ILIAS's (Lastname_Firstname_Login_123)]")


def _lms_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--roster", metavar="FILE", help="the course's participants as CSV "
                         "(Moodle's participants or gradebook export, or the grading "
                         "worksheet; English or German headers): moodle.csv then names each "
                         "student by username (else ID number, else email address) for "
                         "Moodle's gradebook import, and leaves out, and lists, whom the "
                         "roster does not name [moodle.csv names the folders]")
    command.add_argument("--lms", choices=("auto", "moodle", "ilias", "none"), default="auto",
                         help=LMS_HELP)
    command.add_argument("--moodle-scale", type=_scale, default="worksheet",
                         metavar="worksheet|points|percent|MAXIMUM",
                         help="the scale Moodle grades are written on, in the worksheet and "
                         "moodle.csv: worksheet (the worksheet's or roster's Maximum Grade: 54 "
                         "of 60 points are 9.00 out of 10.00; points where it states none), "
                         "points (as graded), percent, or the grade item's maximum, e.g. 10; "
                         "the feedback comment always says the points [worksheet]")
    command.add_argument("--ilias-pass", type=_percent, default=50.0, metavar="PERCENT",
                         help="in ilias-status.csv, passed from this share of the points on, "
                         "else failed [50]")


def _scale(text: str):
    from .lms.handback import Scale
    try:
        return Scale.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _percent(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"{text!r}: give a percentage from 0 to 100")
    return value


def _roster(path: str | None, err):
    """The roster, None without one, False (after printing every problem) when it is
    unusable: checked before anything is graded."""
    if path is None:
        return None
    from .lms.roster import RosterError, read_roster
    try:
        return read_roster(path)
    except RosterError as error:
        for problem in error.problems:
            err.print(f"--roster {problem}", markup=False, highlight=False)
        err.print("The roster cannot be used; nothing was graded.", markup=False)
        return False


def _write_lms(args, results, catalogue, out: Path, err, worksheet=None,
               roster=None) -> list[str]:
    """The feedback zips and ILIAS's status file the submissions' LMS takes back (see
    ``--lms``; with the worksheet, Moodle's zip reaches the participants it matched, every
    member of a team), with what they leave out printed in English (the files are in the
    course's language); returns what could not be written."""
    from .lms import handback, ilias, moodle
    from .report.files import write_atomically
    from .report.messages import Catalogue
    from .report.safe import terminal_text
    english = Catalogue("en")
    to_moodle = args.lms == "moodle" or (args.lms == "auto"
                                         and moodle.looks_like_download(results))
    to_ilias = args.lms == "ilias" or (args.lms == "auto" and not to_moodle
                                       and ilias.looks_like_download(results))
    files, problems = {}, {}
    if to_moodle:
        # the zip holds the pages as written; the catalogue says only what was left out
        files["moodle-feedback.zip"], problems["moodle-feedback.zip"] = \
            handback.feedback_zip(results, out, english, worksheet or None, roster)
    if to_ilias:
        status_text, _ = ilias.status_csv(results, catalogue, args.ilias_pass)
        files["ilias-status.csv"] = status_text
        files["ilias-feedback.zip"], more = ilias.feedback_zip(results, out, english,
                                                               status_text)
        listed = ilias.status_csv(results, english, args.ilias_pass)[1]
        problems["ilias-status.csv"] = list(dict.fromkeys(listed + more))
    for name, listed in problems.items():
        for problem in listed:
            err.print(f"{name}: {terminal_text(problem)}", markup=False, highlight=False)
    errors = []
    for name, content in files.items():
        try:
            write_atomically(out / name, content)
        except OSError as error:
            errors.append(f"{out / name}: {error}")
    return errors


def cmd_kit(args) -> int:
    from .kit import build_kit
    from .report.safe import terminal_text
    err = _console(stderr=True)
    checked = _checked_course(args.tasks, args, err)
    if checked is None:
        return EXIT_BAD_INPUT
    course, answers = checked
    try:
        written = build_kit(course, answers, Path(args.out))
    except OSError as error:
        err.print(f"Could not write the kit: {terminal_text(str(error))}", markup=False,
                  highlight=False)
        return EXIT_FAILED
    from .kit import visible_course
    shown, left_out = visible_course(course)
    judged = left_out - course.hidden_count
    err.print(f"Wrote the self-check kit to {args.out} ({', '.join(p.name for p in written)}): "
              f"{sum(len(task.checks) for task in shown.tasks)} checks, "
              f"{course.hidden_count} hidden ones left out"
              + (f", and {judged} judged with the model solutions (run only when grading)"
                 if judged else "")
              + f". Students run: python3 {Path(args.out) / 'check.py'} [their folder]",
              markup=False, highlight=False)
    return EXIT_OK


def _check_source(args, err):
    """``(course, answers, hidden checks)`` of a self-check: from ``--kit`` or the task
    files; None after saying what is wrong."""
    if args.kit:
        from .kit import KitError, load_kit
        try:
            kit = load_kit(args.kit)
        except KitError as error:
            err.print(str(error), markup=False, highlight=False)
            return None
        return kit.course, (lambda: kit.answers), kit.hidden
    course = _load(args.tasks, err)
    if course is None:
        return None
    return course, (lambda: _answer_book(course, args)), course.hidden_count


def cmd_check(args) -> int:
    err = _ConsoleLater()
    source = _check_source(args, err)
    if source is None:
        return EXIT_BAD_INPUT
    course, answer_book, hidden = source
    folder = Path(args.folder)
    if not folder.is_dir():
        err.print(f"{folder}: no such folder", markup=False)
        return EXIT_BAD_INPUT
    level = _level(args.sandbox, err)
    if level is None:
        return EXIT_BAD_INPUT
    from .single import grade_folder
    result = grade_folder(course, folder, level, answers=answer_book,
                          while_waiting=_report_modules, identity=args.student)
    # Colour only where the markup puts it: rich's highlighting of numbers and quotes in
    # every message would colour at random and costs half of printing the feedback.
    from rich.console import Console
    from .report.terminal import check_lines, markup, render
    console = Console(highlight=False, soft_wrap=True)
    catalogue = _catalogue(course, args.lang)
    from .report.views import student_view
    view = student_view(result, course, catalogue, html=False)
    # Failures first and whole, a passing task in one line; wrapped between words at the
    # terminal's width, and not at all without a terminal (a CI log keeps its sentences).
    lines = check_lines(view, catalogue,
                        catalogue.text("ui.feedback_title", student=folder.resolve().name))
    width = console.width if console.is_terminal else None
    if hidden:
        lines += [("", "", ""), ("", "", catalogue.text("ui.hidden_not_run", count=hidden))]
    # one print of all lines: rich's work per call is most of printing a line
    console.print(markup(render(lines, width)))
    from .report.grades import points_line
    from .report.writers import junit_xml, write_student
    from .report.files import write_atomically
    written = write_student(_check_out(args.out, folder), result, course, catalogue, view)
    write_atomically(written / "junit.xml", junit_xml([result], course, catalogue))
    console.print(markup(render([
        ("", "", catalogue.text("ui.feedback_page", path=str(written / "feedback.html"))),
        ("", "", f"{catalogue.text('ui.score')}: {result.score:g}/{result.max_score:g}")],
        width)))
    if args.points:
        print(points_line(result))
    if args.classroom_result and not _write_classroom_result(args.classroom_result, result,
                                                             course, catalogue, err):
        return EXIT_BAD_INPUT
    return EXIT_OK if all(v.passed for v in result.verdicts) else EXIT_FAILED


def _write_classroom_result(path: str, result, course, catalogue, err) -> bool:
    from .lms.classroom import reporter_result, write_result
    try:
        write_result(Path(path), reporter_result(result, course, catalogue))
    except OSError as error:
        err.print(f"--classroom-result {path}: {error}", markup=False, highlight=False)
        return False
    return True


def cmd_classroom(args) -> int:
    from .lms.classroom import PLACEHOLDER_INSTALL, WorkflowError, workflow
    from .report.files import write_atomically
    err = _console(stderr=True)
    if args.kit:
        from .kit import KitError, load_kit
        try:
            kit = load_kit(args.kit)
        except KitError as error:
            err.print(str(error), markup=False, highlight=False)
            return EXIT_BAD_INPUT
        course, hidden_checks = kit.course, kit.hidden
    else:
        course = _load(args.tasks, err)
        if course is None:
            return EXIT_BAD_INPUT
        hidden_checks = None
    try:
        text = workflow(args.tasks, args.install or PLACEHOLDER_INSTALL, args.lang, args.kit)
    except WorkflowError as error:
        err.print(str(error), markup=False, highlight=False)
        return EXIT_BAD_INPUT
    try:
        write_atomically(Path(args.out), text)
    except OSError as error:
        err.print(f"Could not write {args.out}: {error}", markup=False, highlight=False)
        return EXIT_BAD_INPUT
    visible = course.visible_checks
    hidden = course.hidden_count if hidden_checks is None else hidden_checks
    err.print(f"Wrote {args.out}: {len(visible)} visible check(s), "
              f"{sum(c.points for c in visible):g} points reach Classroom"
              + (f"; the {hidden} hidden check(s) run only with grader grade" if hidden else "")
              + ".", markup=False, highlight=False)
    if args.install is None and not args.kit:
        err.print(f"The workflow installs the grader from the placeholder "
                  f"'{PLACEHOLDER_INSTALL}': replace it in {args.out}, or write the workflow "
                  "again with --install SPEC.", markup=False, highlight=False)
    return EXIT_OK

def _check_out(out: str | None, folder: Path) -> Path:
    """Where a self-check writes: ``--out``, else reports/check, unless that lies inside the
    submission (a student checking the folder they are in), then the cache folder's check/."""
    if out is not None:
        return Path(out)
    default = Path("reports") / "check"
    if not default.resolve().is_relative_to(folder.resolve()):
        return default
    from .cache import cache_dir
    return cache_dir() / "check"


def _report_modules() -> None:
    """Import what the report needs (run in a thread while the check waits for its child).
    A failure is ignored: whoever needs a module imports it again and sees the error there."""
    import importlib
    try:
        for name in ("rich.console", "grader.report.views", "grader.report.writers"):
            importlib.import_module(name)
    except BaseException:  # noqa: BLE001 - see the docstring
        pass


def _batch_level(args, err: Console, what: str) -> str | None:
    """The isolation level for many submissions (``--sandbox``), or None after saying why
    not: the 'process' level only with ``--allow-weak-sandbox``."""
    from .sandbox.base import STRONG_LEVELS
    level = _level(args.sandbox, err)
    if level is not None and level not in STRONG_LEVELS and not args.allow_weak_sandbox:
        err.print(f"Refusing to {what} at the '{level}' isolation level: student code "
                  "would run as you, able to read the task files, the reference and the other "
                  "submissions. Install bubblewrap (apt-get install -y --no-install-recommends "
                  "bubblewrap), or run as root in a container for the 'container' level, or "
                  "pass --allow-weak-sandbox if you trust every submission.", markup=False)
        return None
    return level


def _level(choice: str, err: Console) -> str | None:
    from .sandbox.levels import best_level, container_problem
    from .sandbox.bubblewrap import bubblewrap_works
    if choice == "auto":
        return best_level()
    if choice == "bubblewrap" and not bubblewrap_works():
        err.print("bubblewrap is not installed or cannot create namespaces here; install it "
                  "(apt-get install -y --no-install-recommends bubblewrap) or use "
                  "--sandbox container (as root) or --sandbox process", markup=False)
        return None
    if choice == "container" and container_problem() is not None:
        err.print(f"--sandbox container does not work here: {container_problem()}",
                  markup=False)
        return None
    return choice


def _escape(text: str) -> str:
    """For rich: no markup and no control characters from a submission reach the terminal."""
    from rich.markup import escape
    from .report.safe import terminal_text
    return escape(terminal_text(text))


def solutions(course, answers) -> list[dict]:
    """One object per task and function: the reference's answers."""
    from .checks.common import search_call
    from .checks.evaluate import calls as evaluate_calls
    from .answers.pins import pruned_nodes
    from .tasks import SEARCH_FUNCTIONS
    rows = []
    for task in course.tasks:
        for function in task.functions:
            reference = task.reference_of(function)
            if task.game_spec is not None and reference in SEARCH_FUNCTIONS:
                answer = answers[search_call(task, function)][0]
                row = {"task": task.id, "function": function, "value": answer["value"],
                       "move": answer["action"], "optimal_moves": answer["optimal_actions"],
                       "visited": len(answer["visits"]), "visit_order": answer["visits"]}
                if task.depth:
                    row["depth"] = task.depth
                if task.heuristic:
                    row["heuristic"] = task.heuristic
                if task.game == "tree" and reference == "alphabeta":
                    row["pruned"] = pruned_nodes(task, function, answers)
                rows.append(row)
            elif function == "evaluate":
                for check in task.checks:
                    if check.kind == "evaluate":
                        value = answers[evaluate_calls(task, check)[0]][0]["value"]
                        rows.append({"task": task.id, "function": function, "value": value,
                                     "move": None, "visited": None,
                                     "board": check.option("board"),
                                     "player": check.option("player")})
            if task.game_spec is not None and reference in ("iterative_deepening",
                                                            "principal_variation"):
                rows.append(deepening_solution(task, function, answers))
            rows += ordering_solutions(task, function, answers)
            for check in task.checks:
                if check.kind == "random-trees" and check.function == function:
                    rows.append({"task": task.id, "function": function, "value": None,
                                 "move": None, "visited": None, "check": check.id,
                                 "seed": check.option("seed"), "trees": check.option("trees")})
    return rows


def deepening_solution(task, function, answers) -> dict:
    """Iterative deepening's row (the deepest iteration's value and move, each iteration's
    values) or the principal variation's (its value, and the line as the move)."""
    from .checks.common import search_call
    answer = answers[search_call(task, function)][0]
    value, move = answer["returned"][-1] if "iterations" in answer else answer["returned"]
    row = {"task": task.id, "function": function, "value": value, "move": move,
           "visited": len(answer["visits"]), "visit_order": answer["visits"],
           "depth": task.depth}
    if "iterations" in answer:
        row["values"] = [facts["value"] for facts in answer["iterations"]]
    if task.heuristic:
        row["heuristic"] = task.heuristic
    return row


def ordering_solutions(task, function, answers) -> list[dict]:
    """A move ordering's rows: alpha-beta with the model ordering (value, move, nodes) and
    the nodes in the game's own order (``plain_visited``), to choose an ``at_most`` from."""
    from .checks import ordering
    rows = []
    for check in task.checks:
        if check.kind == ordering.KIND and check.function == function:
            search = answers[ordering.calls(task, check)[0]][0]["search"]
            rows.append({"task": task.id, "function": function,
                         "value": search["model"]["value"], "move": search["model"]["action"],
                         "visited": search["model"]["count"],
                         "plain_visited": search["plain"]["count"]})
    return rows


def cmd_solve(args) -> int:
    from .grading import prepare
    err = _console(stderr=True)
    course = _load(args.path, err)
    if course is None:
        return EXIT_BAD_INPUT
    _, answers = prepare(course, answers=_answer_book(course, args))
    rows = solutions(course, answers)
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return EXIT_OK
    from rich.table import Table
    table = Table(title=course.title)
    # A depth-limited game's heuristic is shown by name (never its formula or values).
    heuristics = any("heuristic" in row for row in rows)
    for column in ("task", "function", "value", "move", "visited", "pruned") \
            + (("depth", "heuristic") if heuristics else ()):
        table.add_column(column)
    for row in rows:
        if row["value"] is None and "seed" in row:
            continue
        cells = [row["task"], row["function"], str(row["value"]), str(row["move"]),
                 str(row["visited"] if row["visited"] is not None else ""),
                 ", ".join(row.get("pruned", [])) or ""]
        if heuristics:
            cells += [str(row.get("depth", "")), row.get("heuristic", "")]
        table.add_row(*cells)
    _console().print(table)
    return EXIT_OK


def cmd_validate(args) -> int:
    from .grading import prepare
    err = _console(stderr=True)
    course = _load(args.path, err)
    if course is None:
        return EXIT_BAD_INPUT
    _, answers = prepare(course, answers=_answer_book(course, args))
    if not _pins_hold(course, answers, err):
        return EXIT_FAILED
    checks = sum(len(t.checks) for t in course.tasks)
    _console().print(f"OK: {len(course.tasks)} tasks, {checks} checks, "
                    f"{course.max_score:g} points; every pinned answer matches the reference.",
                    markup=False, highlight=False)
    return EXIT_OK


if __name__ == "__main__":
    program()
