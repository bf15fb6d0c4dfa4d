"""The ``grader`` command: this package only wires argparse.  Each command is one module of
it (``NAME``, ``register(command)`` adding its subparser, ``run(args)`` returning the exit
status), listed once in ``COMMANDS``; what several commands share is in ``common`` (exit
statuses, consoles, loading the task files, the sandbox level), ``lms`` (the LMS options and
round trips of grade and merge) and ``outcome`` (what grade and merge print at the end).

Each command imports what it needs when it runs, so that ``grader check`` starts without the
batch's progress bars, tables, pins or forgery scan (``python -X importtime``).
"""

from __future__ import annotations

import sys

if sys.argv[:1] == ["-m"]:
    # python -m grader.cli: Python imports this package while it looks for grader.cli's
    # __main__, with sys.argv[0] still "-m" and the current folder, which may be a student's,
    # first on the import path; off it before argparse, json or yaml is imported
    # (grader.startup).
    from grader.startup import leave_start_folder
    leave_start_folder()

# Only after that: the rest of the imports.
import argparse  # noqa: E402
import contextlib  # noqa: E402
import os  # noqa: E402

from . import (check, classroom, grade, gradescope, gradescope_run,  # noqa: E402
               import_trees, kit, merge, schema, sheets, solve, tournament, validate)
from .common import EXIT_BAD_INPUT, console  # noqa: E402

# Every command, in the order `grader --help` lists them.
COMMANDS = (
    grade,
    tournament,
    check,
    solve,
    validate,
    kit,
    import_trees,
    merge,
    classroom,
    gradescope,
    gradescope_run,
    sheets,
    schema,
)
_RUN = {module.NAME: module.run for module in COMMANDS}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``grader`` command's parser; ``only``: with that command's subparser alone (what
    parsing its command line needs: ``grader check`` does not wait for a dozen others')."""
    parser = argparse.ArgumentParser(prog="grader", description="Grade game-tree search "
                                     "exercises (minimax, alpha-beta, negamax, evaluation).")
    from .. import __version__
    parser.add_argument("--version", action="version", version=f"grader {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, **options) -> argparse.ArgumentParser:
        # The epilogs' examples and exit statuses keep their line breaks.
        return commands.add_parser(name, formatter_class=argparse.RawDescriptionHelpFormatter,
                                   **options)

    for module in COMMANDS:
        if only is None or module.NAME == only:
            module.register(command)
    return parser


def main(argv=None) -> int:
    from ..tasks import TaskFileError
    argv = sys.argv[1:] if argv is None else list(argv)
    # a command's own line needs only its subparser; anything else (--help, --version, a
    # misspelt command) the whole parser
    args = build_parser(argv[0] if argv and argv[0] in _RUN else None).parse_args(argv)
    try:
        with _caches_off(getattr(args, "no_cache", False)):
            return _RUN[args.command](args)
    except TaskFileError as error:
        # found only once answers are computed: a task whose reference search never ends
        err = console(stderr=True)
        for problem in error.problems:
            err.print(str(problem), markup=False, highlight=False)
        err.print(f"{len(error.problems)} problem(s) in the task files; nothing was graded.",
                  markup=False)
        return EXIT_BAD_INPUT
    except ModuleNotFoundError as error:
        if error.name != "reference":
            raise
        # A grader installed from a self-check kit's wheel has no model solutions.
        console(stderr=True).print(
            "This grader has no model solutions (it was installed from a self-check kit): "
            "only `grader check --kit KIT [FOLDER]` works with it.", markup=False)
        return EXIT_BAD_INPUT


@contextlib.contextmanager
def _caches_off(off: bool):
    """``--no-cache``: for the command's duration, GRADER_NO_CACHE=1, which every store of the
    cache folder (answers, parsed YAML, fitted task files, compiled templates, the runner's
    bytecode, the sources' digest) reads when it is used."""
    if not off:
        yield
        return
    from ..cache import DISABLE_VARIABLE
    previous = os.environ.get(DISABLE_VARIABLE)
    os.environ[DISABLE_VARIABLE] = "1"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(DISABLE_VARIABLE, None)
        else:
            os.environ[DISABLE_VARIABLE] = previous


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
