"""``grader validate``: the task files are well-formed and every answer they pin is the
reference's."""

from __future__ import annotations

from .common import (EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, NO_CACHE_HELP, console, load_tasks,
                     pins_hold, reference_answers)

NAME = "validate"

VALIDATE_EPILOG = """\
example:
  grader validate tasks/

Every problem is printed with its file and line.

exit status: 0 the task files are well-formed and every pinned answer holds; 1 a pinned
answer disagrees with the reference; 2 a task file is malformed."""


def register(command) -> None:
    validate = command(NAME, help="check task files and their pinned answers",
                       description="Check the task files and verify every answer "
                       "they pin against the reference.", epilog=VALIDATE_EPILOG)
    validate.add_argument("path", nargs="?", default="tasks", help="task file or folder [tasks]")
    validate.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)


def run(args) -> int:
    err = console(stderr=True)
    course = load_tasks(args.path, err)
    if course is None:
        return EXIT_BAD_INPUT
    answers = reference_answers(course, args)
    if not pins_hold(course, answers, err):
        return EXIT_FAILED
    checks = sum(len(t.checks) for t in course.tasks)
    console().print(f"OK: {len(course.tasks)} tasks, {checks} checks, "
                   f"{course.max_score:g} points; every pinned answer matches the reference.",
                   markup=False, highlight=False)
    return EXIT_OK
