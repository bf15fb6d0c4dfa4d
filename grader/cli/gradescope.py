"""``grader gradescope``: a Gradescope autograder zip (setup.sh, run_autograder, the task
files and a wheel of this grader)."""

from __future__ import annotations

from pathlib import Path

from .common import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, NO_CACHE_HELP, checked_course, console

NAME = "gradescope"

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


def register(command) -> None:
    gradescope = command(NAME, help="write a Gradescope autograder zip",
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


def run(args) -> int:
    from ..lms.gradescope import build_autograder
    from ..wheel import WheelError
    err = console(stderr=True)
    checked = checked_course(args.tasks, args, err)
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
