"""``grader sheets``: per-student sheets of the course's hand exercises (each student's own
tree, the answer template and form, the solutions, a Moodle question bank)."""

from __future__ import annotations

from pathlib import Path

from .common import (EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, NO_CACHE_HELP, console, load_tasks,
                     reference_answers)

NAME = "sheets"

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


def register(command) -> None:
    sheets = command(NAME, help="one sheet per student for the hand exercises: their own "
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


def run(args) -> int:
    from ..hand.sheets import SheetsError, from_folder, from_names, from_roster, write_sheets
    from ..report.messages import Catalogue
    from ..lms.roster import RosterError
    err = console(stderr=True)
    course = load_tasks(args.tasks, err)
    if course is None:
        return EXIT_BAD_INPUT
    try:
        students = (from_roster(args.roster) if args.roster else
                    from_folder(args.students) if args.students else from_names(args.names))
        answers = reference_answers(course, args)
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
