"""An environment that breaks the grader never grades a class 0: the runner's bytecode stays in
the runner folder whatever PYTHONPYCACHEPREFIX says, and a batch that cannot run its children
stops with one line and exit status 3."""

import csv
import os
import resource
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

GRADER = [sys.executable, "-m", "grader.cli"]


def two_students(tmp_path):
    submissions = tmp_path / "submissions"
    for name in ("korrekt", "syntaxfehler"):
        shutil.copytree(ROOT / "submissions" / name, submissions / name)
    return submissions


def grades(out):
    with open(out / "gradebook.csv", encoding="utf-8") as handle:
        return {row["student"]: row["score"] for row in csv.DictReader(handle)}


def test_a_pycache_prefix_changes_nothing_for_grade_and_check(tmp_path):
    # Some CI images set PYTHONPYCACHEPREFIX: the runner's staged bytecode followed it out of
    # the runner folder, every worker died and the whole class got "needs a person".
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(tmp_path / "home" / ".pycache")}
    submissions = two_students(tmp_path)
    done = subprocess.run([*GRADER, "grade", "--submissions", str(submissions),
                           "--out", str(tmp_path / "out"), "--jobs", "2"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert grades(tmp_path / "out") == {"korrekt": "60", "syntaxfehler": "4"}
    assert "need a person" not in done.stderr
    check = subprocess.run([*GRADER, "check", str(submissions / "korrekt"),
                            "--out", str(tmp_path / "check")],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert check.returncode == 0, check.stderr
    assert "Traceback" not in check.stderr


def limit_open_files(count):
    def apply():
        resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))
    return apply


@pytest.mark.parametrize("count", [10, 14, 16, 18, 64])
def test_a_machine_that_cannot_run_children_stops_the_batch_with_one_line(tmp_path, count):
    # Too few open files: the children (or the workers) cannot be started.  Whatever the
    # limit, the batch either grades every student right or stops with one line and exit 3;
    # it never exits 0 with the class graded 0 or "needs a person".
    submissions = two_students(tmp_path)
    out = tmp_path / "out"
    done = subprocess.run([*GRADER, "grade", "--submissions", str(submissions), "--out",
                           str(out), "--jobs", "1", "--sandbox", "process",
                           "--allow-weak-sandbox"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          preexec_fn=limit_open_files(count))
    assert "Traceback" not in done.stderr
    if done.returncode == 0:
        assert grades(out) == {"korrekt": "60", "syntaxfehler": "4"}
    else:
        assert done.returncode == 3, done.stderr
        last = done.stderr.strip().splitlines()[-1]
        assert last.startswith("Cannot grade here: ") and "Too many open files" in last
        assert not (out / "gradebook.csv").exists(), "no export a class could be graded from"
    if count == 10:
        assert done.returncode == 3, "ten open files cannot start a child"
    if count == 64:
        assert done.returncode == 0, "64 are plenty"
