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
from grader.sandbox.base import STRONG_LEVELS
from grader.sandbox.bubblewrap import bubblewrap_works
from grader.sandbox.cgroup import cgroups_work
from grader.sandbox.levels import container_problem

import hostile_entries
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


def living_children(owner: int | None = None):
    """Processes started from a staged runner of grading process ``owner`` (this one by
    default), still alive; orphans of any runner count too (an escaped daemon).  Other
    graders running on the machine at the same time are none of this test's business."""
    owner = owner or os.getpid()
    mark = f"grader-batch-{owner}-".encode()
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
                stat = (entry / "stat").read_bytes()
            except OSError:
                continue
            table[int(entry.name)] = (command, int(stat[stat.rfind(b")") + 2:].split()[1]))
    alive = []
    for pid, (command, parent) in table.items():
        if b"grader/sandbox/child.py" not in command:
            continue
        chain, current = [], pid
        while current in table and current not in chain:
            chain.append(current)
            current = table[current][1]
        if parent == 1 or any(mark in table[p][0] for p in chain):
            alive.append(str(pid))
    return alive


@pytest.fixture(scope="module", params=STRONG_LEVELS)
def batch(request, tmp_path_factory):
    level = request.param
    if unavailable(level):
        pytest.skip(unavailable(level))
    folder = tmp_path_factory.mktemp(f"hostile-{level}")
    submissions, out = folder / "submissions", folder / "out"
    submissions.mkdir()
    hostile_entries.copy_hostile(submissions, fork_flood=flood_is_bounded(level))
    for name in ("aa-korrekt", "zz-korrekt"):
        shutil.copytree(ROOT / "submissions" / "korrekt", submissions / name)
    entries = hostile_entries.add(submissions, ROOT / "submissions" / "korrekt")
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
    by_display = {r["extra_data"]["display_name"]: r for r in results.values()}
    return {"level": level, "status": status, "results": results, "feedback": feedback,
            "html": html,
            "connected": connected, "targets": targets, "out": out,
            "tasks_digest": tasks_digest, "submissions": submissions, "entries": entries,
            "by_display": by_display}


def outputs(batch, student):
    """Its tests' outputs as a reader of Gradescope's Markdown sees them (what the student's
    code wrote is escaped there: &lt; for <)."""
    import html
    return " ".join(html.unescape(t["output"]) for t in batch["results"][student]["tests"])


def test_the_batch_completes_and_correct_students_are_unaffected(batch):
    assert batch["status"] == 0
    from grader.submissions.finding import find
    assert len(batch["results"]) == len(find(batch["submissions"]))
    for report in ("gradebook.csv", "moodle.csv", "ilias.csv", "junit.xml", "summary.html"):
        assert (batch["out"] / report).is_file(), report
    for name in ("aa-korrekt", "zz-korrekt"):
        result = batch["results"][name]
        assert result["score"] == result["extra_data"]["max_score"] == 6, result


def test_no_submission_is_an_internal_error(batch):
    # Every hostile submission gets a verdict about itself; an internal error would mean the
    # grader lost against it (e.g. could not kill a fork flood).
    broken = {name: r["extra_data"]["notes"] for name, r in batch["results"].items()
              if any(n["key"] == "internal-error" for n in r["extra_data"]["notes"])}
    assert broken == {}


def test_hostile_names_archives_and_links_get_clear_verdicts(batch):
    for display, expected in batch["entries"].items():
        result = batch["by_display"][display]
        maximum = result["extra_data"]["max_score"]
        if expected == "full":
            assert result["score"] == maximum, (display, result)
        elif expected == "problem":
            assert result["score"] == 0 and result["output"] and \
                result["extra_data"]["needs_person"], (display, result)
        elif expected in ("zero", "low"):
            assert result["score"] < maximum, (display, result)
    ids = [r["extra_data"]["student"] for r in batch["results"].values()]
    assert len(ids) == len(set(ids))
    gradebook = (batch["out"] / "gradebook.csv").read_text().splitlines()
    assert len(gradebook) == len(batch["results"]) + 1
    assert not any(row.startswith(("=", "+", "-", "@")) for row in gradebook)
    # Not graded as handed in: an empty grade for a person to fill in, never a 0.
    import csv
    scores = {row[0]: row[1] for row in csv.reader(gradebook)}
    for display, expected in batch["entries"].items():
        if expected == "problem":
            assert scores[batch["by_display"][display]["extra_data"]["student"]] == "", display


def test_the_graded_code_is_the_visible_source(batch):
    notes = lambda display: {n["key"] for n in batch["by_display"][display]["extra_data"]["notes"]}
    assert "bytecode-ignored" in notes("stale-bytecode")
    assert "shadow-package" in notes("shadow-package")
    assert "links-ignored" in notes("link-to-reference")
    assert "collision" in notes("anna.zip") and "collision" in notes("anna.tar")
    assert "reserved-name" in notes("gradebook.csv")


def held_elsewhere(uid: int) -> bool:
    """Whether another grader process on this machine holds ``uid`` of the shared pool now
    (its children are its own business, not leftovers of this batch)."""
    import fcntl
    from grader.sandbox import container
    path = container._lock_directory() / str(uid)
    if not path.exists():
        return False
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_nothing_survives_the_batch(batch):
    if batch["level"] == "container":
        # Exact for this level: its processes run as the pool's uids, its roots live in the
        # workspace (living_children below also counts other graders on this machine).
        from grader.sandbox import container
        assert [uid for uid in range(container.UIDS.base, container.UIDS.base + container.UIDS.slots)
                if container.processes_of(uid) and not held_elsewhere(uid)] == []
        assert container.UIDS.in_use() == set()
        assert [p.name for p in container.workspace().iterdir()
                if not p.name.startswith(("template-", "runner-"))] == []
    assert living_children() == []
    mine = f"grader-{os.getpid()}-*"
    leftovers = [p for p in Path("/sys/fs/cgroup").glob(f"*/{mine}")]
    leftovers += [p for p in Path("/sys/fs/cgroup").glob(mine)]
    assert leftovers == []


def test_instructor_files_are_untouched(batch):
    assert not Path(batch["targets"]["out_file"]).exists()
    assert not Path(batch["targets"]["root_file"]).exists()
    assert hashlib.sha256((HOSTILE / "tasks.yaml").read_bytes()).hexdigest() == batch["tasks_digest"]
    assert not Path("/tmp/pwned-by-pickle").exists()
    assert not (batch["submissions"] / "write-outside" / "tampered.txt").exists()


# The hostile course gives a call 1 s of CPU time, and 6 s of wall-clock time as a backstop
# (grader.sandbox.launcher.backstop).
VERDICTS = {
    "infinite-loop": "No answer within 1.0 s of computing time",
    "ignore-signals": "No answer within 1.0 s",
    "sleeper": "No answer within 6.0 s, although your code hardly computed",
    "fork-flood": "No answer within 1.0 s of computing time",
    "recursion": "RecursionError",
    "segfault": "crashed (signal SIGSEGV)",
    "exit-at-import": "minimax.py cannot be loaded: SystemExit",
    "os-exit-at-import": "crashed (exit status 0)",
    "exit-in-call": "Your function stops with SystemExit",
    "os-exit-in-call": "crashed (exit status 0)",
    "hanging-import": "Loading minimax.py took longer than 1.0 s",
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
    assert batch["results"][student]["score"] < 6


MALFORMED = {
    "reply-deep": "not a plain JSON reply",
    "reply-huge-int": "outside the range of floating-point numbers",
    "reply-extra-keys": "unexpected reply",
    "reply-deep-value": "nested deeper than 24 levels",
    "reply-unhashable-log": "unexpected reply",
    "log-flood": "visit log longer than 600,000 entries",
    "reply-too-long": "reply longer than 16 MiB",
}


@pytest.mark.parametrize("student", sorted(MALFORMED))
def test_malformed_replies_are_refused_at_the_boundary_for_that_call_only(batch, student):
    assert "Your code's answer was unusable" in outputs(batch, student)
    assert MALFORMED[student] in outputs(batch, student)
    result = batch["results"][student]
    assert result["score"] < result["extra_data"]["max_score"]


def test_state_files_stay_small_whatever_a_submission_sent(batch):
    for folder in batch["out"].iterdir():
        if folder.is_dir():
            assert (folder / ".grading.json").stat().st_size < 1 << 20, folder.name


def test_junk_in_the_reply_pipe_is_dropped_and_costs_nothing(batch):
    result = batch["results"]["reply-junk"]
    assert result["score"] == result["extra_data"]["max_score"], result


def test_the_parent_stays_under_500_mb(batch):
    import resource
    # ru_maxrss is this process's peak over its whole life (KiB): an upper bound for the batch.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < 500 * 1024


def test_output_printed_during_hidden_checks_stays_with_the_instructor(batch):
    assert "NODES:" in batch["feedback"]["print-hidden"]       # visible checks' output is shown
    for page in (batch["feedback"]["print-hidden"], batch["html"]["print-hidden"]):
        assert "geheim" not in page
    junit = (batch["out"] / "junit.xml").read_text()
    assert "geheim-links" in junit                             # the instructor keeps it


def test_a_search_that_cannot_be_shrunk_reliably_still_gets_a_verdict(batch):
    tests = {t["name"].split()[0]: t for t in batch["results"]["flaky-random"]["tests"]}
    assert tests["random/minimax/random-trees"]["status"] == "failed"


def test_c_stack_overflow_is_a_crash_not_a_hang(batch):
    text = outputs(batch, "c-stack")
    assert "crashed (signal SIGSEGV)" in text or "RecursionError" in text or "MemoryError" in text
    assert batch["results"]["c-stack"]["score"] == 0


def test_memory_hogs_are_stopped(batch):
    # Filling 1 GiB costs about a second of page faults on a fast machine and more on a busy
    # one, so the hog meets either its address-space limit or its call's CPU limit first:
    # both stop it at its own cost.
    text = outputs(batch, "memory-hog")
    assert "MemoryError" in text or "crashed" in text or "was stopped" in text
    assert batch["results"]["memory-hog"]["score"] == 0


def test_records_wiped_by_the_student_only_cost_the_student(batch):
    # The grader's records are the evidence: wiped, the right value is no longer earned.
    tests = {t["name"].split()[0]: t for t in batch["results"]["wipe-records"]["tests"]}
    assert tests["sheet/minimax/value"]["status"] == "failed"
    assert "did not earn it" in tests["sheet/minimax/value"]["output"]
    assert tests["sheet/minimax/visited"]["status"] == "failed"
    assert batch["results"]["wipe-records"]["score"] == 0


def test_huge_output_is_cut_counted_and_never_fatal(batch):
    from grader.report.messages import Catalogue
    from grader.report.views import output_view
    feedback = batch["feedback"]["huge-output"]
    assert len(feedback) < 100_000
    assert "File too large" not in outputs(batch, "huge-output")
    state = json.loads((batch["out"] / "huge-output" / ".grading.json").read_text())
    assert state["output"]["stdout_dropped"] > 20_000_000     # one call prints 20 MB
    dropped = output_view(state["output"], for_student=True)["dropped"]
    assert Catalogue("en").text("ui.output_dropped", bytes=dropped) in feedback


def test_stdin_does_not_disturb_a_correct_search(batch):
    assert batch["results"]["read-stdin"]["score"] == 6
    assert "STDIN: ''" in batch["feedback"]["read-stdin"]


def test_threads_left_spinning_are_charged_to_their_own_submission(batch):
    # Every call leaves eight threads spinning: they count against the submission's own CPU
    # time and its process limit (threads are tasks), so its later calls fail, with that
    # cause; nobody else's do (the correct students keep full marks).
    failing = [t for t in batch["results"]["lingering-thread"]["tests"]
               if t["status"] == "failed"]
    assert failing
    assert all(any(cause in t["output"] for cause in (
        "can't start new thread", "computing time", "time budget", "Not run",
        "random trees")) for t in failing), failing


def test_markup_from_a_student_is_escaped(batch):
    html = batch["html"]["markup"]
    assert "<script>alert" not in html and "onerror=alert(1)>" not in html
    assert "&lt;script&gt;" in html
    # Gradescope renders its tests' Markdown: nothing the student wrote is markup there
    tests = batch["results"]["markup"]["tests"]
    assert not any("<script" in t["output"] or "<img" in t["output"] for t in tests)
    assert any("&lt;script&gt;" in t["output"] or "&lt;img" in t["output"] for t in tests)


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


@pytest.mark.parametrize("student", ["forged-results", "patch-modules", "reply-deep",
                                     "reply-junk"])
def test_code_that_reaches_for_the_runner_is_flagged_for_the_instructor(batch, student):
    extra = batch["results"][student]["extra_data"]
    assert extra["forgery"] and extra["needs_person"]
    assert all(f["file"] and f["line"] for f in extra["forgery"])
    summary = (batch["out"] / "summary.html").read_text()
    attention = summary[summary.index('id="attention"'):summary.index("</table>",
                                                                      summary.index('id="attention"'))]
    assert f">{student}</a>" in attention


def test_correct_submissions_are_not_flagged(batch):
    for name in ("aa-korrekt", "zz-korrekt"):
        extra = batch["results"][name]["extra_data"]
        assert extra["forgery"] == [] and not extra["needs_person"]
