"""``grader classroom``: the GitHub Actions workflow that grades a GitHub Classroom
assignment on every push and reports the points to Classroom."""

from __future__ import annotations

from pathlib import Path

from .common import EXIT_BAD_INPUT, EXIT_OK, console, load_tasks

NAME = "classroom"

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


def register(command) -> None:
    classroom = command(NAME, help="write the GitHub Classroom autograding workflow "
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


def run(args) -> int:
    from ..lms.classroom import PLACEHOLDER_INSTALL, WorkflowError, workflow
    from ..report.files import write_atomically
    err = console(stderr=True)
    if args.kit:
        from ..kit import KitError, load_kit
        try:
            kit = load_kit(args.kit)
        except KitError as error:
            err.print(str(error), markup=False, highlight=False)
            return EXIT_BAD_INPUT
        course, hidden_checks = kit.course, kit.hidden
    else:
        course = load_tasks(args.tasks, err)
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
