"""Worker processes: a batch graded by two workers is the batch graded by one, and a worker
that dies costs only the submission it held."""

import json
import os
import re
import shutil
import signal

from grader import worker
from grader.cli import main

from conftest import DATA, ROOT

TASKS = DATA / "hostile" / "tasks.yaml"
STUDENTS = ("korrekt", "ohne-alphabeta", "strikter-schnitt", "syntaxfehler")


def batch(tmp_path, copies=2):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    for n in range(copies):
        for name in STUDENTS:
            shutil.copytree(ROOT / "submissions" / name, submissions / f"{name}-{n}")
    return submissions


def reports(out):
    """Every student's reports, with the only run-dependent figure (time) taken out."""
    found = {}
    for folder in sorted(p for p in out.iterdir() if p.is_dir()):
        data = json.loads((folder / "results.json").read_text())
        data.pop("execution_time")
        state = json.loads((folder / ".grading.json").read_text())
        state.pop("seconds")
        pages = [re.sub(r"(Time|Zeit): [0-9.]+ s", r"\1: _ s", (folder / name).read_text())
                 for name in ("feedback.md", "feedback.html")]
        found[folder.name] = (data, state, *pages)
    return found


def test_two_workers_grade_a_batch_exactly_as_one_does(tmp_path):
    submissions = batch(tmp_path)
    runs = {}
    for jobs in (1, 2):
        out = tmp_path / f"out-{jobs}"
        assert main(["grade", "--tasks", str(TASKS), "--submissions", str(submissions),
                     "--out", str(out), "--jobs", str(jobs), "--allow-weak-sandbox"]) == 0
        runs[jobs] = out
    assert len(reports(runs[1])) == 2 * len(STUDENTS)
    assert reports(runs[1]) == reports(runs[2])
    for name in ("gradebook.csv", "moodle.csv", "ilias.csv", "junit.xml"):
        texts = [re.sub(r'time="[0-9.]+"', 'time="_"', (out / name).read_text())
                 for out in runs.values()]
        assert texts[0] == texts[1], name


def test_a_worker_that_dies_costs_only_the_submission_it_held(tmp_path, monkeypatch):
    submissions = batch(tmp_path, copies=1)
    out = tmp_path / "out"
    original = worker.grade_submission

    def dying(plan, answers, script, folder, *args, **kwargs):
        # The worker is killed from outside (the OOM killer, an operator) while it grades
        # one of the submissions; it inherited this patch when it was forked.
        if kwargs.get("student") == "ohne-alphabeta-0":
            os.kill(os.getpid(), signal.SIGKILL)
        return original(plan, answers, script, folder, *args, **kwargs)
    monkeypatch.setattr(worker, "grade_submission", dying)
    status = main(["grade", "--tasks", str(TASKS), "--submissions", str(submissions),
                   "--out", str(out), "--jobs", "2", "--allow-weak-sandbox"])
    assert status == 0
    results = {p.name: json.loads((p / "results.json").read_text())
               for p in out.iterdir() if p.is_dir()}
    assert sorted(results) == sorted(f"{name}-0" for name in STUDENTS)
    died = results["ohne-alphabeta-0"]
    assert died["score"] == 0 and died["extra_data"]["needs_person"]
    assert "the grading worker" in died["output"] and "exit code -9" in died["output"]
    assert [n["key"] for n in died["extra_data"]["notes"]] == ["internal-error"]
    # Its state has no hashes: --resume grades it again.
    assert json.loads((out / "ohne-alphabeta-0" / ".grading.json").read_text())["hashes"] is None
    assert results["korrekt-0"]["score"] == results["korrekt-0"]["extra_data"]["max_score"]
    assert results["syntaxfehler-0"]["score"] < results["korrekt-0"]["score"]
    # The replacement worker graded what came after; nothing of the dead one is left.
    assert not list(out.glob("**/grader-batch-*"))


def test_a_worker_stopped_from_outside_has_its_submission_graded_again(tmp_path, monkeypatch):
    submissions = batch(tmp_path, copies=1)
    out, marker = tmp_path / "out", tmp_path / "stopped-once"
    original = worker.grade_submission

    def stopped_once(plan, answers, script, folder, *args, **kwargs):
        # An operator sends one worker SIGTERM while it grades a submission, once.
        if kwargs.get("student") == "korrekt-0" and not marker.exists():
            marker.write_text("")
            os.kill(os.getpid(), signal.SIGTERM)
        return original(plan, answers, script, folder, *args, **kwargs)
    monkeypatch.setattr(worker, "grade_submission", stopped_once)
    status = main(["grade", "--tasks", str(TASKS), "--submissions", str(submissions),
                   "--out", str(out), "--jobs", "1", "--allow-weak-sandbox"])
    assert status == 0 and marker.exists()
    results = {p.name: json.loads((p / "results.json").read_text())
               for p in out.iterdir() if p.is_dir()}
    # Every submission is in the batch, the stopped one graded in full by the next worker,
    # and the one queued behind it in the stopped worker's pipe graded too.
    assert sorted(results) == sorted(f"{name}-0" for name in STUDENTS)
    assert results["korrekt-0"]["score"] == results["korrekt-0"]["extra_data"]["max_score"]
    assert not any(r["extra_data"]["needs_person"] for name, r in results.items()
                   if not name.startswith("syntaxfehler"))
    assert "korrekt-0" in (out / "gradebook.csv").read_text()
