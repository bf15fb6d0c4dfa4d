"""Hostile submissions, run for real through the real sandbox in one batch with correct ones,
once per strong isolation level (bubblewrap, container): each test asserts containment, the
verdict, and that the correct students are unaffected."""

import hashlib
import json
import os
import shutil
import socket
from pathlib import Path

import pytest

from grader.cli import main
from grader.sandbox.isolation import (STRONG_LEVELS, bubblewrap_works, cgroups_work,
                                      container_problem)

from conftest import DATA, ROOT

HOSTILE = DATA / "hostile"
SECRET = "s3cr3t-of-the-grading-process"


def unavailable(level):
    """Why ``level`` cannot run here, or None."""
    if level == "bubblewrap" and not bubblewrap_works():
        return "bubblewrap is not installed or cannot create namespaces here; CI installs it"
    if level == "container":
        return container_problem()
    return None


def flood_is_bounded(level):
    """Whether a fork flood is bounded at ``level``: by a cgroup, or (container: the uid is
    not 0) by RLIMIT_NPROC.  Without either nothing bounds it but the machine."""
    return cgroups_work() or level == "container"


def living_children():
    """Processes started from a staged runner, still alive."""
    alive = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"grader/sandbox/child.py" in command:
                alive.append(entry.name)
    return alive


@pytest.fixture(scope="module", params=STRONG_LEVELS)
def batch(request, tmp_path_factory):
    level = request.param
    if unavailable(level):
        pytest.skip(unavailable(level))
    folder = tmp_path_factory.mktemp(f"hostile-{level}")
    submissions, out = folder / "submissions", folder / "out"
    submissions.mkdir()
    for student in HOSTILE.iterdir():
        if student.is_dir() and (student.name != "fork-flood" or flood_is_bounded(level)):
            shutil.copytree(student, submissions / student.name)
    for name in ("aa-korrekt", "zz-korrekt"):
        shutil.copytree(ROOT / "submissions" / "korrekt", submissions / name)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    listener.setblocking(False)
    targets = {"root": str(ROOT), "classmate": str(submissions / "aa-korrekt" / "minimax.py"),
               "reference": str(ROOT / "reference" / "search.py"),
               "tasks": str(ROOT / "tasks" / "blatt3.yaml"), "port": listener.getsockname()[1],
               "out_file": str(out / "hacked.txt"), "root_file": str(ROOT / "hacked.txt")}
    for student in ("import-reference", "network", "write-outside"):
        (submissions / student / "targets.json").write_text(json.dumps(targets))
    tasks_digest = hashlib.sha256((HOSTILE / "tasks.yaml").read_bytes()).hexdigest()
    os.environ["GRADER_TEST_SECRET"] = SECRET
    try:
        status = main(["grade", "--tasks", str(HOSTILE / "tasks.yaml"), "--submissions",
                       str(submissions), "--out", str(out), "--jobs", "2",
                       "--sandbox", level])
    finally:
        os.environ.pop("GRADER_TEST_SECRET")
    try:
        listener.accept()
        connected = True
    except BlockingIOError:
        connected = False
    listener.close()
    results = {p.name: json.loads((p / "results.json").read_text())
               for p in out.iterdir() if p.is_dir()}
    feedback = {p.name: (p / "feedback.md").read_text() for p in out.iterdir() if p.is_dir()}
    html = {p.name: (p / "feedback.html").read_text() for p in out.iterdir() if p.is_dir()}
    return {"level": level, "status": status, "results": results, "feedback": feedback, "html": html,
            "connected": connected, "targets": targets, "out": out,
            "tasks_digest": tasks_digest, "submissions": submissions}


def outputs(batch, student):
    return " ".join(t["output"] for t in batch["results"][student]["tests"])


def test_the_batch_completes_and_correct_students_are_unaffected(batch):
    assert batch["status"] == 0
    expected = (len([p for p in HOSTILE.iterdir() if p.is_dir()]) + 2
                - (not flood_is_bounded(batch["level"])))
    assert len(batch["results"]) == expected
    for name in ("aa-korrekt", "zz-korrekt"):
        assert batch["results"][name]["score"] == 4, batch["results"][name]


def test_nothing_survives_the_batch(batch):
    if batch["level"] == "container":
        # Exact for this level: its processes run as the pool's uids, its roots live in the
        # workspace (living_children below also counts other graders on this machine).
        from grader.sandbox import chroot
        assert [uid for uid in range(chroot.UIDS.base, chroot.UIDS.base + chroot.UIDS.slots)
                if chroot.processes_of(uid)] == []
        assert chroot.UIDS.in_use() == set()
        assert [p.name for p in chroot.workspace().iterdir()
                if not p.name.startswith(("template-", "runner-"))] == []
    assert living_children() == []
    leftovers = [p for p in Path("/sys/fs/cgroup").glob("*/grader-*")]
    leftovers += [p for p in Path("/sys/fs/cgroup").glob("grader-*")]
    assert leftovers == []


def test_instructor_files_are_untouched(batch):
    assert not Path(batch["targets"]["out_file"]).exists()
    assert not Path(batch["targets"]["root_file"]).exists()
    assert hashlib.sha256((HOSTILE / "tasks.yaml").read_bytes()).hexdigest() == batch["tasks_digest"]
    assert not Path("/tmp/pwned-by-pickle").exists()
    assert not (batch["submissions"] / "write-outside" / "tampered.txt").exists()


VERDICTS = {
    "infinite-loop": "No answer within 2.0 s",
    "ignore-signals": "No answer within 2.0 s",
    "fork-flood": "No answer within 2.0 s",
    "recursion": "RecursionError",
    "segfault": "crashed (signal SIGSEGV)",
    "exit-at-import": "minimax.py cannot be loaded: SystemExit",
    "os-exit-at-import": "crashed (exit status 0)",
    "exit-in-call": "Your function stops with SystemExit",
    "os-exit-in-call": "crashed (exit status 0)",
    "hanging-import": "Loading minimax.py took longer than 2.0 s",
    "always-equal": "<AlwaysEqual: ",
    "nan": "Your function returns (nan, 'B')",
    "pickle-payload": "Your function returns (<bytes: ",
    "forged-results": "Your value at the root is 0",
    "patch-modules": "Your value at the root is 0",
}


@pytest.mark.parametrize("student", sorted(VERDICTS))
def test_hostile_code_costs_only_its_own_checks_with_a_named_cause(batch, student):
    if student == "fork-flood" and not flood_is_bounded(batch["level"]):
        pytest.skip("no cgroup can be made here to bound a fork flood; CI runs as root")
    assert VERDICTS[student] in outputs(batch, student)
    assert batch["results"][student]["score"] < 4


def test_c_stack_overflow_is_a_crash_not_a_hang(batch):
    text = outputs(batch, "c-stack")
    assert "crashed (signal SIGSEGV)" in text or "RecursionError" in text or "MemoryError" in text
    assert batch["results"]["c-stack"]["score"] == 0


def test_memory_hogs_are_stopped(batch):
    text = outputs(batch, "memory-hog")
    assert "MemoryError" in text or "crashed" in text
    assert batch["results"]["memory-hog"]["score"] == 0


def test_records_wiped_by_the_student_only_cost_the_student(batch):
    tests = {t["name"].split()[0]: t for t in batch["results"]["wipe-records"]["tests"]}
    assert tests["sheet/minimax/value"]["status"] == "passed"
    assert tests["sheet/minimax/visited"]["status"] == "failed"


def test_huge_output_is_capped(batch):
    feedback = batch["feedback"]["huge-output"]
    assert len(feedback) < 100_000
    assert "File too large" in outputs(batch, "huge-output") or "[…]" in feedback


@pytest.mark.parametrize("student", ["lingering-thread", "read-stdin"])
def test_threads_and_stdin_do_not_disturb_a_correct_search(batch, student):
    assert batch["results"][student]["score"] == 4
    if student == "read-stdin":
        assert "STDIN: ''" in batch["feedback"][student]


def test_markup_from_a_student_is_escaped(batch):
    html = batch["html"]["markup"]
    assert "<script>alert" not in html and "onerror=alert(1)>" not in html
    assert "&lt;script&gt;" in html


def test_secrets_of_the_grading_process_do_not_reach_the_child(batch):
    assert SECRET not in batch["feedback"]["env-secrets"]
    assert "ENV:" in batch["feedback"]["env-secrets"]


def test_the_level_is_used_and_recorded_and_hidden_checks_run(batch):
    level = batch["level"]
    assert all(r["extra_data"]["isolation"] == level for r in batch["results"].values())
    assert level in batch["feedback"]["aa-korrekt"]
    hidden = [t for t in batch["results"]["aa-korrekt"]["tests"]
              if t["name"].startswith("again/")]
    assert hidden and all(t["status"] == "passed" for t in hidden), hidden


def test_the_reference_tasks_and_classmates_are_out_of_reach(batch):
    feedback = batch["feedback"]["import-reference"]
    assert "FOUND: []" in feedback
    assert "import reference failed: ModuleNotFoundError" in feedback
    assert "INTERESTING []" in batch["feedback"]["disk-scan"]


def test_no_network(batch):
    assert not batch["connected"]
    feedback = batch["feedback"]["network"]
    assert "network refused" in feedback and "CONNECTED" not in feedback


def test_nothing_outside_the_scratch_directory_can_be_written(batch):
    feedback = batch["feedback"]["write-outside"]
    assert "WROTE" not in feedback
    for path in (batch["targets"]["out_file"], batch["targets"]["root_file"],
                 "/submission/tampered.txt", "/runner/grader/tampered.py", "/etc/tampered"):
        assert f"write {path} failed:" in feedback
