"""What several commands share: the exit statuses, the consoles, loading the task files and
their answers, and choosing the sandbox level.

Nothing here imports more than the standard library when the command line is built: what a
helper needs it imports when it is called, so that ``grader check`` starts without the
batch's modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130
EXIT_CANNOT_GRADE = 3   # the grader fails here the same way for every submission
NO_CACHE_HELP = ("compute the reference answers, parse the task files and compile the templates "
                 "and the runner afresh, and keep none of them (also: GRADER_NO_CACHE=1) "
                 "[they are kept in $GRADER_CACHE_DIR, else ~/.cache/gametree-grader]")


def console(stderr: bool = False) -> Console:
    from rich.console import Console
    return Console(stderr=True, soft_wrap=True) if stderr else Console()


def raise_interrupt(signum, frame):
    """SIGTERM as Ctrl-C: a batch or a tournament stops as it does when interrupted."""
    raise KeyboardInterrupt


def load_tasks(path, err: Console):
    """The course, or None after printing every problem (file:line: what is wrong)."""
    from ..tasks import TaskFileError, load_course
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


def catalogue_of(course, lang):
    """The message catalogue of ``--lang``, else of the course's language."""
    from ..report.messages import Catalogue
    return Catalogue(lang or course.language)


def answer_book_of(course, args):
    """The reference answers' book: backed by the on-disk cache unless ``--no-cache``."""
    from ..answers.book import AnswerBook
    return AnswerBook.for_course(course, use_cache=not args.no_cache)


def reference_answers(course, args):
    """The course's reference answers, computed or taken from the cache (``--no-cache``)."""
    from ..grading import prepare
    return prepare(course, answers=answer_book_of(course, args))[1]


def checked_course(path, args, err: Console):
    """``(course, answers)``: the task files loaded and every answer they pin verified (the
    answers computed, or taken from the cache, on the way); None after saying what is
    wrong."""
    course = load_tasks(path, err)
    if course is None:
        return None
    answers = reference_answers(course, args)
    if not pins_hold(course, answers, err):
        return None
    return course, answers


def pins_hold(course, answers, err: Console) -> bool:
    from ..answers.pins import verify_pins
    problems = verify_pins(course, answers)
    for problem in problems:
        err.print(str(problem), markup=False, highlight=False)
    if problems:
        err.print("Pinned answers disagree with the reference; fix the pins (or the task).",
                  markup=False)
    return not problems


def batch_level(args, err: Console, what: str) -> str | None:
    """The isolation level for many submissions (``--sandbox``), or None after saying why
    not: the 'process' level only with ``--allow-weak-sandbox``."""
    from ..sandbox.base import STRONG_LEVELS
    level = sandbox_level(args.sandbox, err)
    if level is not None and level not in STRONG_LEVELS and not args.allow_weak_sandbox:
        err.print(f"Refusing to {what} at the '{level}' isolation level: student code "
                  "would run as you, able to read the task files, the reference and the other "
                  "submissions. Install bubblewrap (apt-get install -y --no-install-recommends "
                  "bubblewrap), or run as root in a container for the 'container' level, or "
                  "pass --allow-weak-sandbox if you trust every submission.", markup=False)
        return None
    return level


def sandbox_level(choice: str, err: Console) -> str | None:
    """The isolation level ``--sandbox`` chooses ('auto': the strongest that works here), or
    None after saying why the chosen one does not work here (also the pytest plugin's)."""
    from ..sandbox.levels import best_level, container_problem
    from ..sandbox.bubblewrap import bubblewrap_works
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
