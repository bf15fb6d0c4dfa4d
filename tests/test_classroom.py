"""GitHub Classroom: the workflow `grader classroom` writes is a valid GitHub workflow of the
shape Classroom reads, and its grading step, run as Actions runs it, hands the grading reporter
a result that decodes to the points the submission earned."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from conftest import DATA, ROOT, kit_once
from grader.checks.verdict import failed, passed
from grader.cli import main
from grader.grading import SubmissionResult
from grader.lms.classroom import reporter_result, write_result
from grader.report.messages import Catalogue

SCHEMA = DATA / "classroom" / "github-workflow.json"
INSTALL = "gametree-grader @ git+https://example.org/course/gametree-grader.git@v0.1.0"


def template_repository(tmp_path: Path, student: str) -> Path:
    """A student's repository as Classroom makes it from the template: the task files at
    tasks/, the student's modules at the root."""
    repository = tmp_path / "blatt3-student"
    shutil.copytree(ROOT / "tasks", repository / "tasks")
    for module in (ROOT / "submissions" / student).glob("*.py"):
        shutil.copy(module, repository / module.name)
    return repository


def write_workflow(repository: Path, monkeypatch, *options: str) -> dict:
    monkeypatch.chdir(repository)
    assert main(["classroom", "--tasks", "tasks", *options]) == 0
    return yaml.safe_load((repository / ".github" / "workflows" / "classroom.yml").read_text())


def visible_points(course, predicate=lambda check: True) -> float:
    return sum(c.points for t in course.tasks for c in t.checks
               if c.visibility == "visible" and predicate(c))


def decode(outputs: Path) -> dict:
    """The step output ``result`` as the reporter decodes it: base64, then JSON."""
    lines = [line for line in outputs.read_text().splitlines() if line.startswith("result=")]
    assert len(lines) == 1, outputs.read_text()
    return json.loads(base64.b64decode(lines[0].removeprefix("result="), validate=True))


def test_the_workflow_is_a_valid_github_workflow_of_the_shape_classroom_reads(tmp_path,
                                                                              monkeypatch):
    repository = template_repository(tmp_path, "korrekt")
    workflow = write_workflow(repository, monkeypatch, "--install", INSTALL)
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.validate(workflow, schema, cls=jsonschema.Draft7Validator)

    assert workflow["name"] == "Autograding Tests"
    assert set(workflow["on"]) >= {"push", "workflow_dispatch"}
    assert workflow["permissions"] == {"checks": "write", "actions": "read", "contents": "read"}
    assert list(workflow["jobs"]) == ["run-autograding-tests"]
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    assert steps[0]["uses"] == "actions/checkout@v4"
    install = "\n".join(step.get("run", "") for step in steps)
    assert "apt-get install -y --no-install-recommends bubblewrap libseccomp2 python3-venv" \
        in install
    assert f"pip\" install --quiet '{INSTALL}'" in install
    grading = next(step for step in steps if step.get("id") == "grader")
    assert "continue-on-error" not in grading      # the script itself lets a failed check pass
    upload = next(step for step in steps if step.get("uses") == "actions/upload-artifact@v4")
    assert upload["if"] == "${{ always() }}" and upload["with"]["path"].endswith("feedback.html")
    reporter = steps[-1]
    assert reporter["uses"] == "classroom-resources/autograding-grading-reporter@v1"
    assert reporter["with"] == {"runners": "grader"}
    assert reporter["env"] == {"GRADER_RESULTS": "${{ steps.grader.outputs.result }}"}


def test_the_schema_refuses_a_workflow_that_is_not_one(tmp_path, monkeypatch):
    """The validation has teeth: the same workflow with a misspelt key is refused."""
    workflow = write_workflow(template_repository(tmp_path, "korrekt"), monkeypatch)
    workflow["jobs"]["run-autograding-tests"]["step"] = \
        workflow["jobs"]["run-autograding-tests"].pop("steps")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(workflow, json.loads(SCHEMA.read_text()),
                            cls=jsonschema.Draft7Validator)


def run_grading_step(workflow: dict, repository: Path, tmp_path: Path):
    """The grading step's ``run:`` script, run as GitHub Actions runs a bash step
    (``bash --noprofile --norc -eo pipefail``) in the checked-out repository, with the
    grader of this test run first on PATH."""
    step = next(s for s in workflow["jobs"]["run-autograding-tests"]["steps"]
                if s.get("id") == "grader")
    assert step["shell"] == "bash"
    script = tmp_path / "step.sh"
    script.write_text(step["run"])
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir()
    files = {"GITHUB_OUTPUT": tmp_path / "github-output",
             "GITHUB_STEP_SUMMARY": tmp_path / "step-summary"}
    for file in files.values():
        file.touch()
    environment = {**os.environ, **{name: str(path) for name, path in files.items()},
                   "RUNNER_TEMP": str(runner_temp),
                   "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                          cwd=repository, env=environment, capture_output=True, text=True,
                          timeout=240)
    return done, files["GITHUB_OUTPUT"], files["GITHUB_STEP_SUMMARY"], runner_temp


def test_the_grading_step_hands_the_reporter_full_points_for_a_correct_submission(
        tmp_path, monkeypatch, course):
    repository = template_repository(tmp_path, "korrekt")
    workflow = write_workflow(repository, monkeypatch)
    done, outputs, summary, runner_temp = run_grading_step(workflow, repository, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    result = decode(outputs)
    assert result["version"] == 1 and result["status"] == "pass"
    assert result["max_score"] == visible_points(course)
    assert sum(test["score"] for test in result["tests"]) == result["max_score"]
    assert len(result["tests"]) == sum(1 for t in course.tasks for c in t.checks
                                       if c.visibility == "visible")
    assert all(test["status"] == "pass" for test in result["tests"])
    full = f"{visible_points(course):g}"
    assert f"**Punkte: {full} / {full}**" in summary.read_text()
    report = runner_temp / "grader-report" / repository.name
    assert (report / "feedback.html").is_file()
    assert json.loads((runner_temp / "grader-report" / "classroom.json").read_text()) == result


def test_a_failed_check_lets_the_step_pass_and_costs_exactly_its_points(tmp_path, monkeypatch,
                                                                         course):
    """The step ends with 0 when a check fails, so that the reporter still runs: it reports
    the points and fails the job itself."""
    repository = template_repository(tmp_path, "ohne-alphabeta")
    workflow = write_workflow(repository, monkeypatch, "--lang", "en")
    done, outputs, summary, _ = run_grading_step(workflow, repository, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    result = decode(outputs)
    assert result["status"] == "fail"
    assert result["max_score"] == visible_points(course)
    lost = visible_points(course, lambda check: check.function == "alphabeta")
    assert sum(test["score"] for test in result["tests"]) == result["max_score"] - lost
    failed_tests = [test for test in result["tests"] if test["status"] == "fail"]
    assert failed_tests and all(" · alphabeta · " in test["name"] and test["score"] == 0
                                for test in failed_tests)
    assert all(test["message"] == "minimax.py has no function alphabeta."
               for test in failed_tests), failed_tests[0]["message"]
    assert "minimax.py has no function alphabeta." in summary.read_text()


def test_with_a_kit_the_repository_holds_no_task_file_and_the_kit_grades(
        tmp_path, tmp_path_factory, monkeypatch, course):
    """A template repository with a self-check kit instead of the task files: the workflow
    is valid, installs no grader itself, and its grading step runs the kit's check.py."""
    repository = template_repository(tmp_path, "ohne-alphabeta")
    shutil.rmtree(repository / "tasks")
    # the run's one kit of the course, as `grader kit` writes it (its wheel too), copied in
    shutil.copytree(kit_once(tmp_path_factory, "kit-tasks", ROOT / "tasks")[0],
                    repository / "kit")
    monkeypatch.chdir(repository)
    assert main(["classroom", "--kit", "kit", "--lang", "en"]) == 0
    workflow = yaml.safe_load((repository / ".github" / "workflows" / "classroom.yml").read_text())
    jsonschema.validate(workflow, json.loads(SCHEMA.read_text()), cls=jsonschema.Draft7Validator)
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    assert not any("pip\" install" in step.get("run", "") for step in steps)
    done, outputs, summary, _ = run_grading_step(workflow, repository, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    result = decode(outputs)
    assert result["status"] == "fail" and result["max_score"] == visible_points(course)
    lost = visible_points(course, lambda check: check.function == "alphabeta")
    assert sum(test["score"] for test in result["tests"]) == result["max_score"] - lost
    assert "minimax.py has no function alphabeta." in summary.read_text()


def test_a_grader_that_cannot_grade_stops_the_job_before_the_reporter(tmp_path, monkeypatch):
    repository = template_repository(tmp_path, "korrekt")
    workflow = write_workflow(repository, monkeypatch)
    (repository / "tasks" / "blatt3.yaml").write_text("tasks: [\n")
    done, outputs, _, _ = run_grading_step(workflow, repository, tmp_path)
    assert done.returncode == 2
    assert outputs.read_text() == ""


def test_the_reporter_result_of_a_known_result(course, tmp_path):
    tasks = {task.id: task for task in course.tasks}
    value, alphabeta_value = tasks["tree-blatt3"].checks[:2]
    evaluate, evaluate_2 = tasks["ttt-eval"].checks[:2]
    result = SubmissionResult("alice", [
        passed(value, observed=3),
        failed(alphabeta_value, "value.wrong", observed=2, expected=3),
        passed(evaluate, board="XX.OO....", player="X", observed=2.0),
        failed(evaluate_2, "evaluate.wrong", board="X...O....", player="O", observed=1,
               expected=-1)])
    payload = reporter_result(result, course, Catalogue("de"))
    blatt = "Aufgabe 1: Minimax und Alpha-Beta am Baum des Blatts"
    bewertung = "Aufgabe 4: Bewertungsfunktion 3·X2 + X1 − (3·O2 + O1)"
    common = {"test_code": "", "filename": "", "line_no": 0}
    assert payload == {"version": 1, "status": "fail", "max_score": 4.0, "tests": [
        {"name": f"{blatt} · minimax · Wert an der Wurzel", "status": "pass", "score": 1.0,
         "max_score": 1.0, "message": "Richtig: Wert 3.", **common},
        {"name": f"{blatt} · alphabeta · Wert an der Wurzel", "status": "fail", "score": 0.0,
         "max_score": 1.0, "message": "Dein Wert an der Wurzel ist 2, richtig ist 3.",
         **common},
        {"name": f"{bewertung} · evaluate · Bewertungsfunktion", "status": "pass",
         "score": 1.0, "max_score": 1.0,
         "message": "Richtig: evaluate(XX./OO./..., X) = 2.0.", **common},
        {"name": f"{bewertung} · evaluate · Bewertungsfunktion 2", "status": "fail",
         "score": 0.0, "max_score": 1.0,
         "message": "evaluate(X../.O./..., O) ergibt bei dir 1, richtig ist -1.", **common}]}

    outputs = tmp_path / "github-output"
    outputs.write_text("earlier=1\n")
    assert write_result(tmp_path / "result.json", payload, {"GITHUB_OUTPUT": str(outputs)})
    assert outputs.read_text().startswith("earlier=1\nresult=")
    assert decode(outputs) == payload
    assert json.loads((tmp_path / "result.json").read_text()) == payload
    assert not write_result(tmp_path / "local.json", payload, {})


def test_a_submission_that_cannot_be_graded_is_an_error_for_the_reporter(course):
    check = course.tasks[0].checks[0]
    result = SubmissionResult("bob", [failed(check, "call.missing-module", module="minimax")],
                              problem="submission.unusable", problem_detail="leer")
    payload = reporter_result(result, course, Catalogue("en"))
    assert payload["status"] == "error"
    assert payload["message"] == "The submission cannot be graded as handed in: leer"
    assert payload["max_score"] == check.points and payload["tests"][0]["score"] == 0


@pytest.mark.parametrize("options, complaint", [
    (["--tasks", "{repository}/tasks"], "relative to its root"),
    (["--tasks", "../blatt3-student/tasks"], "relative to its root"),
    (["--tasks", "tasks", "--install", "a\nb"], "single line"),
])
def test_options_that_cannot_go_into_the_workflow_are_refused(tmp_path, monkeypatch, capsys,
                                                              options, complaint):
    """Each of these task paths exists, but not as a path inside the repository."""
    repository = template_repository(tmp_path, "korrekt")
    monkeypatch.chdir(repository)
    options = [option.format(repository=repository) for option in options]
    assert main(["classroom", *options, "--out", str(tmp_path / "w.yml")]) == 2
    assert complaint in capsys.readouterr().err
    assert not (tmp_path / "w.yml").exists()


def test_without_install_the_placeholder_is_written_and_named(tmp_path, monkeypatch, capsys,
                                                             course):
    repository = template_repository(tmp_path, "korrekt")
    workflow = write_workflow(repository, monkeypatch)
    err = capsys.readouterr().err
    assert "YOUR-ORGANISATION" in err and "--install SPEC" in err
    assert f"{visible_points(course):g} points reach Classroom" in err
    assert any("YOUR-ORGANISATION" in step.get("run", "")
               for step in workflow["jobs"]["run-autograding-tests"]["steps"])


def test_a_result_file_that_cannot_be_written_is_bad_input(tmp_path, capsys):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    status = main(["check", str(ROOT / "submissions" / "korrekt"), "--tasks", str(ROOT / "tasks"),
                   "--out", str(tmp_path / "report"),
                   "--classroom-result", str(blocker / "classroom.json")])
    assert status == 2
    assert "--classroom-result" in capsys.readouterr().err
