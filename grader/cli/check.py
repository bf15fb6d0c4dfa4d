"""``grader check``: a student's self-check of one submission folder on the visible checks
(from the task files or a self-check kit): the summary in the terminal, the feedback page, and
GitHub Classroom's result.

A student waits for every module imported here: the child that runs their code is started
before rich and the report's modules are imported (``_ready_report`` imports them, reads the
message catalogue and loads the report's templates in a thread while the child runs; the
reference answers are computed or read from the cache in another, ``grader.single``), and the
console on standard error is made only when it prints.
"""

from __future__ import annotations

from pathlib import Path

from .common import (EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, NO_CACHE_HELP, answer_book_of,
                     catalogue_of, console, load_tasks, sandbox_level)

NAME = "check"

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


def register(command) -> None:
    check = command(NAME, help="self-check one submission folder (visible checks)",
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


class _ConsoleLater:
    """Standard error's console, made when something is printed: ``grader check`` starts the
    student's child before it imports rich."""

    def __init__(self):
        self.console = None

    def print(self, *args, **options) -> None:
        if self.console is None:
            self.console = console(stderr=True)
        self.console.print(*args, **options)


def run(args) -> int:
    err = _ConsoleLater()
    source = _check_source(args, err)
    if source is None:
        return EXIT_BAD_INPUT
    course, answer_book, hidden = source
    folder = Path(args.folder)
    if not folder.is_dir():
        err.print(f"{folder}: no such folder", markup=False)
        return EXIT_BAD_INPUT
    level = sandbox_level(args.sandbox, err)
    if level is None:
        return EXIT_BAD_INPUT
    from ..single import grade_folder
    language = args.lang or course.language
    result = grade_folder(course, folder, level, answers=answer_book,
                          while_waiting=lambda: _ready_report(language),
                          identity=args.student)
    # Colour only where the markup puts it: rich's highlighting of numbers and quotes in
    # every message would colour at random and costs half of printing the feedback.
    from rich.console import Console
    from ..report.terminal import check_lines, markup, render
    terminal = Console(highlight=False, soft_wrap=True)
    catalogue = catalogue_of(course, args.lang)
    from ..report.views import student_view
    view = student_view(result, course, catalogue, html=False)
    # Failures first and whole, a passing task in one line; wrapped between words at the
    # terminal's width, and not at all without a terminal (a CI log keeps its sentences).
    lines = check_lines(view, catalogue,
                        catalogue.text("ui.feedback_title", student=folder.resolve().name))
    width = terminal.width if terminal.is_terminal else None
    if hidden:
        lines += [("", "", ""), ("", "", catalogue.text("ui.hidden_not_run", count=hidden))]
    # one print of all lines: rich's work per call is most of printing a line
    terminal.print(markup(render(lines, width)))
    from ..report.grades import points_line
    from ..report.writers import junit_xml, write_student
    from ..report.files import write_atomically
    written = write_student(_check_out(args.out, folder), result, course, catalogue, view)
    write_atomically(written / "junit.xml", junit_xml([result], course, catalogue))
    terminal.print(markup(render([
        ("", "", catalogue.text("ui.feedback_page", path=str(written / "feedback.html"))),
        ("", "", f"{catalogue.text('ui.score')}: {result.score:g}/{result.max_score:g}")],
        width)))
    if args.points:
        print(points_line(result))
    if args.classroom_result and not _write_classroom_result(args.classroom_result, result,
                                                             course, catalogue, err):
        return EXIT_BAD_INPUT
    return EXIT_OK if all(v.passed for v in result.verdicts) else EXIT_FAILED


def _check_source(args, err):
    """``(course, answers, hidden checks)`` of a self-check: from ``--kit`` or the task
    files; None after saying what is wrong."""
    if args.kit:
        from ..kit import KitError, load_kit
        try:
            kit = load_kit(args.kit)
        except KitError as error:
            err.print(str(error), markup=False, highlight=False)
            return None
        return kit.course, (lambda: kit.answers), kit.hidden
    course = load_tasks(args.tasks, err)
    if course is None:
        return None
    return course, (lambda: answer_book_of(course, args)), course.hidden_count


def _write_classroom_result(path: str, result, course, catalogue, err) -> bool:
    from ..lms.classroom import reporter_result, write_result
    try:
        write_result(Path(path), reporter_result(result, course, catalogue))
    except OSError as error:
        err.print(f"--classroom-result {path}: {error}", markup=False, highlight=False)
        return False
    return True


def _check_out(out: str | None, folder: Path) -> Path:
    """Where a self-check writes: ``--out``, else reports/check, unless that lies inside the
    submission (a student checking the folder they are in), then the cache folder's check/."""
    if out is not None:
        return Path(out)
    default = Path("reports") / "check"
    if not default.resolve().is_relative_to(folder.resolve()):
        return default
    from ..cache import cache_dir
    return cache_dir() / "check"


# The templates of the files a check writes (feedback.html, feedback.md, junit.xml); the
# ones they include are compiled where a page needs them.
REPORT_TEMPLATES = ("feedback.html.j2", "feedback.md.j2", "check.md.j2", "junit.xml.j2")


def _ready_report(language: str) -> None:
    """Import what the report needs, read the message catalogue of ``language`` and load
    (or, the first time, compile) the report's templates: run in a thread while the check
    waits for its child.  A failure is ignored: whoever needs a module, the catalogue or a
    template loads it again and sees the error there."""
    import importlib
    try:
        for name in ("rich.console", "grader.report.views", "grader.report.writers"):
            importlib.import_module(name)
        from ..report.messages import Catalogue
        from ..report.templating import TEMPLATES
        Catalogue(language)             # its entries are read once per process
        for name in REPORT_TEMPLATES:
            TEMPLATES.get_template(name)    # kept by the environment for the page
    except BaseException:  # noqa: BLE001 - see the docstring
        pass
