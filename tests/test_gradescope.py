"""grader gradescope: the autograder zip, and its run_autograder run for real (bash, the
grader of this venv) on a folder standing in for Gradescope's /autograder."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import grader
from grader.cli import main
from grader.tasks import TaskFileError, load_course
from grader.wheel import wheel_name

from conftest import DATA, ROOT

# What a Gradescope result and a test case may hold (its "Autograder Specifications").
RESULT_KEYS = {"score", "execution_time", "output", "output_format", "test_output_format",
               "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests",
               "leaderboard"}
TEST_KEYS = {"score", "max_score", "status", "name", "name_format", "number", "output",
             "output_format", "tags", "visibility", "extra_data"}
VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}
# The example student who cuts only at beta < alpha: the checks where ties decide.
STRICT_FAILS = {"ttt-midgame-a/alphabeta/count", "ttt-midgame-a/alphabeta/visited",
                "ttt-midgame-b/alphabeta/count", "random-trees/alphabeta/random-trees",
                "random-trees/alphabeta/random-trees-2"}


def build(tasks: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader.cli", "gradescope", "--tasks",
                           str(tasks), "--out", str(out), *extra], capture_output=True,
                          text=True, timeout=300)


@pytest.fixture(scope="module")
def autograder(tmp_path_factory):
    """The bundled course's autograder zip, written by the command."""
    out = tmp_path_factory.mktemp("gradescope") / "autograder.zip"
    done = build(ROOT / "tasks", out)
    assert done.returncode == 0, done.stderr
    assert f"Wrote {out}" in done.stderr
    return out


def gradescope_root(folder: Path, autograder: Path, submission: dict[str, bytes]) -> Path:
    """/autograder as Gradescope lays it out: the zip in source/, run_autograder copied to
    the top, the student's files in submission/."""
    root = folder / "autograder"
    with zipfile.ZipFile(autograder) as archive:
        archive.extractall(root / "source")
    (root / "run_autograder").write_bytes((root / "source" / "run_autograder").read_bytes())
    (root / "run_autograder").chmod(0o755)
    (root / "submission").mkdir()
    for name, data in submission.items():
        (root / "submission" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "submission" / name).write_bytes(data)
    return root


def run_autograder(root: Path) -> tuple[subprocess.CompletedProcess, dict]:
    """run_autograder, as Gradescope runs it (in the root), with this venv's grader."""
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "GRADER_PYTHON": sys.executable}
    done = subprocess.run(["bash", str(root / "run_autograder")], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    results = root / "results" / "results.json"
    return done, json.loads(results.read_text()) if results.exists() else {}


def files_of(student: str) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in (ROOT / "submissions" / student).iterdir()
            if path.suffix == ".py"}


def assert_gradescope_format(results: dict) -> None:
    assert set(results) <= RESULT_KEYS
    assert isinstance(results["score"], (int, float))
    assert results["visibility"] in VISIBILITIES
    assert results["stdout_visibility"] in VISIBILITIES
    for test in results["tests"]:
        assert set(test) <= TEST_KEYS
        assert test["visibility"] in VISIBILITIES and test["status"] in ("passed", "failed")
        assert 0 <= test["score"] <= test["max_score"]
    assert results["score"] == pytest.approx(sum(t["score"] for t in results["tests"]))


def by_id(results: dict) -> dict[str, dict]:
    return {test["name"].split(" ")[0]: test for test in results["tests"]}


def test_the_zip_holds_setup_run_autograder_tasks_and_the_wheel_at_its_root(autograder,
                                                                             tmp_path):
    wheel = wheel_name(grader.__version__)
    with zipfile.ZipFile(autograder) as archive:
        assert set(archive.namelist()) == {"setup.sh", "run_autograder", "tasks/blatt3.yaml",
                                           wheel}
        for script in ("setup.sh", "run_autograder"):
            mode = archive.getinfo(script).external_attr >> 16
            assert stat.S_ISREG(mode) and mode & 0o777 == 0o755, script
        archive.extractall(tmp_path)
        with zipfile.ZipFile(archive.open(wheel)) as bundled:
            assert "reference/minimax.py" in bundled.namelist()
    assert (tmp_path / "tasks" / "blatt3.yaml").read_bytes() == \
        (ROOT / "tasks" / "blatt3.yaml").read_bytes()
    for script in ("setup.sh", "run_autograder"):
        checked = subprocess.run(["bash", "-n", str(tmp_path / script)], capture_output=True,
                                 text=True)
        assert checked.returncode == 0, checked.stderr
    setup = (tmp_path / "setup.sh").read_text()
    assert f'"$source_dir/{wheel}"' in setup
    assert "apt-get update" in setup
    assert "apt-get install -y --no-install-recommends python3 python3-venv bubblewrap " \
           "libseccomp2" in setup
    assert 'grader validate "$source_dir/tasks"' in setup
    assert "gradescope-run" in (tmp_path / "run_autograder").read_text()


def test_a_correct_submission_gets_full_marks_on_every_check_hidden_ones_too(autograder,
                                                                              tmp_path, course):
    root = gradescope_root(tmp_path, autograder, files_of("korrekt"))
    done, results = run_autograder(root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert_gradescope_format(results)
    assert results["score"] == course.max_score == 60
    tests = by_id(results)
    assert set(tests) == {check.id for task in course.tasks for check in task.checks}
    assert all(test["status"] == "passed" for test in tests.values())
    assert tests["ttt-midgame-a/alphabeta/visited"]["visibility"] == "hidden"
    assert tests["tree-blatt3/alphabeta/visited"]["visibility"] == "visible"
    assert results["visibility"] == "visible" and results["stdout_visibility"] == "hidden"
    assert results["output_format"] == results["test_output_format"] == "md"
    assert all(test["output_format"] == "md" for test in results["tests"])
    assert results["output"] == "", "nothing to say about the hand-in"
    assert results["extra_data"]["isolation"] in ("bubblewrap", "container")
    assert "leaderboard" not in results
    assert f"isolation: {results['extra_data']['isolation']}" in done.stdout
    assert "Score 60/60" in done.stdout


def test_a_faulty_submission_loses_the_checks_it_fails_hidden_ones_included(autograder,
                                                                            tmp_path, course):
    root = gradescope_root(tmp_path, autograder, files_of("strikter-schnitt"))
    done, results = run_autograder(root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert_gradescope_format(results)
    tests = by_id(results)
    assert {name for name, test in tests.items() if test["status"] == "failed"} == STRICT_FAILS
    lost = sum(check.points for task in course.tasks for check in task.checks
               if check.id in STRICT_FAILS)
    assert results["score"] == course.max_score - lost
    hidden = tests["ttt-midgame-a/alphabeta/visited"]
    assert hidden["visibility"] == "hidden" and hidden["score"] == 0
    assert "88" in hidden["output"]          # the instructor sees what the reference visits
    # A test says what feedback.md says: the named mistake, and the visit table beside the
    # reference's, as Markdown
    count = tests["ttt-midgame-a/alphabeta/count"]["output"]
    assert count.startswith("❌ Du besuchst 125 Knoten, die Referenz nur 88.")
    assert "„if β ≤ α: break“" in count
    assert "| Nr. | Referenz | deine Suche |" in count and "\n|---|---|---|\n" in count
    random = tests["random-trees/alphabeta/random-trees"]["output"]
    assert "Kleinstes Gegenbeispiel" in random and "```" in random, "the tree, drawn"


def test_a_syntax_error_is_graded_not_a_failed_autograder(autograder, tmp_path, course):
    root = gradescope_root(tmp_path, autograder, files_of("syntaxfehler"))
    done, results = run_autograder(root)
    assert done.returncode == 0
    assert_gradescope_format(results)
    evaluate = sum(check.points for task in course.tasks for check in task.checks
                   if check.function == "evaluate")
    assert results["score"] == evaluate
    assert any("SyntaxError" in test["output"] for test in results["tests"])


def test_an_uploaded_archive_with_a_folder_is_arranged_as_in_a_batch(autograder, tmp_path,
                                                                     course):
    archive = tmp_path / "abgabe.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        for name, data in files_of("korrekt").items():
            packed.writestr(f"Blatt3/{name}", data)
    root = gradescope_root(tmp_path, autograder, {"abgabe.zip": archive.read_bytes()})
    done, results = run_autograder(root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert results["score"] == course.max_score
    # unpacking an uploaded archive is said to the student, and needs no person
    assert results["extra_data"]["needs_person"] is False
    assert results["extra_data"]["notes"]
    assert "abgabe.zip" in results["output"] and results["output_format"] == "md"


def test_an_empty_submission_scores_zero_with_every_check_listed(autograder, tmp_path, course):
    root = gradescope_root(tmp_path, autograder, {})
    done, results = run_autograder(root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert_gradescope_format(results)
    assert results["score"] == 0 and len(results["tests"]) == \
        sum(len(task.checks) for task in course.tasks)


def test_at_the_process_level_the_hidden_checks_are_withheld_and_it_says_so(autograder,
                                                                            tmp_path, course):
    from grader.lms.gradescope import run
    root = gradescope_root(tmp_path, autograder, files_of("korrekt"))
    log = tmp_path / "stdout"
    with log.open("w") as out:
        assert run(root, level="process", log=out) == 0
    results = json.loads((root / "results" / "results.json").read_text())
    assert_gradescope_format(results)
    hidden = {c.id: c.points for t in course.tasks for c in t.checks if c.visibility != "visible"}
    assert results["score"] == course.max_score - sum(hidden.values())
    for name, test in by_id(results).items():
        assert (test["status"] == "failed") == (name in hidden), name
        if name in hidden:
            assert "bubblewrap" in test["output"]
    assert results["output"].startswith("Die verborgenen Tests wurden nicht ausgeführt")
    assert "hidden checks are withheld" in log.read_text()


def test_the_course_s_leaderboard_goes_into_results_json(tmp_path):
    zipped = tmp_path / "autograder.zip"
    done = build(DATA / "gradescope" / "leaderboard.yaml", zipped, "--lang", "de")
    assert done.returncode == 0, done.stderr
    root = gradescope_root(tmp_path, zipped, files_of("korrekt"))
    assert "--lang de" in (root / "run_autograder").read_text()
    finished, results = run_autograder(root)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert_gradescope_format(results)
    assert results["score"] == 3 and results["extra_data"]["language"] == "de"
    board = {entry["name"]: entry for entry in results["leaderboard"]}
    assert [entry["name"] for entry in results["leaderboard"]] == \
        ["Points", "Tree", "Nodes", "Seconds"]
    assert board["Points"] == {"name": "Points", "value": 3.0, "order": "desc"}
    assert board["Tree"] == {"name": "Tree", "value": 3.0, "order": "desc"}
    assert board["Nodes"] == {"name": "Nodes", "value": 16, "order": "asc"}
    assert board["Seconds"]["order"] == "asc" and board["Seconds"]["value"] >= 0


def test_a_leaderboard_column_that_is_wrong_is_named_with_file_and_line():
    path = DATA / "gradescope" / "bad-leaderboard.yaml"
    with pytest.raises(TaskFileError) as raised:
        load_course(path)
    found = {(problem.line, problem.message) for problem in raised.value.problems}
    lines = {line for line, _ in found}
    assert lines == {5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
    messages = " | ".join(message for _, message in sorted(found))
    for expected in ("'Points' is named twice", "'speed'", "not the id of a count check",
                     "no task has the id 'no-such-task'", "hidden or after-due checks "
                     "(secret/minimax/value)", "needs a name", "order must be desc",
                     "names its task's id", "'check' does not belong", "unknown key 'podium'"):
        assert expected in messages, expected
    assert all(problem.file == str(path) for problem in raised.value.problems)


def test_the_command_exits_2_on_bad_task_files_and_1_when_it_cannot_write(tmp_path, capsys):
    assert main(["gradescope", "--tasks", str(DATA / "bad" / "many-errors.yaml"), "--out",
                 str(tmp_path / "a.zip")]) == 2
    assert main(["gradescope", "--tasks", str(DATA / "bad" / "wrong-pin.yaml"), "--out",
                 str(tmp_path / "a.zip")]) == 2
    assert "Pinned answers disagree" in capsys.readouterr().err
    assert not (tmp_path / "a.zip").exists()
    (tmp_path / "taken").mkdir()
    assert main(["gradescope", "--tasks", str(ROOT / "tasks"), "--out",
                 str(tmp_path / "taken")]) == 1
    assert "Could not write" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]


def test_the_run_exits_2_on_broken_task_files_and_still_writes_results(autograder, tmp_path,
                                                                       capsys):
    root = gradescope_root(tmp_path, autograder, files_of("korrekt"))
    (root / "source" / "tasks" / "blatt3.yaml").write_text("tasks: [\n")
    assert main(["gradescope-run", "--root", str(root)]) == 2
    results = json.loads((root / "results" / "results.json").read_text())
    assert_gradescope_format(results)
    assert results["score"] == 0 and "could not grade" in results["output"]
    assert "blatt3.yaml" in capsys.readouterr().out


def test_the_run_exits_1_when_results_json_cannot_be_written(autograder, tmp_path, capsys):
    root = gradescope_root(tmp_path, autograder, files_of("korrekt"))
    (root / "results").write_text("a file where the folder should be")
    assert main(["gradescope-run", "--root", str(root)]) == 1
    assert "Could not write" in capsys.readouterr().err


def test_setup_installs_the_course_s_packages_beside_the_grader(tmp_path):
    zipped = tmp_path / "autograder.zip"
    done = build(DATA / "conventions" / "multi-agent" / "tasks.yaml", zipped)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(zipped) as archive:
        archive.extract("setup.sh", tmp_path)
        assert "tasks/tasks.yaml" in archive.namelist()
    setup = (tmp_path / "setup.sh").read_text()
    assert f'"$source_dir/{wheel_name(grader.__version__)}" numpy\n' in setup
    checked = subprocess.run(["bash", "-n", str(tmp_path / "setup.sh")], capture_output=True,
                             text=True)
    assert checked.returncode == 0, checked.stderr


def test_a_course_s_own_game_module_goes_into_the_zip_where_its_tasks_find_it(tmp_path):
    course = tmp_path / "course"
    shutil.copytree(DATA / "plugin-game", course)
    out = tmp_path / "autograder.zip"
    assert build(course / "tasks", out).returncode == 0
    with zipfile.ZipFile(out) as archive:
        assert archive.read("games/race.py") == (course / "games" / "race.py").read_bytes()
    root = gradescope_root(tmp_path, out, files_of("korrekt"))
    done, results = run_autograder(root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert results["score"] == 12
    # A module the zip cannot hold where the task files look for it: refused, exit 2.
    (course / "tasks" / "race.yaml").write_text(
        (course / "tasks" / "race.yaml").read_text().replace("../games/race.py",
                                                             "../../elsewhere/race.py"))
    (tmp_path / "elsewhere").mkdir()
    shutil.copy(course / "games" / "race.py", tmp_path / "elsewhere" / "race.py")
    refused = build(course / "tasks", tmp_path / "other.zip")
    assert refused.returncode == 2 and "lies outside the task files' folder" in refused.stderr
