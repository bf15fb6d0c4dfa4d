"""``grader gradescope-run``: one submission graded as the Gradescope autograder does (its
run_autograder calls this inside Gradescope's image)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .common import EXIT_FAILED

NAME = "gradescope-run"

GRADESCOPE_RUN_EPILOG = """\
example (what run_autograder does; a folder standing in for /autograder):
  mkdir -p ag/source ag/submission && unzip -q autograder.zip -d ag/source
  cp submissions/korrekt/*.py ag/submission/
  grader gradescope-run --root ag && cat ag/results/results.json

exit status: 0 results.json written, whatever the score; 1 the grader failed on the
submission or results.json could not be written; 2 the task files in ROOT/source/tasks are
unusable. results.json is written in every case where its folder can be written."""


def register(command) -> None:
    gradescope_run = command(NAME, help="grade one submission as the Gradescope "
                             "autograder does (run_autograder calls it)",
                             description="Grade ROOT/submission against ROOT/source/tasks on "
                             "every check at the strongest sandbox that works (hidden checks "
                             "withheld at the 'process' level) and write "
                             "ROOT/results/results.json in Gradescope's format, with the "
                             "course's leaderboard.", epilog=GRADESCOPE_RUN_EPILOG)
    gradescope_run.add_argument("--root",
                                default=os.environ.get("AUTOGRADER_ROOT", "/autograder"),
                                help="the autograder's folder [$AUTOGRADER_ROOT, else "
                                "/autograder]")
    gradescope_run.add_argument("--lang", choices=("de", "en"), help="language of the "
                                "feedback [the course's]")


def run(args) -> int:
    from ..lms.gradescope import run as run_autograder
    try:
        return run_autograder(Path(args.root), args.lang)
    except OSError as error:   # results.json could not be written
        print(f"Could not write {Path(args.root) / 'results' / 'results.json'}: {error}",
              file=sys.stderr)
        return EXIT_FAILED
