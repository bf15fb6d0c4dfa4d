"""Student code never runs in the grader's process.

A graded folder is planted with files that leave a mark in a host folder whenever they are
imported or run (tests/data/host-marks/planted: ``test_evil.py``, ``evil_test.py``,
``conftest.py``, ``__init__.py``, a ``tests/`` package with its own conftest.py and test,
``sitecustomize.py``, ``usercustomize.py``, a ``.pth`` file, ``setup.py``, a ``pytest.ini``
that would load ``evil_plugin.py``, and modules named like what the grader, pytest's plugins
and multiprocessing's workers import: ``argparse``, ``json``, ``yaml``, ``rich``, ``jinja2``,
``msgspec``, ``pickle``, ``socket``, ``threading``).  Beside them lie the correct modules, the
evaluation among them marking too (tests/data/host-marks/evaluation.py): it does run, in the
sandbox, where the host folder is out of reach.

Every entry point that touches a submission grades such a folder at the bubblewrap level, run
from inside it where that is the worst case (``python -m`` puts the current folder first on
the import path), and the tests assert that no mark is left and that the grading itself
happened: the correct modules, full points.  The first test shows that the marks are real: at
the 'process' level, where student code runs as you, the evaluation leaves its mark.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA, ROOT

from grader.report.templating import TEMPLATES
from grader.sandbox.bubblewrap import bubblewrap_works
from grader.tasks import load_course

MARKS = DATA / "host-marks"
PLANTED = MARKS / "planted"
COURSE = load_course(ROOT / "tasks")
VISIBLE = [check for task in COURSE.tasks for check in task.checks
           if check.visibility == "visible"]
VISIBLE_POINTS = sum(check.points for check in VISIBLE)
TOURNAMENT = ROOT / "courses" / "turnier"

BUBBLEWRAP = pytest.mark.skipif(not bubblewrap_works(), reason="bubblewrap is not installed "
                                "or cannot create namespaces here; CI installs it")


def planted(folder: Path, marks: Path, solution: tuple[Path, ...] = (
        ROOT / "submissions" / "korrekt" / "minimax.py", MARKS / "evaluation.py")) -> Path:
    """``folder``: the planted files, the ``solution``'s modules beside them, and
    marker-dir.txt naming ``marks`` (made, empty), where the planted files write."""
    shutil.copytree(PLANTED, folder)
    for module in solution:
        shutil.copy2(module, folder / module.name)
    marks.mkdir(parents=True, exist_ok=True)
    (folder / "marker-dir.txt").write_text(str(marks), encoding="utf-8")
    return folder


def left(marks: Path) -> set[str]:
    """The marks left: the planted files that were imported or run outside a sandbox."""
    return {mark.name for mark in marks.iterdir()}


def environment(tmp_path: Path, **extra) -> dict:
    """The suite's environment without pytest's own variables, with a temporary folder of the
    test's for the grader's staging and scratch folders."""
    (tmp_path / "tmp").mkdir(exist_ok=True)
    env = {name: value for name, value in os.environ.items() if not name.startswith("PYTEST_")}
    return {**env, "TMPDIR": str(tmp_path / "tmp"), **extra}


def run(command: list, cwd: Path, tmp_path: Path, **extra) -> subprocess.CompletedProcess:
    return subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True,
                          text=True, env=environment(tmp_path, **extra), timeout=600)


def grader(how: str) -> list:
    """The grader started as a program: ``python -m MODULE``, or the installed command."""
    if how == "command":
        return [Path(sys.executable).parent / "grader"]
    return [sys.executable, "-m", how]


# -- the marks are real ---------------------------------------------------------------------

def test_the_planted_code_leaves_its_mark_where_it_runs_as_you(tmp_path):
    """The control: at the 'process' level the evaluation runs on the host and marks, so a
    missing mark elsewhere means the code did not run there."""
    folder = planted(tmp_path / "anna", tmp_path / "marks")
    done = run([*grader("grader.cli"), "check", ".", "--tasks", ROOT / "tasks", "--points",
                "--sandbox", "process", "--out", tmp_path / "out"], folder, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(f"Points {VISIBLE_POINTS:g}/{VISIBLE_POINTS:g}")
    assert left(tmp_path / "marks") == {"evaluation.py"}


# -- pytest --grader-tasks ------------------------------------------------------------------

def course_repository(tmp_path: Path, submission: str = "abgabe", ini: str | None = None):
    """An instructor's course repository: tasks/, a handed-in folder ``submission`` planted
    with traps, and (``ini``) a pytest.ini with that content."""
    repository = tmp_path / "kurs"
    shutil.copytree(ROOT / "tasks", repository / "tasks")
    planted(repository / submission, tmp_path / "marks")
    if ini is not None:
        (repository / "pytest.ini").write_text(ini, encoding="utf-8")
    return repository


def pytest_in(repository: Path, tmp_path: Path, *arguments):
    """pytest with the grader's plugin, without Hypothesis's (as tests/test_pytest_plugin.py
    runs it: its summary imports Hypothesis, 2 of the 3.5 CPU-seconds of such a run)."""
    return run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                "-p", "no:hypothesispytest", "-v",
                "--grader-sandbox", "bubblewrap", *arguments], repository, tmp_path)


def passed(output: str) -> dict[str, str]:
    """``-v``'s verdict per node id."""
    return {parts[0]: parts[1] for parts in map(str.split, output.splitlines())
            if len(parts) >= 2 and "::" in parts[0] and parts[1] in ("PASSED", "FAILED")}


EVERY_CHECK_PASSED = {"tasks/blatt3.yaml::" + check.id.replace("/", "::"): "PASSED"
                      for check in VISIBLE}


@BUBBLEWRAP
@pytest.mark.parametrize("arguments, ini", [
    (["--grader-tasks=tasks", "--grader-submission=abgabe"], None),      # the README's
    (["--grader-tasks", "tasks", "--grader-submission", "abgabe"],
     "[pytest]\naddopts = -ra\n"),            # the course's own ini file found first
    (["--grader-submission=abgabe"], "[pytest]\ngrader_tasks = tasks\n"),
    ([], "[pytest]\ngrader_tasks = tasks\ngrader_submission = abgabe\n"),
], ids=["documented", "course-ini-first", "course-in-ini", "all-in-ini"])
def test_the_pytest_plugin_grades_a_handed_in_folder_without_importing_any_of_it(
        tmp_path, arguments, ini):
    repository = course_repository(tmp_path, ini=ini)
    done = pytest_in(repository, tmp_path, *arguments)
    assert done.returncode == 0, done.stdout + done.stderr
    # Only the grader's items: nothing of abgabe/ was collected.
    assert passed(done.stdout) == EVERY_CHECK_PASSED
    assert f"grader: {VISIBLE_POINTS:g}/{VISIBLE_POINTS:g} Punkte" in done.stdout
    assert left(tmp_path / "marks") == set()


@BUBBLEWRAP
@pytest.mark.parametrize("name", ["tests", "test_abgabe"])
def test_a_folder_named_like_tests_is_refused_until_the_paths_to_test_are_named(tmp_path,
                                                                              name):
    """pytest imports the conftest.py of each test* folder of the folder it starts in before
    any plugin hook can keep one out: refused, saying what to do; done so, it is graded."""
    repository = course_repository(tmp_path, name)
    refused = pytest_in(repository, tmp_path, "--grader-tasks=tasks",
                        f"--grader-submission={name}")
    assert refused.returncode == 4, refused.stdout + refused.stderr
    assert "pytest imports the conftest.py of every test* folder of" in refused.stderr
    assert f"the folder graded, {repository / name}, is one" in refused.stderr
    assert left(tmp_path / "marks") == set()
    named = pytest_in(repository, tmp_path, "--grader-tasks=tasks",
                      f"--grader-submission={name}", "tasks")
    assert named.returncode == 0, named.stdout + named.stderr
    assert passed(named.stdout) == EVERY_CHECK_PASSED
    assert left(tmp_path / "marks") == set()


@BUBBLEWRAP
@pytest.mark.parametrize("arguments, said", [
    (["--grader-tasks=abgabe/tasks", "--grader-submission=abgabe"],
     "keep the task files or the kit outside the folders you grade"),
    (["--grader-tasks=tasks", "--grader-submission=abgabe", "tasks", "abgabe/test_evil.py"],
     "where pytest starts collecting, lies inside the folder graded"),
    (["--grader-tasks=tasks", "--grader-submission=abgabe", "--rootdir=abgabe"],
     "pytest took its rootdir"),
], ids=["course-inside", "path-inside", "rootdir-inside"])
def test_a_run_that_would_import_from_the_folder_is_refused_before_any_import(
        tmp_path, arguments, said):
    """(With an ini file of the course's, which pytest finds before abgabe/pytest.ini.)"""
    repository = course_repository(tmp_path, ini="[pytest]\naddopts = -ra\n")
    shutil.copytree(ROOT / "tasks", repository / "abgabe" / "tasks")
    refused = pytest_in(repository, tmp_path, *arguments)
    assert refused.returncode == 4, refused.stdout + refused.stderr
    assert said in refused.stderr
    assert left(tmp_path / "marks") == set()


@pytest.mark.parametrize("arguments, ini", [
    (["--grader-submission", "abgabe"], "[pytest]\ngrader_tasks = tasks\n"),
    (["--grader-tasks", "tasks", "--grader-submission", "abgabe"], None),
], ids=["course-in-ini", "no-ini-file"])
def test_a_value_after_a_space_that_hands_pytest_the_folders_ini_file_is_refused(
        tmp_path, arguments, ini):
    """pytest chooses its ini file before any plugin is loaded, taking the value after a
    space for a path to test: with no ini file above the folder it starts in, or with only
    ``abgabe`` to look from, it reads abgabe/pytest.ini and itself loads the plugin that file
    names (``-p evil_plugin``, with ``pythonpath = .``; pytest before 9.0 puts that path on
    sys.path only later, and stops as it cannot find the plugin).  No plugin can prevent that:
    the README says to write the options with '='.  The grader then refuses before
    collection, and nothing else is imported."""
    repository = course_repository(tmp_path, ini=ini)
    refused = pytest_in(repository, tmp_path, *arguments)
    if int(pytest.__version__.split(".")[0]) >= 9:
        assert refused.returncode == 4, refused.stdout + refused.stderr
        assert "pytest took its rootdir" in refused.stderr
        assert "write the options with '=' (--grader-submission=DIR" in refused.stderr
        assert left(tmp_path / "marks") == {"evil_plugin.py"}
    else:
        assert 'Error importing plugin "evil_plugin"' in refused.stderr
        assert left(tmp_path / "marks") == set()


@BUBBLEWRAP
def test_in_a_students_own_repository_the_grader_imports_nothing_of_it(tmp_path):
    """Run in the student's own repository (the folder graded holds the folder pytest runs
    in), pytest runs the student's own tests as always; the grader's own imports and its
    grading leave that folder off the import path, so a student's yaml.py, rich.py, msgspec.py
    or jinja2/ is never the grader's (with ``python -m pytest`` the folder comes first)."""
    repository = tmp_path / "repo"
    shutil.copytree(ROOT / "tasks", repository / "tasks")
    for module in (ROOT / "submissions" / "korrekt" / "minimax.py", MARKS / "evaluation.py"):
        shutil.copy2(module, repository)
    for shadow in ("yaml.py", "rich.py", "msgspec.py", "jinja2"):
        (shutil.copytree if (PLANTED / shadow).is_dir() else shutil.copy2)(
            PLANTED / shadow, repository / shadow)
    (tmp_path / "marks").mkdir()
    (repository / "marker-dir.txt").write_text(str(tmp_path / "marks"), encoding="utf-8")
    done = pytest_in(repository, tmp_path, "--grader-tasks", "tasks")
    assert done.returncode == 0, done.stdout + done.stderr
    assert passed(done.stdout) == EVERY_CHECK_PASSED
    assert left(tmp_path / "marks") == set()


# -- the grader command ----------------------------------------------------------------------

@BUBBLEWRAP
@pytest.mark.parametrize("how", ["grader.cli", "grader", "command"])
def test_grader_check_run_inside_the_folder_imports_nothing_of_it(tmp_path, how):
    """``python -m grader.cli`` and ``python -m grader`` put the current folder first on the
    import path; the grader takes it off before its first import.  The installed command
    never has it there, not even with a ``grader/`` package in the folder."""
    folder = planted(tmp_path / "anna", tmp_path / "marks")
    if how == "command":
        shutil.copytree(MARKS / "grader-package" / "grader", folder / "grader")
    done = run([*grader(how), "check", ".", "--tasks", ROOT / "tasks", "--points",
                "--sandbox", "bubblewrap", "--out", tmp_path / "out"], folder, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(f"Points {VISIBLE_POINTS:g}/{VISIBLE_POINTS:g}")
    assert left(tmp_path / "marks") == set()


@BUBBLEWRAP
def test_grader_grade_and_merge_run_inside_a_folder_import_nothing_of_it(tmp_path):
    folder = planted(tmp_path / "abgaben" / "anna", tmp_path / "marks")
    graded = run([*grader("grader.cli"), "grade", "--tasks", ROOT / "tasks", "--submissions",
                  "..", "--out", tmp_path / "shard", "--shard", "1/1", "--jobs", "1",
                  "--sandbox", "bubblewrap"], folder, tmp_path)
    assert graded.returncode == 0, graded.stderr
    result = json.loads((tmp_path / "shard" / "anna" / "results.json").read_text())
    assert result["score"] == COURSE.max_score
    merged = run([*grader("grader.cli"), "merge", tmp_path / "shard", "--out",
                  tmp_path / "merged", "--tasks", ROOT / "tasks"], folder, tmp_path)
    assert merged.returncode == 0, merged.stderr
    with open(tmp_path / "merged" / "gradebook.csv", encoding="utf-8") as gradebook:
        rows = {row["student"]: row for row in csv.DictReader(gradebook)}
    assert float(rows["anna"]["score"]) == COURSE.max_score
    assert left(tmp_path / "marks") == set()


@BUBBLEWRAP
def test_a_kit_kept_in_the_folder_checks_it_without_importing_any_of_it(tmp_path):
    """``grader kit`` run inside the folder, the kit written into it (as a kit committed to a
    student's repository), and the folder's traps copied into the kit's folder too, which
    ``python3 kit/check.py`` has first on its import path until it takes it off."""
    folder = planted(tmp_path / "anna", tmp_path / "marks")
    built = run([*grader("grader.cli"), "kit", "--tasks", ROOT / "tasks", "--out", "kit"],
                folder, tmp_path)
    assert built.returncode == 0, built.stderr
    for shadow in ("argparse.py", "json.py", "yaml.py", "rich.py", "pickle.py"):
        shutil.copy2(PLANTED / shadow, folder / "kit" / shadow)
    shutil.copy2(folder / "marker-dir.txt", folder / "kit" / "marker-dir.txt")
    checked = run([sys.executable, "kit/check.py", ".", "--points", "--sandbox", "bubblewrap",
                   "--out", tmp_path / "out"], folder, tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.rstrip().endswith(f"Points {VISIBLE_POINTS:g}/{VISIBLE_POINTS:g}")
    assert left(tmp_path / "marks") == set()


def autograder_root(tmp_path: Path) -> Path:
    """/autograder as Gradescope lays it out, the submission planted with traps and with a
    ``grader/`` package."""
    root = tmp_path / "autograder"
    shutil.copytree(ROOT / "tasks", root / "source" / "tasks")
    planted(root / "submission", tmp_path / "marks")
    shutil.copytree(MARKS / "grader-package" / "grader", root / "submission" / "grader")
    return root


@BUBBLEWRAP
def test_gradescope_run_inside_the_submission_imports_nothing_of_it(tmp_path):
    """run_autograder (as ``grader gradescope`` writes it) starts the grader with ``-I``:
    whatever folder Gradescope runs it in, not even a ``grader/`` package there is imported;
    ``python -m grader.cli gradescope-run`` takes the current folder off its path itself."""
    root = autograder_root(tmp_path)
    script = TEMPLATES.get_template("gradescope-run_autograder.j2").render(
        version="test", venv="/nonexistent", cache="/nonexistent", lang=None)
    (root / "run_autograder").write_text(script, encoding="utf-8")
    done = run(["bash", root / "run_autograder"], root / "submission", tmp_path,
               AUTOGRADER_ROOT=str(root), GRADER_PYTHON=sys.executable)
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == COURSE.max_score
    assert results["extra_data"]["isolation"] == "bubblewrap"
    assert left(tmp_path / "marks") == set()
    shutil.rmtree(root / "submission" / "grader")   # python -m: Python itself would import it
    (root / "results" / "results.json").unlink()
    direct = run([*grader("grader.cli"), "gradescope-run", "--root", root],
                 root / "submission", tmp_path)
    assert direct.returncode == 0, direct.stdout + direct.stderr
    assert json.loads((root / "results" / "results.json").read_text())["score"] \
        == COURSE.max_score
    assert left(tmp_path / "marks") == set()


@BUBBLEWRAP
def test_a_tournament_run_inside_an_entrants_folder_imports_nothing_of_it(tmp_path):
    """The tournament's worker processes (``--jobs 2``) are spawned as ``python -c``, which
    puts the current folder first on their path: the planted pickle.py, socket.py and
    threading.py would run in them.  The entrant plays its games."""
    folder = planted(tmp_path / "spieler" / "anna", tmp_path / "marks",
                     tuple((TOURNAMENT / "submissions" / "mitte").iterdir()))
    done = run([*grader("grader.cli"), "tournament", "--tasks", TOURNAMENT / "tasks",
                "--submissions", "..", "--out", tmp_path / "turnier", "--baselines",
                "random", "--jobs", "2", "--sandbox", "bubblewrap"], folder, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    record = json.loads((tmp_path / "turnier" / "tournament.json").read_text())
    assert len(record["games"]) == 2 and not record["errors"]
    with open(tmp_path / "turnier" / "ratings.csv", encoding="utf-8") as ratings:
        assert {row["player"]: row["games"] for row in csv.DictReader(ratings)}["anna"] == "2"
    assert left(tmp_path / "marks") == set()


def test_import_trees_run_inside_a_folder_imports_nothing_of_it(tmp_path):
    folder = planted(tmp_path / "anna", tmp_path / "marks")
    done = run([*grader("grader.cli"), "import-trees", DATA / "pacman-trees", "--out",
                tmp_path / "pacman.yaml"], folder, tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(load_course(tmp_path / "pacman.yaml").tasks) == 2
    assert left(tmp_path / "marks") == set()
