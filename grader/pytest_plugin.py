"""pytest in a course repository: ``pytest --grader-tasks tasks`` runs the course's visible
checks on the repository's code, one test item per check.

The items are ``TASKFILE::TASK::FUNCTION::CHECK`` (``tasks/blatt3.yaml::tree-blatt3::
alphabeta::visited``): a collector per task file, task and student function, so that a node
id on the command line selects a file, a task, a function or one check, and JUnit XML names
each case ``CHECK`` in the class ``tasks.blatt3.yaml.TASK.FUNCTION``.  Each item carries its
points as ``user_properties`` (``points``, ``max_points``, ``function``, ``kind``), which
``--junitxml`` writes as the test case's properties, and fails with the grader's own
feedback in the course language (``grader.report.writers.check_text``), never with a
traceback of the grader.

``pytest --grader-kit kit`` does the same with a self-check kit (``grader.kit``) in place of
the task files: its items are ``kit/kit.json::TASK::FUNCTION::CHECK``, its answers the kit's,
and no model solution is needed.

The submission is graded once per session, by the same sandboxed run as ``grader check``
(``grader.single.grade_folder``, visible checks only), as the shared setup of the grader
items: in the setup of the first of them that runs, as a session-scoped fixture would be.
pytest-timeout therefore counts the grading against that item (unless
``timeout_func_only`` is set), and every later item only reads its verdict.  The grader's
own limits (``call_seconds``, ``submission_seconds``) end a search that never returns
anyway.  When pytest-timeout's limit is shorter, its signal method interrupts the grading:
the sandboxed child is killed and its folders removed as the interruption unwinds, and
every grader item fails as not graded, saying why.  Its thread method ends pytest at once;
the bubblewrap sandbox dies with it (``--die-with-parent``), as does the container level's
child (its parent-death signal); at the process level a search that never returns runs on
until its CPU limit ends it.

Nothing of a folder it grades is collected or imported in pytest's process: the
submission runs only in the sandbox.  A folder graded from outside (one that does not hold the
folder pytest was started in) is left out of collection (``pytest_ignore_collect``), so none
of its ``test_*.py``, ``*_test.py``, ``conftest.py``, ``__init__.py`` or packages is imported;
the steps of pytest's that come before any collection hook (its rootdir and ini file, the
import path, the paths named, and the ``conftest.py`` of every ``test*`` folder of the folder
it starts in) are checked before the first conftest.py is imported, and a run that would
import from the folder is refused with a usage error (``exposure``).  A folder that holds the
folder pytest was started in is a student's own repository: pytest runs its tests there as
it always does; the grader's own imports and its grading then leave that folder off the
import path, so that a student's ``yaml.py`` is never the grader's.

This module must stay cheap: pytest imports it in every run of every project whose
environment has the grader installed (entry point ``pytest11``).  It imports only pytest and
the standard library; the grader is imported in hooks, and only when ``--grader-tasks`` (or
the ini option ``grader_tasks``) is given.  ``-p no:grader`` leaves it out entirely.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import importlib
import os
import sys
from pathlib import Path

import pytest

SANDBOX_CHOICES = ("auto", "bubblewrap", "container", "process")
LANGUAGES = ("de", "en")


def pytest_addoption(parser) -> None:
    group = parser.getgroup("grader", "gametree-grader: the course's visible checks as tests")
    group.addoption("--grader-tasks", metavar="PATH",
                    help="task file or folder of the course: collect one test per visible "
                    "check (ini: grader_tasks, relative to the ini file)")
    group.addoption("--grader-kit", metavar="DIR",
                    help="a self-check kit (grader kit) instead of --grader-tasks: its visible "
                    "checks and precomputed answers, no model solutions needed (ini: "
                    "grader_kit, relative to the ini file)")
    group.addoption("--grader-submission", metavar="DIR",
                    help="the folder graded (ini: grader_submission) [the rootdir when the "
                    "ini file names the course, else the current folder]")
    group.addoption("--grader-lang", choices=LANGUAGES,
                    help="language of the grader's messages (ini: grader_lang) [the course's]")
    group.addoption("--grader-sandbox", choices=SANDBOX_CHOICES,
                    help="isolation of the graded code [auto: the strongest that works]")
    parser.addini("grader_tasks", "task file or folder of the course (see --grader-tasks)")
    parser.addini("grader_kit", "a self-check kit's folder (see --grader-kit)")
    parser.addini("grader_submission", "the folder graded (see --grader-submission)")
    parser.addini("grader_lang", "language of the grader's messages (see --grader-lang)")


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config) -> None:
    """Before pytest imports any conftest.py (it loads the initial ones next): refuse a run
    that would import something from the folder graded."""
    problem = exposure(early_config, early_config.known_args_namespace)
    if problem is not None:
        raise pytest.UsageError(problem)


def pytest_configure(config) -> None:
    # Again, for a plugin registered after the initial conftests (``-p`` in a conftest.py).
    problem = exposure(config, config.option)
    if problem is not None:
        raise pytest.UsageError(problem)
    tasks, kit = _course_setting(config)
    if tasks is None:
        if config.getoption("grader_submission"):
            raise pytest.UsageError(
                f"--grader-submission {config.getoption('grader_submission')}: no course to "
                f"grade it with; name the task files (--grader-tasks PATH, ini grader_tasks) "
                f"or a kit (--grader-kit DIR){_ini_note(config)}")
        return
    submission = _path_setting(config, "submission") or _default_submission(config)
    language = config.getoption("grader_lang") or config.getini("grader_lang") or None
    if language is not None and language not in LANGUAGES:
        raise pytest.UsageError(f"grader_lang = {language}: choose one of "
                                f"{', '.join(LANGUAGES)}")
    sandbox = config.getoption("grader_sandbox") or "auto"
    graded = submission.resolve()
    outside = None if _inside(config.invocation_params.dir, graded) else graded
    _leave_the_grader_s_asserts_alone(config)
    with _import_path_without(graded):
        # Before collection imports anything of a student's own repository: the grader's
        # modules (and yaml, jinja2, rich) are its own, whatever the repository holds.
        for module in GRADING_MODULES + (("grader.kit",) if kit else ()):
            importlib.import_module(module)
    config.pluginmanager.register(CoursePlugin(tasks, submission, language, sandbox, kit,
                                               outside), "grader-course")


def _leave_the_grader_s_asserts_alone(config) -> None:
    """pytest rewrites the asserts of every module of a distribution with a ``pytest11`` entry
    point, as if each were a test: here all of ``grader`` and ``reference``, some 90 modules
    parsed, rewritten and compiled in each run where bytecode is not written (as on many CI
    machines, ``PYTHONDONTWRITEBYTECODE``), 2 to 3 CPU-seconds of a run's 4.  The grader
    reports its own feedback, never a failed assert of its own, so its packages are taken
    off the rewriter's list before the grading imports them (only this module and the
    package it sits in are rewritten).  The list is pytest's own attribute, not a public
    interface: where it is not there, nothing changes."""
    marked = getattr(config.pluginmanager.rewrite_hook, "_must_rewrite", None)
    if isinstance(marked, set):
        marked.difference_update({"grader", "reference"})


# What the session's grading imports, imported once before collection (see pytest_configure).
GRADING_MODULES = ("grader.tasks", "grader.answers.book", "grader.cli", "grader.single",
                   "grader.grading", "grader.sandbox.run", "grader.submissions.finding",
                   "grader.submissions.staging", "grader.sandbox.staging",
                   "grader.sandbox.launcher", "grader.sandbox.levels",
                   "grader.report.views", "grader.report.messages", "grader.report.grades",
                   "grader.report.safe", "grader.report.writers")


def exposure(config, options) -> str | None:
    """Why this run would import something of the folder graded into pytest's process, or
    None.  ``options``: pytest's parsed options (early: ``known_args_namespace``).

    Collection never enters a folder graded from outside (``CoursePlugin``), but some of
    pytest's steps come first and no plugin hook can keep a folder out of them: its rootdir and
    ini file, the import path (PYTHONPATH, the ini's ``pythonpath``), the paths it starts from
    (and their parents), and the ``conftest.py`` of each ``test*`` folder of those paths.  Such
    a run is refused before the first conftest.py is imported.  A folder that holds the folder
    pytest was started in is not graded from outside: that is the student's own repository,
    whose tests pytest runs as it always does."""
    course, _ = _course_setting(config, options)
    if course is None and not getattr(options, "grader_submission", None):
        return None     # not grading.  A named folder is looked at even without a course:
        # pytest may have read the folder's own ini file instead of the one naming the course.
    graded = (_path_setting(config, "submission", options)
              or _default_submission(config, options)).resolve()
    if _inside(config.invocation_params.dir, graded):
        return None
    folder = f"the folder graded, {graded}"
    never = ("; pytest would import its files, and the grader never runs a submission's "
             "code outside the sandbox")
    if _inside(config.rootpath, graded) or (config.inipath is not None
                                            and _inside(config.inipath, graded)):
        return (f"pytest took its rootdir ({config.rootpath}) and ini file "
                f"({config.inipath or 'none'}) from inside {folder}{never}. pytest chooses "
                "them before it knows this plugin's options, taking a value after a space "
                "for a path to test, and may already have loaded a plugin that ini file "
                "names: write the options with '=' (--grader-submission=DIR, "
                "--grader-tasks=PATH), or set grader_submission in your own ini file.")
    if course is not None and _inside(course, graded):
        return (f"the course ({course}) lies inside {folder}{never}: keep the task files or "
                "the kit outside the folders you grade.")
    configured = []
    with contextlib.suppress(ValueError):   # pytest before 7.0 has no pythonpath option
        configured = [str(path) for path in config.getini("pythonpath")]
    for entry in [*sys.path, *configured]:
        if _inside(entry or ".", graded):
            return (f"{entry or '.'} is on Python's import path (PYTHONPATH or the ini "
                    f"file's pythonpath) and lies inside {folder}{never}.")
    for path in _initial_paths(config, options):
        if _inside(path, graded):
            return (f"{path}, where pytest starts collecting, lies inside {folder}{never}: "
                    "name paths to test outside it.")
        if path.is_dir():
            for sub in path.glob("test*"):
                if sub.is_dir() and _inside(sub, graded):
                    return (f"pytest imports the conftest.py of every test* folder of {path} "
                            f"before any plugin can keep one out, and {folder}, is one"
                            f"{never}. Name the paths to test (e.g. the task files: pytest "
                            f"... {course}), or grade the folder under another name.")
    return None


def _initial_paths(config, options) -> list[Path]:
    """The paths pytest starts from, as it chooses them (``Config._decide_args``): those
    named, else ``testpaths`` when it runs in its rootdir, else the folder it was started in
    (which also stands in when no named path exists); with ``--pyargs``, where the named
    modules' top-level packages are (found, not imported)."""
    start = Path(config.invocation_params.dir)
    named = [str(arg).split("::")[0] for arg in getattr(options, "file_or_dir", None) or []]
    if getattr(options, "pyargs", False):
        return [*_module_folders(named), start]
    if not named and start == config.rootpath:
        named = [found for pattern in config.getini("testpaths")
                 for found in sorted(glob.iglob(str(start / pattern), recursive=True))]
    return [path for path in (start / name for name in named) if path.exists()] or [start]


def _module_folders(names: list[str]) -> list[Path]:
    """Where the top-level packages of dotted module names are (``--pyargs``), found without
    importing anything: a dotted name's parents are only imported by collection, later."""
    import importlib.util
    folders = []
    for name in names:
        try:
            spec = importlib.util.find_spec(name.split(".")[0])
        except (ImportError, ValueError):
            continue
        if spec is not None:
            folders += [Path(place) for place in (spec.submodule_search_locations or [])]
            if spec.origin and os.path.isabs(spec.origin):
                folders.append(Path(spec.origin))
    return folders


def _inside(path, folder: Path) -> bool:
    """``path`` is ``folder`` or lies in it, links followed."""
    real = Path(os.path.realpath(path))
    return real == folder or folder in real.parents


@contextlib.contextmanager
def _import_path_without(folder: Path):
    """For the duration: no entry of ``sys.path`` that is ``folder`` or lies in it (``""`` is
    the current folder).  Restored afterwards: a student's own tests may need it."""
    kept = list(sys.path)
    sys.path[:] = [entry for entry in kept if not _inside(entry or ".", folder)]
    try:
        yield
    finally:
        sys.path[:] = kept


def _default_submission(config, options=None) -> Path:
    """The folder graded when none is named: the ini file's folder (the rootdir) when the
    ini file names the course, as it configures that repository; else the folder pytest was
    started in, as ``grader check`` checks ".".  Not the rootdir alone: pytest finds the
    rootdir before it knows this plugin's options, so it takes the value of
    ``--grader-tasks ../kurs/tasks`` for a path to test, and the course's folder (with its own
    ini file) can become the rootdir."""
    options = options if options is not None else config.option
    if not (getattr(options, "grader_tasks", None) or getattr(options, "grader_kit", None)) \
            and (config.getini("grader_tasks") or config.getini("grader_kit")):
        return _ini_folder(config)
    return config.invocation_params.dir


def _ini_note(config) -> str:
    return f" (pytest reads {config.inipath})" if config.inipath else ""


def _ini_folder(config) -> Path:
    return config.inipath.parent if config.inipath else config.rootpath


def _course_setting(config, options=None) -> tuple[Path | None, bool]:
    """``(path, is a kit)``: the course to grade with.  The command line wins over the ini
    file (``pytest --grader-kit kit`` in a repository whose pytest.ini names
    ``grader_tasks``); both on the command line, or both in the ini file with neither on the
    command line, is a usage error: which one is meant is for the user to say."""
    options = options if options is not None else config.option
    given = {name: getattr(options, f"grader_{name}", None) for name in ("tasks", "kit")}
    if given["tasks"] and given["kit"]:
        raise pytest.UsageError(f"--grader-tasks {given['tasks']} and --grader-kit "
                                f"{given['kit']}: give one of the two")
    for name in ("tasks", "kit"):
        if given[name]:
            return (config.invocation_params.dir / given[name]).resolve(), name == "kit"
    configured = {name: config.getini(f"grader_{name}") for name in ("tasks", "kit")}
    if configured["tasks"] and configured["kit"]:
        raise pytest.UsageError(f"grader_tasks and grader_kit are both set{_ini_note(config)}; "
                                f"keep one, or choose on the command line with --grader-tasks "
                                f"or --grader-kit")
    for name in ("tasks", "kit"):
        if configured[name]:
            return (_ini_folder(config) / configured[name]).resolve(), name == "kit"
    return None, False


def _path_setting(config, name: str, options=None) -> Path | None:
    """``--grader-NAME`` (relative to where pytest was started), else the ini option
    ``grader_NAME`` (relative to the ini file), else None."""
    given = getattr(options if options is not None else config.option, f"grader_{name}", None)
    if given:
        return (config.invocation_params.dir / given).resolve()
    configured = config.getini(f"grader_{name}")
    if configured:
        return (_ini_folder(config) / configured).resolve()
    return None


class NotGraded(Exception):
    """The submission could not be graded here (the chosen sandbox does not work): said in
    every grader item, with no traceback."""


class CheckFailed(Exception):
    """A grader item's failure: its text is the grader's feedback on the check."""


class Grading:
    """The one grading of the session, made in the setup of the first grader item that runs;
    the items then read their verdicts and feedback from it."""

    def __init__(self, course, submission: Path, language: str | None, sandbox: str,
                 answers=None, hidden: int | None = None):
        self.course = course
        self.answers = answers      # a kit's answers; None: the course's answer cache
        self.hidden = hidden if hidden is not None else course.hidden_count
        self.submission = submission
        self.sandbox = sandbox
        self.language = language or course.language
        self.result = None
        self.failure: BaseException | None = None
        self.failed_in: str | None = None   # node id of the item whose setup graded
        self.verdicts: dict = {}            # check id -> grader.checks.verdict.Verdict
        self.feedback: dict = {}            # check id -> the check's view (grader.report.views)

    @property
    def started(self) -> bool:
        return self.result is not None or self.failure is not None

    def run(self, item) -> None:
        """Grade, once.  A failure (pytest-timeout's interruption, a sandbox that does not
        work, a bug) is kept and said by the items, which then fail."""
        if self.started:
            return
        try:
            # A student's own repository may be on the import path (the folder pytest runs
            # in): whatever the grading imports late is the grader's, never a student's file.
            with _import_path_without(self.submission.resolve()):
                result = self._grade()
                from .report.views import student_view
                # group=False: each item stands alone, so every message is whole (as in JUnit).
                view = student_view(result, self.course, self.catalogue, html=False,
                                    group=False)
        except (Exception, pytest.fail.Exception) as failure:
            self.failure, self.failed_in = failure, item.nodeid
            return
        self.result = result
        self.verdicts = {verdict.check.id: verdict for verdict in result.verdicts}
        self.feedback = {check["id"]: check for task in view["tasks"]
                         for check in task["checks"]}

    def _grade(self):
        from .answers.book import AnswerBook
        from .cli.common import sandbox_level
        from .single import grade_folder
        said: list[str] = []
        level = sandbox_level(self.sandbox, _Collected(said))
        if level is None:
            raise NotGraded(" ".join(said))
        return grade_folder(self.course, self.submission, level, only_visible=True,
                            answers=self.answers or (lambda: AnswerBook.for_course(self.course)))

    @functools.cached_property
    def catalogue(self):
        from .report.messages import Catalogue
        return Catalogue(self.language)

    def not_graded_text(self) -> str:
        failure = self.failure
        reason = str(failure) if isinstance(failure, (NotGraded, pytest.fail.Exception)) \
            else f"{type(failure).__name__}: {failure}"
        return self.catalogue.text("ui.pytest_not_graded", item=self.failed_in,
                                     reason=reason)

    def summary(self) -> list[str]:
        """The terminal summary: the points line, and a submission-level problem if any."""
        if self.result is None:
            return [self.not_graded_text()]
        from .report.grades import points_text
        catalogue = self.catalogue
        lines = [catalogue.text("ui.pytest_points", score=points_text(self.result.score),
                                maximum=points_text(self.result.max_score),
                                hidden=self.hidden)]
        if self.result.problem:
            from .report.safe import terminal_text
            lines.append(catalogue.text(f"ui.{self.result.problem}",
                                        detail=terminal_text(self.result.problem_detail or "")))
        return lines


class _Collected:
    """What ``grader.cli.common.sandbox_level`` says, kept instead of printed."""

    def __init__(self, said: list):
        self.said = said

    def print(self, text, **options) -> None:
        self.said.append(str(text))


GRADING = pytest.StashKey[Grading]()


class CoursePlugin:
    """Registered only when a course is given: its task files become collectors, and a
    folder graded from outside is never collected."""

    def __init__(self, tasks: Path, submission: Path, language: str | None, sandbox: str,
                 kit: bool = False, outside: Path | None = None):
        self.tasks = tasks          # the task files, or the kit's folder (``kit``)
        self.kit = kit
        self.submission = submission
        self.outside = outside      # the folder graded, resolved, when graded from outside
        self.language = language
        self.sandbox = sandbox
        self.files: set[Path] = set()
        self.grading: Grading | None = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_ignore_collect(self, collection_path: Path):
        """Nothing in a folder graded from outside is collected: no test module, conftest.py
        or package of it is imported (a Directory's conftest.py is imported only when the
        directory is collected).  First, so that no other plugin can insist on it."""
        if self.outside is not None and _inside(collection_path, self.outside):
            return True
        return None

    def pytest_sessionstart(self, session) -> None:
        option = "--grader-kit" if self.kit else "--grader-tasks"
        if not self.tasks.exists():
            raise pytest.UsageError(f"{option} {self.tasks}: no such file or folder")
        if not self.submission.is_dir():
            raise pytest.UsageError(f"--grader-submission {self.submission}: no such folder")
        if self.kit:
            from .kit import KIT_FILE, KitError, load_kit
            try:
                kit = load_kit(self.tasks)
            except KitError as error:
                raise pytest.UsageError(f"{option}: {error}") from None
            grading = Grading(kit.course, self.submission, self.language, self.sandbox,
                              kit.answers, kit.hidden)
            # The kit's checks are collected from its kit.json.
            self.files = {(kit.folder / KIT_FILE).resolve()}
        else:
            from .tasks import TaskFileError, load_course
            try:
                course = load_course(self.tasks)
            except TaskFileError as error:
                raise pytest.UsageError("\n".join(
                    [str(problem) for problem in error.problems]
                    + [f"{len(error.problems)} problem(s) in the task files; nothing was "
                       "graded."]))
            grading = Grading(course, self.submission, self.language, self.sandbox)
            self.files = {Path(task.file).resolve() for task in course.tasks}
        self.grading = session.config.stash[GRADING] = grading
        config = session.config
        if config.args_source != pytest.Config.ArgsSource.ARGS and not config.option.pyargs:
            # No paths named: the task files join testpaths (or the current folder), so that
            # `pytest` alone runs the checks; named paths (`pytest tests/`) are respected.
            # The course's path as given, not its files: outside the rootdir pytest names
            # nodes relative to it (blatt3.yaml::...), and a file relative to itself is "".
            named = [(config.invocation_params.dir / arg).resolve() for arg in config.args]
            if not any(self.tasks.is_relative_to(root) for root in named):
                config.args.append(str(self.tasks))

    def pytest_collect_file(self, file_path: Path, parent):
        if file_path.resolve() in self.files:
            return TaskFile.from_parent(parent, path=file_path, kit=self.kit)
        return None

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.grading is not None and self.grading.started:
            for line in self.grading.summary():
                terminalreporter.write_line(line)


class TaskFile(pytest.File):
    """A task file (or a kit's kit.json, which holds every task of the kit): its tasks that
    have visible checks."""

    def __init__(self, *, kit: bool = False, **options):
        super().__init__(**options)
        self.kit = kit

    def collect(self):
        grading = self.config.stash[GRADING]
        for task in grading.course.tasks:
            if (self.kit or Path(task.file).resolve() == self.path.resolve()) \
                    and _visible(task):
                yield TaskNode.from_parent(self, name=task.id, task=task)


class TaskNode(pytest.Collector):
    """One task: its student functions that have visible checks."""

    def __init__(self, *, task, **options):
        super().__init__(**options)
        self.task = task

    def collect(self):
        for function in self.task.functions:
            if _visible(self.task, function):
                yield FunctionNode.from_parent(self, name=function, task=self.task)

    def reportinfo(self):
        return self.path, self.task.line - 1, self.task.id


class FunctionNode(pytest.Collector):
    """One student function of a task: its visible checks."""

    def __init__(self, *, task, **options):
        super().__init__(**options)
        self.task = task

    def collect(self):
        for check in _visible(self.task, self.name):
            yield CheckItem.from_parent(
                self, name=check.id.removeprefix(f"{self.task.id}/{self.name}/"),
                check=check)


def _visible(task, function: str | None = None) -> list:
    """The task's checks a student's run makes (hidden and after-due checks are not run)."""
    return [check for check in task.checks if check.visibility == "visible"
            and (function is None or check.function == function)]


class CheckItem(pytest.Item):
    """One visible check: passes or fails as its verdict does."""

    def __init__(self, *, check, **options):
        super().__init__(**options)
        self.check = check

    def setup(self) -> None:
        # The grading is the grader items' shared setup (see the module's docstring).
        self.config.stash[GRADING].run(self)

    def runtest(self) -> None:
        from .report.grades import points_text
        grading = self.config.stash[GRADING]
        verdict = grading.verdicts.get(self.check.id)
        score = verdict.score if verdict is not None else 0.0
        self.user_properties += [("points", points_text(score)),
                                 ("max_points", points_text(self.check.points)),
                                 ("function", self.check.function), ("kind", self.check.kind)]
        if grading.failure is not None:
            if grading.failed_in == self.nodeid and not isinstance(
                    grading.failure, (NotGraded, pytest.fail.Exception)):
                raise grading.failure   # a bug in the grader: its traceback, to report it
            raise CheckFailed(grading.not_graded_text())
        if verdict is None:   # the grading judges every visible check: a bug if not
            raise LookupError(f"the grading has no verdict on {self.check.id}")
        if not verdict.passed:
            from .report.safe import deep, terminal_text
            from .report.writers import check_text
            # What the submission returned reaches the terminal: no control characters.
            feedback = deep(grading.feedback[self.check.id], terminal_text)
            raise CheckFailed(check_text(feedback, grading.catalogue,
                                         grading.result.problem,
                                         terminal_text(grading.result.problem_detail or "")))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CheckFailed):
            return CheckFailure(str(excinfo.value), self.path, self.check.line)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, self.check.line - 1, f"{self.check.task_id}::{self.check.function}" \
            f"::{self.name}"


class CheckFailure:
    """A failed check as pytest shows it: the feedback, and its first line as the crash
    message (the short test summary and JUnit XML's ``message``).  Duck-typed as pytest's
    own failure representations are read (``toterminal``, ``reprcrash``), so that no private
    pytest class is needed."""

    def __init__(self, text: str, path: Path, line: int):
        self.text = text
        self.reprcrash = _Crash(str(path), line, text.split("\n", 1)[0])

    def toterminal(self, writer) -> None:
        for line in self.text.splitlines():
            writer.line(line, red=True)

    def __str__(self) -> str:
        return self.text


class _Crash:
    def __init__(self, path: str, lineno: int, message: str):
        self.path, self.lineno, self.message = path, lineno, message

    def __str__(self) -> str:
        return f"{self.path}:{self.lineno}: {self.message}"
