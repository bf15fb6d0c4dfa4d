"""pytest in a course repository (grader/pytest_plugin.py), run as a student runs it: a real
`python -m pytest --grader-tasks tasks` in a subprocess, in a folder holding a copy of the
bundled course's task files and of an example submission, its JUnit XML read back."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import DATA, ROOT, kit_once

from grader.sandbox.bubblewrap import bubblewrap_works
from grader.sandbox.levels import container_problem
from grader.tasks import load_course

PLUGIN_DATA = DATA / "pytest-plugin"
COURSE = load_course(ROOT / "tasks")
VISIBLE = [check for task in COURSE.tasks for check in task.checks
           if check.visibility == "visible"]
HIDDEN = sum(1 for task in COURSE.tasks for check in task.checks
             if check.visibility != "visible")
VISIBLE_POINTS = sum(check.points for check in VISIBLE)


def node_id(check) -> str:
    task, function, name = check.id.split("/")
    return f"tasks/blatt3.yaml::{task}::{function}::{name}"


def course_repository(folder: Path, submission: str) -> Path:
    """A student's repository: the course's task files in tasks/, their code beside them."""
    shutil.copytree(ROOT / "tasks", folder / "tasks")
    for file in (ROOT / "submissions" / submission).iterdir():
        shutil.copy2(file, folder / file.name)
    return folder


def environment(temporary: Path, **extra) -> dict:
    """The suite's environment without pytest's own variables, with a temporary folder of the
    test's (where the grader's staging and scratch folders go)."""
    temporary.mkdir(exist_ok=True)
    env = {name: value for name, value in os.environ.items() if not name.startswith("PYTEST_")}
    return {**env, "TMPDIR": str(temporary), **extra}


# Hypothesis is in the suite's venv (for its own property tests), not in a course repository;
# its pytest plugin, loaded at every start, took some 2.3 of a pytest start's 2.9 s of CPU.
# The runs below leave it out, as a student's pytest would not have it.
PYTEST = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest"]


def run_pytest(repository: Path, *arguments: str, env: dict | None = None):
    return subprocess.run([*PYTEST, *arguments], cwd=repository, capture_output=True, text=True,
                          env=env if env is not None else environment(repository.parent / "tmp"),
                          timeout=280)


def failure_reports(output: str) -> str:
    """The FAILURES section alone: the short summary after it repeats each message once more
    when the terminal is wide enough (CI's is), so counting there would count twice."""
    return output.split("= FAILURES =")[1].split("short test summary info")[0]


def outcomes(output: str) -> dict[str, str]:
    """``-v``'s verdict per node id."""
    found = {}
    for line in output.splitlines():
        parts = line.split()
        if len(parts) >= 2 and "::" in parts[0] and parts[1] in ("PASSED", "FAILED"):
            found[parts[0]] = parts[1]
    return found


def junit_cases(path: Path) -> dict[tuple[str, str], ET.Element]:
    return {(case.get("classname"), case.get("name")): case
            for case in ET.parse(path).getroot().iter("testcase")}


def properties(case: ET.Element) -> dict[str, str]:
    return {p.get("name"): p.get("value") for p in case.iter("property")}


def processes(predicate) -> list[int]:
    """The machine's processes whose /proc entry ``predicate`` accepts."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if predicate(entry):
                    found.append(int(entry.name))
            except OSError:   # ended while being looked at
                continue
    return found


def named(marker: str):
    return lambda entry: (entry / "comm").read_text().strip() == marker


def mentioning(text: str):
    return lambda entry: text.encode() in (entry / "cmdline").read_bytes()


def until(condition, bound: float = 120.0, what: str = "") -> None:
    """Wait until ``condition()`` holds; a generous bound only keeps a broken run from
    hanging the suite (no outcome depends on how fast the machine is)."""
    end = time.monotonic() + bound
    while not condition():
        assert time.monotonic() < end, f"still waiting after {bound:g} s: {what}"
        time.sleep(0.05)


def test_a_correct_submission_passes_one_item_per_visible_check(tmp_path):
    repository = course_repository(tmp_path / "repo", "korrekt")
    junit = tmp_path / "junit.xml"
    run = run_pytest(repository, "--grader-tasks", "tasks", "-v", f"--junitxml={junit}")
    assert run.returncode == 0, run.stdout + run.stderr
    assert outcomes(run.stdout) == {node_id(check): "PASSED" for check in VISIBLE}
    assert f"grader: {VISIBLE_POINTS:g}/{VISIBLE_POINTS:g} Punkte ({HIDDEN} verborgene Tests " \
           "nicht ausgeführt)" in run.stdout.splitlines()
    cases = junit_cases(junit)
    assert len(cases) == len(VISIBLE)
    for check in VISIBLE:
        task, function, name = check.id.split("/")
        case = cases[(f"tasks.blatt3.yaml.{task}.{function}", name)]
        assert properties(case) == {"points": f"{check.points:g}",
                                    "max_points": f"{check.points:g}",
                                    "function": function, "kind": check.kind}
        assert case.find("failure") is None


def test_strict_pruning_fails_exactly_its_visible_checks_with_the_graders_words(tmp_path):
    repository = course_repository(tmp_path / "repo", "strikter-schnitt")
    junit = tmp_path / "junit.xml"
    run = run_pytest(repository, "--grader-tasks", "tasks", "-v", f"--junitxml={junit}")
    assert run.returncode == 1
    failed = {"tasks/blatt3.yaml::ttt-midgame-a::alphabeta::count",
              "tasks/blatt3.yaml::ttt-midgame-b::alphabeta::count",
              "tasks/blatt3.yaml::random-trees::alphabeta::random-trees"}
    assert outcomes(run.stdout) == {node_id(check): "FAILED" if node_id(check) in failed
                                    else "PASSED" for check in VISIBLE}
    lost = sum(c.points for c in VISIBLE if node_id(c) in failed)
    assert f"grader: {VISIBLE_POINTS - lost:g}/{VISIBLE_POINTS:g} Punkte ({HIDDEN} verborgene " \
           "Tests nicht ausgeführt)" in run.stdout.splitlines()
    # The grader's feedback is the failure, with the search beside it; no traceback of ours.
    assert "Du besuchst 125 Knoten, die Referenz nur 88." in run.stdout
    assert "Besuchsreihenfolge bis zur ersten Abweichung" in run.stdout
    assert "Kleinstes Gegenbeispiel" in run.stdout and "A2.2 ■ 0 ✗" in run.stdout
    assert "Traceback" not in run.stdout and "grader/" not in run.stdout
    assert "FAILED tasks/blatt3.yaml::ttt-midgame-a::alphabeta::count - Du besuchst" \
        in run.stdout
    case = junit_cases(junit)[("tasks.blatt3.yaml.ttt-midgame-a.alphabeta", "count")]
    assert properties(case)["points"] == "0" and properties(case)["max_points"] == "1"
    failure = case.find("failure")
    assert failure.get("message").startswith("Du besuchst 125 Knoten, die Referenz nur 88.")
    assert "Besuchsreihenfolge" in failure.text
    passed = junit_cases(junit)[("tasks.blatt3.yaml.ttt-midgame-a.alphabeta", "value")]
    assert properties(passed)["points"] == "1" and passed.find("failure") is None


def test_a_syntax_error_fails_the_modules_checks_with_file_and_line(tmp_path):
    repository = course_repository(tmp_path / "repo", "syntaxfehler")
    run = run_pytest(repository, "--grader-tasks", "tasks", "-v", "--grader-lang", "en")
    assert run.returncode == 1
    assert outcomes(run.stdout) == {node_id(check): "PASSED" if check.function == "evaluate"
                                    else "FAILED" for check in VISIBLE}
    said = "minimax.py cannot be loaded: SyntaxError: expected ':' (line 43)."
    failures = failure_reports(run.stdout)
    assert failures.count(said) == sum(1 for c in VISIBLE if c.function != "evaluate")
    evaluated = sum(c.points for c in VISIBLE if c.function == "evaluate")
    assert f"grader: {evaluated:g}/{VISIBLE_POINTS:g} points ({HIDDEN} hidden checks not run)" \
        in run.stdout.splitlines()


def test_a_search_that_never_returns_fails_its_checks_and_leaves_nothing_behind(tmp_path):
    repository = course_repository(tmp_path / "repo", "endlosschleife")
    run = run_pytest(repository, "--grader-tasks", "tasks", "-v")
    assert run.returncode == 1
    assert outcomes(run.stdout) == {node_id(check): "FAILED" if check.function == "negamax"
                                    else "PASSED" for check in VISIBLE}
    assert "Keine Antwort innerhalb von 1.0 s" in run.stdout
    temporary = tmp_path / "tmp"
    until(lambda: not processes(mentioning(str(temporary))), what="the sandbox's processes")
    assert not [p.name for p in temporary.iterdir() if p.name.startswith("grader-")]


def hanging_repository(tmp_path: Path) -> tuple[Path, str]:
    """tests/data/pytest-plugin/hang: a course whose limits (600 s) no test waits for, and a
    minimax that never returns, named by a fresh marker so that its process can be found."""
    repository = tmp_path / "repo"
    shutil.copytree(PLUGIN_DATA / "hang", repository)
    marker = "gthang" + secrets.token_hex(4)
    (repository / "marker.txt").write_text(marker, encoding="ascii")
    return repository, marker


def start_pytest(repository: Path, *arguments: str) -> subprocess.Popen:
    return subprocess.Popen([*PYTEST, *arguments], cwd=repository, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env=environment(repository.parent / "tmp"))


def when_searching(process: subprocess.Popen, marker: str) -> None:
    """Wait until the student's search runs in its sandbox."""
    until(lambda: processes(named(marker)) or process.poll() is not None,
          what="the hanging search to start")
    assert process.poll() is None, process.communicate()[0]


def unavailable(level: str) -> str | None:
    """Why the sandbox ``level`` cannot run here, or None."""
    if level == "bubblewrap" and not bubblewrap_works():
        return "bubblewrap is not installed or cannot create namespaces here; CI installs it"
    return container_problem() if level == "container" else None


STRONG = [pytest.param(level, marks=pytest.mark.skipif(unavailable(level) is not None,
                                                       reason=str(unavailable(level))))
          for level in ("bubblewrap", "container")]


@pytest.mark.parametrize("level", STRONG)
def test_pytest_timeout_stopping_the_grading_fails_every_item_and_kills_the_sandbox(
        tmp_path, level):
    repository, marker = hanging_repository(tmp_path)
    junit = tmp_path / "junit.xml"
    process = start_pytest(repository, "--grader-tasks", "tasks", "--grader-sandbox", level,
                           "-v", "--timeout", "600", f"--junitxml={junit}")
    when_searching(process, marker)
    # pytest-timeout's timer (signal method, the default) going off now, mid-sandbox.
    process.send_signal(signal.SIGALRM)
    output, _ = process.communicate(timeout=280)
    assert process.returncode == 1, output
    assert outcomes(output) == {"tasks/hang.yaml::tree-small::minimax::value": "FAILED",
                                "tasks/hang.yaml::tree-small::minimax::action": "FAILED"}
    said = ("Nicht bewertet: die Bewertung der Abgabe wurde in "
            "tasks/hang.yaml::tree-small::minimax::value abgebrochen: Timeout (>600.0s) from "
            "pytest-timeout.")
    assert output.splitlines().count(said) == 3     # each item's failure, and the summary
    assert "Traceback" not in output
    for case in junit_cases(junit).values():
        assert properties(case)["points"] == "0"
        assert case.find("failure").get("message") == said
    until(lambda: not processes(named(marker)), what=f"the search {marker} to end")
    assert not [p.name for p in (tmp_path / "tmp").iterdir() if p.name.startswith("grader-")]


@pytest.mark.parametrize("level", STRONG)
def test_pytest_ended_outright_takes_the_sandbox_with_it(tmp_path, level):
    """pytest-timeout's thread method ends pytest with os._exit; nothing is cleaned up in
    the process, so the sandbox must die with its parent."""
    repository, marker = hanging_repository(tmp_path)
    process = start_pytest(repository, "--grader-tasks", "tasks", "--grader-sandbox", level)
    when_searching(process, marker)
    process.kill()
    process.communicate(timeout=280)
    until(lambda: not processes(named(marker)), what=f"the search {marker} to end")


def test_the_ini_file_names_the_course_beside_the_students_own_tests(tmp_path):
    repository = course_repository(tmp_path / "repo", "korrekt")
    shutil.copy2(PLUGIN_DATA / "course-repo" / "pytest.ini", repository / "pytest.ini")
    (repository / "tests").mkdir()
    shutil.copy2(PLUGIN_DATA / "course-repo" / "tests" / "own.py",
                 repository / "tests" / "test_own.py")
    everything = run_pytest(repository, "-v")     # testpaths, and the course's checks
    assert everything.returncode == 0, everything.stdout + everything.stderr
    assert outcomes(everything.stdout) == {
        "tests/test_own.py::test_an_empty_board_is_even": "PASSED",
        **{node_id(check): "PASSED" for check in VISIBLE}}
    assert f"grader: {VISIBLE_POINTS:g}/{VISIBLE_POINTS:g} points ({HIDDEN} hidden checks not " \
           "run)" in everything.stdout.splitlines()
    named_paths = run_pytest(repository, "-v", "tests")   # only what is named
    assert outcomes(named_paths.stdout) == {
        "tests/test_own.py::test_an_empty_board_is_even": "PASSED"}
    assert "grader:" not in named_paths.stdout
    one_function = run_pytest(repository, "-v", "tasks/blatt3.yaml::tree-binary::negamax")
    assert one_function.returncode == 0
    assert outcomes(one_function.stdout) == {
        "tasks/blatt3.yaml::tree-binary::negamax::value": "PASSED",
        "tasks/blatt3.yaml::tree-binary::negamax::action": "PASSED"}


def test_runs_without_a_course_load_nothing_of_the_grader(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy2(PLUGIN_DATA / "unrelated" / "check_unrelated.py", project)
    for extra, expected in (((), "grader grader.pytest_plugin"), (("-p", "no:grader"), "")):
        run = run_pytest(project, *extra, "check_unrelated.py",
                         env=environment(tmp_path / "tmp", GRADER_MODULES_EXPECTED=expected))
        assert run.returncode == 0, run.stdout + run.stderr
        assert "grader:" not in run.stdout
    # Without the plugin, its options are unknown: a usage error.
    refused = run_pytest(project, "-p", "no:grader", "--grader-tasks", "tasks")
    assert refused.returncode == 4
    assert "--grader-tasks" in refused.stderr


def test_a_broken_task_file_is_a_usage_error_naming_file_and_line(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    broken = DATA / "bad" / "many-errors.yaml"
    run = run_pytest(project, "--grader-tasks", str(broken))
    assert run.returncode == 4
    assert f"{broken}:11: unknown check kind 'valeu'" in run.stderr
    missing = run_pytest(project, "--grader-tasks", "tasks")
    assert missing.returncode == 4
    assert f"--grader-tasks {project / 'tasks'}: no such file or folder" in missing.stderr


def test_an_empty_submission_folder_fails_every_item_saying_so(tmp_path):
    repository = course_repository(tmp_path / "repo", "korrekt")
    (repository / "abgabe").mkdir()
    run = run_pytest(repository, "--grader-tasks", "tasks", "--grader-submission", "abgabe",
                     "--grader-lang", "en", "-v", "-k", "tree-binary")
    assert run.returncode == 1
    assert outcomes(run.stdout) == {node_id(check): "FAILED" for check in VISIBLE
                                    if check.task_id == "tree-binary"}
    failures = failure_reports(run.stdout)
    assert failures.count("The submission is empty.\n"
                          "The file minimax.py is missing from your submission.\n") == 4
    lines = run.stdout.splitlines()
    assert f"grader: 0/{VISIBLE_POINTS:g} points ({HIDDEN} hidden checks not run)" in lines
    assert lines[lines.index(f"grader: 0/{VISIBLE_POINTS:g} points ({HIDDEN} hidden checks "
                             "not run)") + 1] == "The submission is empty."


def test_task_files_outside_the_repository_grade_the_folder_pytest_runs_in(tmp_path):
    course = tmp_path / "kurs"
    shutil.copytree(ROOT / "tasks", course / "tasks")
    shutil.copy2(PLUGIN_DATA / "course-checkout" / "pytest.ini", course / "pytest.ini")
    repository = tmp_path / "repo"
    repository.mkdir()
    for file in (ROOT / "submissions" / "korrekt").iterdir():
        shutil.copy2(file, repository / file.name)
    # pytest takes a separate value for a path to test and so the course's folder for its
    # rootdir; with '=' it does not.  Either way the student's folder is graded.
    for option, rootdir in ((["--grader-tasks", "../kurs/tasks"], course),
                            (["--grader-tasks=../kurs/tasks"], repository)):
        run = run_pytest(repository, *option, "-v", "-k", "tree-binary")
        assert f"rootdir: {rootdir}" in run.stdout
        assert run.returncode == 0, run.stdout
        assert sorted(node.split("blatt3.yaml::")[1] for node, outcome
                      in outcomes(run.stdout).items() if outcome == "PASSED") == [
            "tree-binary::minimax::action", "tree-binary::minimax::value",
            "tree-binary::negamax::action", "tree-binary::negamax::value"]


def test_a_kit_in_the_repository_gives_the_same_items_and_verdicts(tmp_path, tmp_path_factory):
    """With --grader-kit the checks come from a self-check kit committed to the repository
    (no task files, no model solution needed): the same items, verdicts and points."""
    repository = tmp_path / "repo"
    repository.mkdir()
    for file in (ROOT / "submissions" / "strikter-schnitt").iterdir():
        shutil.copy2(file, repository / file.name)
    # the run's one kit of the course, as `grader kit` writes it (tests/test_kit.py reads it)
    kit, _ = kit_once(tmp_path_factory, "kit-tasks", ROOT / "tasks")
    shutil.copytree(kit, repository / "kit")
    # The repository's pytest.ini names task files (that are not there): the command line's
    # --grader-kit wins, it is not silently ignored.
    (repository / "pytest.ini").write_text("[pytest]\ngrader_tasks = tasks\n")
    junit = tmp_path / "junit.xml"
    run = run_pytest(repository, "--grader-kit=kit", "-v", f"--junitxml={junit}")
    assert run.returncode == 1, run.stdout + run.stderr
    failed = {"ttt-midgame-a::alphabeta::count", "ttt-midgame-b::alphabeta::count",
              "random-trees::alphabeta::random-trees"}
    expected = {node_id(check).replace("tasks/blatt3.yaml::", "kit/kit.json::"):
                "FAILED" if node_id(check).split("::", 1)[1] in failed else "PASSED"
                for check in VISIBLE}
    assert outcomes(run.stdout) == expected
    lost = sum(c.points for c in VISIBLE if node_id(c).split("::", 1)[1] in failed)
    assert f"grader: {VISIBLE_POINTS - lost:g}/{VISIBLE_POINTS:g} Punkte ({HIDDEN} verborgene " \
           "Tests nicht ausgeführt)" in run.stdout.splitlines()
    # the kit's words: where the search differs, not the reference's count
    assert "Du besuchst 125 Knoten, mehr als die Referenz." in run.stdout
    assert "die Referenz nur" not in run.stdout
    assert len(junit_cases(junit)) == len(VISIBLE)


def test_task_files_and_a_kit_both_on_the_command_line_are_a_usage_error(tmp_path):
    repository = course_repository(tmp_path / "repo", "korrekt")
    run = run_pytest(repository, "--grader-tasks=tasks", "--grader-kit=kit")
    assert run.returncode == 4
    assert "--grader-tasks tasks and --grader-kit kit: give one of the two" in run.stderr
