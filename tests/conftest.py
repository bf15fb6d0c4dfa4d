"""Shared fixtures: the bundled course, its reference answers, and grading real folders."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from grader.batch import budget_of, prepare
from grader.grading import grade_submission
from grader.sandbox.staging import stage_runner
from grader.tasks import load_course

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def pytest_configure(config):
    """The tests start some hundreds of new interpreters that import the grader (its commands,
    kits, the pytest plugin's runs).  An installed grader has its bytecode (pip compiles it);
    a checkout has it once an import writes it, unless ``PYTHONDONTWRITEBYTECODE`` is set
    (as on many CI machines), and then every one of them compiled every module it imports
    from source: about a third of a warm `grader check`'s CPU time.  So the run compiles
    both packages once first, in the controlling process (the workers start after it);
    with the bytecode there already, this only compares times."""
    if hasattr(config, "workerinput"):
        return
    import compileall
    for package in ("grader", "reference"):
        compileall.compile_dir(ROOT / package, quiet=1)


# The test files that take longest (the seconds of their tests and module fixtures in a run
# with `--durations=0`, 2026-11-27, after the hostile course's smaller limits and the shared
# answers of the grade fixture), longest first.  With `--dist loadfile` a worker takes the
# next file in the order of collection (`--no-loadscope-reorder` keeps this order): the long
# files start first and the short ones fill in at the end, instead of one long file running
# on alone at the end of a run.  Files that wait for the same run-wide batch
# (grade_course_once, kit_once) stand apart, so that a worker seldom waits for another's.
LONGEST_FIRST = ("test_kit.py", "test_tournament.py", "test_pytest_plugin.py",
                 # (after test_kit.py has made the run's kit of the bundled course)
                 "test_kit_replay.py",
                 "test_hostile.py", "test_cluster.py", "test_wheel.py", "test_kit_install.py",
                 "test_manual.py",
                 "test_graded_folders.py", "test_shards.py", "test_answer_cache.py",
                 "test_mistakes.py", "test_kalah.py", "test_gradescope.py", "test_match.py",
                 "test_handback.py", "test_conventions.py", "test_environment.py",
                 "test_nested_archives.py", "test_interrupt.py", "test_batches.py",
                 "test_moodle.py", "test_portable.py", "test_cli.py", "test_connect4.py",
                 "test_transposition.py", "test_aima.py", "test_classroom.py",
                 "test_browser.py", "test_vorlesung.py", "test_rating_check.py")


def pytest_collection_modifyitems(session, config, items):
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))   # stable: files stay whole


@pytest.fixture(scope="session", autouse=True)
def answer_cache_folder(tmp_path_factory):
    """Commands run by the tests keep their cached answers in a folder of the session's,
    never in the home of whoever runs the suite.  The workers of a parallel run (pytest-xdist)
    share it, as graders on one machine share theirs: the reference's answers are computed
    once, not once per worker (the cache writes each file atomically)."""
    import os
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent                  # the run's folder, above each worker's own
    folder = base / "answer-cache"
    folder.mkdir(mode=0o700, exist_ok=True)
    previous = os.environ.get("GRADER_CACHE_DIR")
    os.environ["GRADER_CACHE_DIR"] = str(folder)
    yield folder
    if previous is None:
        os.environ.pop("GRADER_CACHE_DIR", None)
    else:
        os.environ["GRADER_CACHE_DIR"] = previous


@pytest.fixture(scope="session")
def course():
    return load_course(ROOT / "tasks")


@pytest.fixture(scope="session")
def prepared(course):
    return prepare(course)


@pytest.fixture(scope="session")
def child_script():
    with tempfile.TemporaryDirectory(prefix="grader-test-runner-") as stage:
        yield stage_runner(Path(stage))


@pytest.fixture(scope="session")
def grade(course, prepared, child_script):
    """Grade one submission folder against the bundled course (all checks, hidden too), or
    against ``the_course``: its plan and reference answers are computed once per course
    object for the whole session, as a batch computes them once for all its students (tests
    that grade several students on one course loaded them again for each)."""
    prepared_of = {id(course): (course, prepared)}   # the course kept: its id stays its own

    def run(folder: Path, the_course=None):
        the_course = course if the_course is None else the_course
        if id(the_course) not in prepared_of:
            prepared_of[id(the_course)] = (the_course, prepare(the_course))
        the_plan, the_answers = prepared_of[id(the_course)][1]
        return grade_submission(the_plan, the_answers, child_script, folder,
                                budget_of(the_course))
    return run


def grade_course(tasks: Path, submissions: Path, out: Path) -> tuple[Path, dict]:
    """``grader grade`` of a course's example students with the real sandbox: the reports
    folder and each student's results.json."""
    from grader.cli import main
    status = main(["grade", "--tasks", str(tasks), "--submissions", str(submissions),
                   "--out", str(out), "--jobs", "2"])
    assert status == 0
    return out, results_of(out)


def results_of(out: Path) -> dict:
    return {folder.name: json.loads((folder / "results.json").read_text())
            for folder in out.iterdir() if folder.is_dir()}


def once_per_run(tmp_path_factory, name: str, make) -> Path:
    """The run's folder ``name``, filled by ``make(folder)`` once for the whole run, also when
    it runs on several workers (pytest-xdist): the first worker to ask makes it under a lock,
    the others wait for it.  For what several test files read and none changes."""
    import fcntl
    import os
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent                  # the run's folder, above each worker's own
    out, done = root / name, root / f"{name}.done"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)    # from a worker that failed midway
            make(out)
            done.touch()
    return out


def grade_course_once(tmp_path_factory, name: str, tasks: Path,
                      submissions: Path) -> tuple[Path, dict]:
    """``grade_course`` once for the whole run (``once_per_run``): the reports folder and each
    student's results.json."""
    out = once_per_run(tmp_path_factory, name,
                       lambda folder: grade_course(tasks, submissions, folder))
    return out, results_of(out)


def kit_once(tmp_path_factory, name: str, tasks: Path) -> tuple[Path, str]:
    """``grader kit --tasks tasks`` once for the whole run (``once_per_run``), into the run's
    folder ``name``: the kit's folder and what the command said on stderr (kept beside it).
    Reading a kit leaves it as it is; a test that changes one builds its own."""
    import contextlib
    import io
    from grader.cli import main

    def make(folder: Path) -> None:
        said = io.StringIO()
        with contextlib.redirect_stderr(said):
            status = main(["kit", "--tasks", str(tasks), "--out", str(folder / "kit")])
        assert status == 0, said.getvalue()
        (folder / "stderr.txt").write_text(said.getvalue())
    out = once_per_run(tmp_path_factory, name, make)
    return out / "kit", (out / "stderr.txt").read_text()


def plain_python() -> Path:
    """The interpreter this suite's venv was made from: a Python without the grader."""
    import sys
    return Path(sys.base_prefix) / "bin" / "python3"


def kit_installed_once(tmp_path_factory) -> Path:
    """The bundled course's kit (``kit_once``) as a student first runs it, once for the whole
    run: a Python without the grader runs its check.py on submissions/korrekt, which makes a
    virtual environment in the cache folder (``GRADER_CACHE_DIR``: ``cache/`` here) and pip
    installs the kit's wheel into it with its dependencies.  The folder also keeps what that
    first run said (``returncode.txt``, ``stdout.txt``, ``stderr.txt``) and wrote (``out/``).
    tests/test_kit_install.py checks that run; tests/test_wheel.py checks the installed kit;
    neither changes the environment."""
    import os
    import subprocess
    kit, _ = kit_once(tmp_path_factory, "kit-tasks", ROOT / "tasks")

    def make(folder: Path) -> None:
        folder.mkdir()
        environment = {**os.environ, "GRADER_CACHE_DIR": str(folder / "cache")}
        environment.pop("PYTHONPATH", None)
        done = subprocess.run([plain_python(), kit / "check.py", ROOT / "submissions" / "korrekt",
                               "--out", folder / "out", "--lang", "en"], cwd=folder,
                              env=environment, capture_output=True, text=True, timeout=600)
        for name, said in (("returncode", str(done.returncode)), ("stdout", done.stdout),
                           ("stderr", done.stderr)):
            (folder / f"{name}.txt").write_text(said)
    return once_per_run(tmp_path_factory, "kit-installed", make)


@pytest.fixture(scope="session")
def graded_examples(tmp_path_factory):
    """``grader grade`` on the bundled example students, once for the whole run."""
    return grade_course_once(tmp_path_factory, "reports", ROOT / "tasks", ROOT / "submissions")


@pytest.fixture(scope="session")
def graded_spiel(tmp_path_factory):
    """``grader grade`` on courses/spiel's seven students with its task file searched at depth
    2 (a match and a rating task: tests/data/match/spiel-tiefe-2.yaml, which says what else
    differs and why the points are the course's), once for the whole run:
    tests/test_match.py and tests/test_rating_check.py read it."""
    spiel = ROOT / "courses" / "spiel"
    return grade_course_once(tmp_path_factory, "spiel-reports",
                             DATA / "match" / "spiel-tiefe-2.yaml", spiel / "submissions")


# -- a real browser for the HTML pages (Debian's chromium and chromium-driver) ----------------

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
NO_BROWSER = ("Debian's chromium and chromium-driver are not installed here; CI installs them")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """A headless Chromium that keeps its console log (``open_page`` reads its errors)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--window-size=1000,1400",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def open_page(browser, path: Path) -> list:
    """Opens ``path``; the console's errors."""
    browser.get(path.as_uri())
    return [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
