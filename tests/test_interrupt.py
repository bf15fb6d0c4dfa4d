"""Stopping a batch: SIGINT and SIGTERM stop it promptly with what was graded written, and
nothing is left behind after any end, SIGKILL of the parent included."""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from grader.sandbox.cgroup import cgroups_work

from conftest import ROOT
from test_hostile import living_children

ENDLESS = ROOT / "submissions" / "endlosschleife"
CORRECT = ROOT / "submissions" / "korrekt"


@pytest.fixture
def slow_batch(tmp_path):
    """One quick correct submission first, then two slow ones (each call runs into its
    limit): with one worker, when the first is graded one slow one is in flight and one has
    not started."""
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    shutil.copytree(CORRECT, submissions / "a-korrekt")
    for name in ("b-endlos", "c-endlos"):
        shutil.copytree(ENDLESS, submissions / name)
    return submissions, tmp_path / "out"


def start(submissions: Path, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "grader.cli", "grade", "--tasks", str(ROOT / "tasks"),
         "--submissions", str(submissions), "--out", str(out), "--jobs", "1",
         "--allow-weak-sandbox", *extra],
        stderr=subprocess.PIPE, text=True, cwd=ROOT, preexec_fn=interruptible)


def interruptible() -> None:
    """Ctrl-C's default action in the batch process, also when the tests run as a background
    job (whose shell starts it with SIGINT ignored, which the batch rightly keeps)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stop_with(process: subprocess.Popen, signum: int, seconds: float) -> tuple[int, str]:
    """Send ``signum`` to the batch; its exit status and the rest of what it printed."""
    process.send_signal(signum)
    try:
        status = process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError(f"the batch did not stop within {seconds} s of the signal")
    return status, process.stderr.read()


def wait_for_first_result(process: subprocess.Popen) -> str:
    lines = []
    for line in process.stderr:
        lines.append(line)
        if line.startswith("[1/"):
            return "".join(lines)
    raise AssertionError("the batch ended before its first result: " + "".join(lines))


def leftovers(pid: int) -> list:
    found = list(Path(tempfile.gettempdir()).glob(f"grader-batch-{pid}-*"))
    root = Path("/sys/fs/cgroup")
    found += [*root.glob(f"grader-{pid}-*"), *root.glob(f"*/grader-{pid}-*")]
    return found


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_batch_writes_what_was_graded_and_resume_finishes_it(slow_batch, signum):
    submissions, out = slow_batch
    process = start(submissions, out)
    wait_for_first_result(process)
    status, rest = stop_with(process, signum, 30)
    assert status == 130, rest
    assert "Interrupted" in rest and "--resume" in rest
    summary = (out / "summary.html").read_text()
    assert 'class="interrupted"' in summary
    graded = (out / "gradebook.csv").read_text().splitlines()[1:]
    assert graded and graded[0].startswith("a-korrekt,60,60")
    assert len(graded) < 3
    assert living_children(process.pid) == []
    assert leftovers(process.pid) == []

    resumed = start(submissions, out, "--resume")
    _, errors = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, errors
    results = {p.name: json.loads((p / "results.json").read_text())
               for p in out.iterdir() if p.is_dir()}
    assert sorted(results) == ["a-korrekt", "b-endlos", "c-endlos"]
    assert results["a-korrekt"]["score"] == 60
    assert 'class="interrupted"' not in (out / "summary.html").read_text()


def settled(check, seconds: float = 30.0):
    """``check()`` once it is true, or its last value after ``seconds`` (no timing claim:
    a generous bound for a process to finish cleaning up on a loaded machine)."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.2)


def test_a_killed_batch_process_takes_its_workers_and_their_children_with_it(slow_batch):
    submissions, out = slow_batch
    process = start(submissions, out)
    wait_for_first_result(process)
    time.sleep(1.0)   # a slow submission is running in a worker: its child and scratch exist
    assert living_children(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    # The workers hear of it from the kernel (parent-death signal): each kills its child and
    # removes its files, with no later run needed.
    assert settled(lambda: not living_children(process.pid) and not leftovers(process.pid))
    assert living_children(process.pid) == [] and leftovers(process.pid) == []


def test_what_a_killed_batch_leaves_behind_is_removed_by_the_next_run(slow_batch):
    submissions, out = slow_batch
    # Its own process group: SIGKILL for the batch process and its workers at once, so that
    # nobody cleans up (as when a machine's OOM killer or a job scheduler ends them all).
    process = subprocess.Popen(
        [sys.executable, "-m", "grader.cli", "grade", "--tasks", str(ROOT / "tasks"),
         "--submissions", str(submissions), "--out", str(out), "--jobs", "1",
         "--allow-weak-sandbox"], stderr=subprocess.PIPE, text=True, cwd=ROOT,
        start_new_session=True)
    wait_for_first_result(process)
    time.sleep(1.0)   # a slow submission is running: its child, cgroup and scratch exist
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    left = leftovers(process.pid)
    assert any("grader-batch-" in str(p) for p in left)
    if cgroups_work():
        assert any(str(p).startswith("/sys/fs/cgroup") for p in left)
    resumed = start(submissions, out, "--resume")
    _, errors = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, errors
    assert leftovers(process.pid) == []
    assert leftovers(resumed.pid) == []
    assert living_children(process.pid) == living_children(resumed.pid) == []
