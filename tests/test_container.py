"""The container level (chroot as a private uid, see grader/sandbox/container.py), run for
real: the option chooses it, correct code gets full marks with hidden checks run, the child
sees nothing of the grader, its filter is active, children get distinct uids that are given
back, and its root is gone after it stops.  The hostile submissions run at this level in
tests/test_hostile.py (its batch is parametrised over the strong levels)."""

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from grader.cli import main
from grader.sandbox import container, launcher
from grader.sandbox.base import ResourceLimits
from grader.sandbox.levels import container_problem
from grader.sandbox.launcher import Child
from grader.sandbox.staging import stage_runner

from conftest import DATA, ROOT

pytestmark = pytest.mark.skipif(container_problem() is not None,
                                reason=f"container level unavailable: {container_problem()}")
PEEK = DATA / "container" / "peek"


@pytest.fixture(scope="module")
def stage():
    with tempfile.TemporaryDirectory(prefix="grader-test-stage-") as folder:
        yield stage_runner(Path(folder))


@pytest.fixture
def peek(tmp_path, stage):
    """A copy of the peek submission, told where the grader's files are."""
    folder = tmp_path / "peek"
    shutil.copytree(PEEK, folder)
    targets = {"repository": str(ROOT), "reference": str(ROOT / "reference" / "search.py"),
               "tasks": str(ROOT / "tasks"), "task_file": str(ROOT / "tasks" / "blatt3.yaml"),
               "stage": str(stage.parent.parent.parent), "original": str(PEEK),
               "copy": str(folder), "parent_environ": "/proc/1/environ",
               "passwd": "/etc/passwd", "home": os.path.expanduser("~")}
    (folder / "targets.json").write_text(json.dumps(targets))
    return folder


def start(stage, submission, tmp_path, name="scratch"):
    scratch = tmp_path / name
    scratch.mkdir()
    child = Child(stage, submission, scratch, "container", ResourceLimits(cpu_seconds=30))
    reply = json.loads(child.request({"op": "load", "module": "peek"}, 30))
    return child, reply


def printed(child, tag):
    lines = [line for line in child.output()["stdout"].splitlines() if line.startswith(tag + " ")]
    assert lines, child.output()
    return lines[-1][len(tag) + 1:]


def uid_of(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    raise AssertionError(f"no Uid line for {pid}")


def test_the_option_chooses_it_and_hidden_checks_run(tmp_path):
    submissions, out = tmp_path / "submissions", tmp_path / "out"
    shutil.copytree(ROOT / "submissions" / "korrekt", submissions / "korrekt")
    assert main(["grade", "--tasks", str(ROOT / "tasks"), "--submissions", str(submissions),
                 "--out", str(out), "--sandbox", "container", "--lang", "en"]) == 0
    results = json.loads((out / "korrekt" / "results.json").read_text())
    assert results["extra_data"]["isolation"] == "container"
    hidden = [t for t in results["tests"] if t["visibility"] != "visible"]
    assert hidden and all(t["status"] == "passed" for t in hidden)
    assert results["score"] == sum(t["max_score"] for t in results["tests"]) > 0


def test_nothing_of_the_grader_is_visible_inside(tmp_path, stage, peek):
    child, reply = start(stage, peek, tmp_path)
    try:
        assert reply["status"] == "ok", (reply, child.output())
        found = json.loads(printed(child, "FOUND"))
        # The home folder is there only as the path to an interpreter installed in it (pyenv),
        # holding that path and nothing else.
        runtime = Path(sys.base_prefix).resolve()
        home = Path(os.path.expanduser("~"))
        if home in runtime.parents:
            assert found.pop("home") == [runtime.relative_to(home).parts[0]]
        assert found == {}
        root = set(json.loads(printed(child, "ROOT")))
        assert {"runner", "submission", "tmp", "dev"} <= root
        assert not root & {"proc", "etc", "home", "work", "sys", "var", "opt"}, root
        assert printed(child, "CWD") == "/tmp"
    finally:
        child.stop()


def test_the_seccomp_filter_is_active_inside(tmp_path, stage, peek):
    child, reply = start(stage, peek, tmp_path)
    child.stop()
    assert reply["status"] == "ok", (reply, child.output())
    assert printed(child, "INET") == "13"      # EACCES from the filter
    assert "UNIX opened" in child.output()["stdout"]


def test_a_child_whose_filter_cannot_be_installed_runs_no_student_code(tmp_path, stage, peek,
                                                                        monkeypatch):
    def broken_program():
        read_end, write_end = os.pipe()
        os.write(write_end, b"not bpf")
        os.close(write_end)
        return read_end
    monkeypatch.setattr(launcher, "seccomp_fd", broken_program)
    child, reply = start(stage, peek, tmp_path)
    child.stop()
    assert reply["status"] == "protocol"
    assert "the sandbox could not be set up" in reply["error"]["message"]
    assert "FOUND" not in child.output()["stdout"]


def test_two_children_at_once_have_distinct_unprivileged_uids(tmp_path, stage, peek):
    first, first_reply = start(stage, peek, tmp_path, "one")
    second, second_reply = start(stage, peek, tmp_path, "two")
    try:
        assert first_reply["status"] == second_reply["status"] == "ok"
        uids = {uid_of(first.process.pid), uid_of(second.process.pid)}
        assert len(uids) == 2
        assert all(container.UID_BASE <= uid < container.UID_BASE + container.UID_SLOTS
                   for uid in uids)
        for child in (first, second):
            uid, euid, gid, groups = json.loads(printed(child, "IDS"))
            assert uid == euid == gid == child.uid and groups in ([], [gid])
    finally:
        first.stop()
        second.stop()


def test_uids_are_given_back(tmp_path, stage, peek, monkeypatch):
    pool = container.UidPool(base=container.UID_BASE + 100_000, slots=2)
    monkeypatch.setattr(container, "UIDS", pool)
    used = []
    for index in range(5):
        child, reply = start(stage, peek, tmp_path, f"run{index}")
        used.append(child.uid)
        child.stop()
        assert reply["status"] == "ok", reply
    assert set(used) <= {pool.base, pool.base + 1}
    assert pool.in_use() == set()


def test_the_root_is_gone_after_stop(tmp_path, stage, peek):
    child, reply = start(stage, peek, tmp_path)
    root, uid = child.root.path, child.uid
    assert reply["status"] == "ok" and "SCRATCH left" in child.output()["stdout"]
    assert (root / "tmp" / "locked").exists() and (root / "submission" / "peek.py").exists()
    assert os.stat(root / "tmp").st_uid == uid
    assert os.stat(root / "submission" / "peek.py").st_uid == 0
    child.stop()
    assert not root.exists()
    assert container.processes_of(uid) == []
    assert uid not in container.UIDS.in_use()
