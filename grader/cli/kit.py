"""``grader kit``: the self-check kit an instructor hands students (the visible checks, their
answers sealed, a grader without the model solutions, and check.py)."""

from __future__ import annotations

from pathlib import Path

from .common import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, NO_CACHE_HELP, checked_course, console

NAME = "kit"

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


def register(command) -> None:
    kit = command(NAME, help="write a self-check kit for students: visible checks, their "
                  "answers, no model solutions", description="Write the self-check kit an "
                  "instructor hands students: the visible checks with their answers "
                  "precomputed and sealed, a grader without the model solutions, and check.py "
                  "to run it.", epilog=KIT_EPILOG)
    kit.add_argument("--tasks", default="tasks", help="task file or folder [tasks]")
    kit.add_argument("--out", required=True, metavar="DIR", help="the kit's folder (created)")
    kit.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)


def run(args) -> int:
    from ..kit import build_kit
    from ..report.safe import terminal_text
    err = console(stderr=True)
    checked = checked_course(args.tasks, args, err)
    if checked is None:
        return EXIT_BAD_INPUT
    course, answers = checked
    try:
        written = build_kit(course, answers, Path(args.out))
        answers.save()      # the variants' answers, the dearest part: the next kit reads them
    except OSError as error:
        err.print(f"Could not write the kit: {terminal_text(str(error))}", markup=False,
                  highlight=False)
        return EXIT_FAILED
    from ..kit import visible_course
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
