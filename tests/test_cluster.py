"""The Dask cluster executor (``grader grade --cluster ADDRESS``), against a LocalCluster of two
worker processes on this machine: a batch graded on the cluster is the batch graded by local
workers, ``--resume`` sends nothing that was graded before (by either executor), an
interruption loses only what was in flight, a worker that dies costs only its submission, and
the workers leave no sandbox children, cgroups or temporary folders behind."""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import dask
import distributed     # the test extra installs it: a missing one fails here, not skips
import pytest

from grader import cluster as cluster_module
from grader.cli import main

from conftest import DATA, ROOT
from test_hostile import living_children
from test_interrupt import (interruptible, leftovers, settled, stop_with,
                            wait_for_first_result)

EXPORTS = ("gradebook.csv", "moodle.csv", "ilias.csv", "junit.xml")


def local_cluster(**config):
    """Two worker processes with one thread each (each grades one submission at a time)."""
    with dask.config.set(config):
        return distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                        dashboard_address=":0")


def worker_pids(address: str) -> list:
    with distributed.Client(address, set_as_default=False) as client:
        return sorted(client.run(os.getpid).values())


@pytest.fixture(scope="module")
def cluster():
    with local_cluster() as running:
        yield running.scheduler_address


@pytest.fixture(scope="module")
def submissions(tmp_path_factory):
    """The bundled students (a broken one, a hanging one among them), one of them again as a
    zip archive, an archive that is refused (a problem, no grading), and a folder with a link
    and bytecode that staging leaves out (notes that must travel with the copy).  The folder
    with the link holds strikter-schnitt's code (failed checks, a shrunk counterexample), so
    strikter-schnitt itself is not graded a second time under its own name."""
    folder = tmp_path_factory.mktemp("cluster") / "submissions"
    shutil.copytree(ROOT / "submissions", folder,
                    ignore=lambda where, names: ["strikter-schnitt"] if where == str(
                        ROOT / "submissions") else [])
    shutil.make_archive(str(folder / "archiviert"), "zip", ROOT / "submissions" / "korrekt")
    shutil.copy(DATA / "archives" / "longname-bomb.tar.gz", folder / "bombe.tar.gz")
    shutil.copytree(ROOT / "submissions" / "strikter-schnitt", folder / "mit-link")
    (folder / "mit-link" / "notizen.txt").symlink_to("/etc/passwd")
    (folder / "mit-link" / "__pycache__").mkdir()
    (folder / "mit-link" / "__pycache__" / "minimax.cpython-311.pyc").write_bytes(b"\0" * 16)
    return folder


def grade(submissions: Path, out: Path, *extra: str) -> int:
    return main(["grade", "--tasks", str(ROOT / "tasks"), "--submissions", str(submissions),
                 "--out", str(out), "--allow-weak-sandbox", *extra])


@pytest.fixture(scope="module")
def plain(submissions):
    out = submissions.parent / "plain"
    assert grade(submissions, out, "--jobs", "2") == 0
    return out


@pytest.fixture(scope="module")
def on_cluster(submissions, cluster):
    out = submissions.parent / "on-cluster"
    assert grade(submissions, out, "--cluster", cluster) == 0
    return out


TIMING = re.compile(r"(Time|Zeit|Laufzeit): [0-9.]+ s")


def reports(out: Path) -> dict:
    """Every student's files, with the only run-dependent figures (times) taken out."""
    found = {}
    for folder in sorted(p for p in out.iterdir() if p.is_dir()):
        data = json.loads((folder / "results.json").read_text())
        data.pop("execution_time")
        state_file = folder / ".grading.json"
        state = json.loads(state_file.read_text()) if state_file.exists() else None
        if state is not None:
            state.pop("seconds")
        pages = [TIMING.sub(r"\1: _ s", (folder / name).read_text())
                 for name in ("feedback.md", "feedback.html")]
        found[folder.name] = (data, state, *pages)
    return found


def exports(out: Path) -> dict:
    return {name: re.sub(r'time="[0-9.]+"', 'time="_"', (out / name).read_text())
            for name in EXPORTS}


def test_a_cluster_grades_a_batch_exactly_as_local_workers_do(plain, on_cluster):
    expected = reports(plain)
    assert sorted(expected) == ["archiviert", "bombe", "endlosschleife", "korrekt", "mit-link",
                                "ohne-alphabeta", "syntaxfehler"]
    assert reports(on_cluster) == expected
    assert exports(on_cluster) == exports(plain)
    # What the comparison covers: a refused archive, staging's notes, a full score.
    results = {name: data for name, (data, *_) in expected.items()}
    assert results["bombe"]["extra_data"]["needs_person"]
    assert {"links-ignored", "bytecode-ignored"} <= {
        note["key"] for note in results["mit-link"]["extra_data"]["notes"]}
    assert results["archiviert"]["score"] == results["korrekt"]["score"] == 60
    assert 0 < results["mit-link"]["score"] < 60     # strikter-schnitt's failed checks


def test_the_workers_leave_no_sandbox_children_cgroups_or_temporary_folders(on_cluster,
                                                                           cluster):
    pids = worker_pids(cluster)
    assert len(pids) == 2
    for pid in pids:
        assert settled(lambda: not living_children(pid) and not leftovers(pid))
        assert living_children(pid) == [] and leftovers(pid) == []
    # The batch process's staging folder (other tests' folders of this process are theirs).
    assert [p for p in leftovers(os.getpid()) if "-cluster-" in p.name] == []


@pytest.fixture
def sent(monkeypatch):
    """The submissions the batch process sends to the cluster, by student."""
    names = []
    original = distributed.Client.submit

    def counting(self, function, *args, **kwargs):
        if function is cluster_module.grade_on_worker:
            names.append(args[2].student)
        return original(self, function, *args, **kwargs)
    monkeypatch.setattr(distributed.Client, "submit", counting)
    return names


@pytest.mark.parametrize("graded_by", ["cluster", "local workers"])
def test_resume_on_the_cluster_sends_only_what_changed(graded_by, plain, on_cluster, cluster,
                                                       submissions, sent, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(on_cluster if graded_by == "cluster" else plain, out)
    before = reports(out)
    assert grade(submissions, out, "--cluster", cluster, "--resume") == 0
    # Internal errors keep no state and would be sent again: there are none in this batch.
    assert sent == []
    assert reports(out) == before
    changed = tmp_path / "submissions"
    shutil.copytree(submissions, changed, symlinks=True)
    with open(changed / "ohne-alphabeta" / "minimax.py", "a") as source:
        source.write("\n# a comment changes the content, so the submission is graded again\n")
    assert grade(changed, out, "--cluster", cluster, "--resume") == 0
    assert sent == ["ohne-alphabeta"]
    after = reports(out)
    assert after["ohne-alphabeta"][1]["hashes"] != before["ohne-alphabeta"][1]["hashes"]
    assert [(data, pages) for data, _, *pages in after.values()] \
        == [(data, pages) for data, _, *pages in before.values()]


@pytest.fixture
def slow_batch(tmp_path):
    """One quick correct submission, then two hanging ones (each call runs into its limit):
    when the correct one is graded, the hanging ones are in flight on the two workers."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    shutil.copytree(ROOT / "submissions" / "korrekt", folder / "a-korrekt")
    for name in ("b-endlos", "c-endlos"):
        shutil.copytree(ROOT / "submissions" / "endlosschleife", folder / name)
    return folder


def test_an_interrupted_cluster_batch_keeps_what_was_graded_and_resume_finishes_it(
        slow_batch, cluster, tmp_path):
    out = tmp_path / "out"
    command = [sys.executable, "-m", "grader.cli", "grade", "--tasks", str(ROOT / "tasks"),
               "--submissions", str(slow_batch), "--out", str(out), "--allow-weak-sandbox",
               "--cluster", cluster]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                               preexec_fn=interruptible)
    wait_for_first_result(process)
    status, rest = stop_with(process, signal.SIGINT, 60)
    assert status == 130, rest
    assert "Interrupted" in rest and "--resume" in rest
    graded = (out / "gradebook.csv").read_text().splitlines()[1:]
    assert graded and graded[0].startswith("a-korrekt,60,60")
    assert len(graded) < 3
    assert 'class="interrupted"' in (out / "summary.html").read_text()
    # The workers killed this batch's children and removed its folders; so did the parent.
    for pid in worker_pids(cluster):
        assert settled(lambda: not living_children(pid) and not leftovers(pid))
        assert living_children(pid) == [] and leftovers(pid) == []
    assert leftovers(process.pid) == []

    resumed = subprocess.run([*command, "--resume"], stderr=subprocess.PIPE, text=True,
                             cwd=ROOT, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    plain_out = tmp_path / "plain"
    assert grade(slow_batch, plain_out, "--jobs", "2") == 0
    assert reports(out) == reports(plain_out)
    assert exports(out) == exports(plain_out)


class DieOn(distributed.WorkerPlugin):
    """Kills the worker process the moment it starts grading ``student`` (as the OOM killer
    or an operator would)."""

    def __init__(self, student: str):
        self.student = student

    def transition(self, key, start, finish, **kwargs):
        if finish == "executing" and str(key).startswith(f"grade-{self.student}-"):
            os._exit(1)


def test_a_worker_that_dies_costs_only_the_submission_it_held(tmp_path):
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in ("korrekt", "ohne-alphabeta", "syntaxfehler"):
        shutil.copytree(ROOT / "submissions" / name, folder / name)
    out = tmp_path / "out"
    # No retries: the first death makes the task fail (with retries, each worker that picks
    # it up dies too, until the scheduler gives up: the same end, slower).
    with local_cluster(**{"distributed.scheduler.allowed-failures": 0}) as running:
        with distributed.Client(running.scheduler_address, set_as_default=False) as client:
            client.register_plugin(DieOn("ohne-alphabeta"))
        assert grade(folder, out, "--cluster", running.scheduler_address) == 0
        pids = worker_pids(running.scheduler_address)
    results = {p.name: json.loads((p / "results.json").read_text())
               for p in out.iterdir() if p.is_dir()}
    assert sorted(results) == ["korrekt", "ohne-alphabeta", "syntaxfehler"]
    died = results["ohne-alphabeta"]
    assert died["score"] == 0 and died["extra_data"]["needs_person"]
    assert "Dask workers that held this submission died" in died["output"]
    assert [n["key"] for n in died["extra_data"]["notes"]] == ["internal-error"]
    # Its state has no hashes: --resume grades it again.
    assert json.loads((out / "ohne-alphabeta" / ".grading.json").read_text())["hashes"] is None
    assert results["korrekt"]["score"] == 60
    assert 0 < results["syntaxfehler"]["score"] < 60
    for pid in pids:
        assert living_children(pid) == [] and leftovers(pid) == []


def test_a_worker_without_the_batch_sandbox_level_or_packages_grades_nothing(
        monkeypatch, course, prepared):
    from grader.sandbox import bubblewrap
    from grader.submissions.finding import Submission
    from grader.worker import Context
    plan, answers = prepared
    context = Context(course, plan, answers, "bubblewrap", 60.0, "en", "hash")
    monkeypatch.setattr(bubblewrap, "bubblewrap_works", lambda: False)
    korrekt = ROOT / "submissions" / "korrekt"
    with pytest.raises(cluster_module.SandboxUnavailable,
                       match="cannot grade at the 'bubblewrap' isolation level"):
        cluster_module.grade_on_worker("batch", context, Submission("korrekt", "korrekt",
                                                                    korrekt, "folder"),
                                       None, cluster_module.bundle(korrekt), None, ())
    assert "install it on every worker" in cluster_module._describe(
        cluster_module.SandboxUnavailable(cluster_module.level_problem("bubblewrap")))
    # Nor with a package the course provides missing there: its students' imports would fail.
    monkeypatch.setattr(bubblewrap, "bubblewrap_works", lambda: True)
    without = replace(context, level="process",
                      plan=replace(plan, packages=("no-such-distribution-here",)))
    with pytest.raises(cluster_module.SandboxUnavailable,
                       match="cannot provide this course's packages: package "
                             "'no-such-distribution-here' is not installed"):
        cluster_module.grade_on_worker("batch", without, Submission("korrekt", "korrekt",
                                                                    korrekt, "folder"),
                                       None, cluster_module.bundle(korrekt), None, ())


def test_a_bundle_unpacks_to_the_same_content(tmp_path):
    from grader.submissions.staging import content_hash
    source = tmp_path / "source"
    (source / "pkg" / "leer").mkdir(parents=True)
    (source / "pkg" / "modul.py").write_text("X = 1\n")
    (source / os.fsdecode(b"caf\xe9.py")).write_text("# not UTF-8 in its name\n")
    copy = tmp_path / "copy"
    cluster_module.unbundle(cluster_module.bundle(source), copy)
    assert content_hash(copy) == content_hash(source)
    assert (copy / "pkg" / "leer").is_dir()          # an empty folder is content too
    with pytest.raises(ValueError, match="unusable path"):
        cluster_module.unbundle(((b"../outside.py", b"X = 1\n"),), tmp_path / "evil")
    assert not (tmp_path / "outside.py").exists()


def test_without_distributed_the_cluster_option_says_how_to_install_it(monkeypatch, capsys,
                                                                        tmp_path):
    monkeypatch.setitem(sys.modules, "distributed", None)      # import distributed fails
    status = grade(ROOT / "submissions", tmp_path / "out", "--cluster", "tcp://127.0.0.1:8786")
    assert status == 2
    message = capsys.readouterr().err
    assert "pip install -e '.[cluster]'" in message and "nothing was graded" in message
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("address", ["no-port-here", "tcp://127.0.0.1:{port}"])
def test_a_wrong_or_unreachable_address_is_named_and_nothing_is_graded(address, monkeypatch,
                                                                        capsys, tmp_path):
    with socket.socket() as probe:      # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        address = address.format(port=probe.getsockname()[1])
    monkeypatch.setattr(cluster_module, "CONNECT_SECONDS", 2)
    status = grade(ROOT / "submissions", tmp_path / "out", "--cluster", address)
    assert status == 2
    message = capsys.readouterr().err
    assert f"--cluster {address}: no Dask scheduler can be reached" in message
    assert not (tmp_path / "out").exists()


def test_a_worker_keeps_its_graders_for_the_batch_and_drops_forgotten_ones(
        monkeypatch, course, prepared):
    """In this process, as a worker would: a batch's grader is kept between submissions and
    removed with its folder when the batch ends, and one whose batch process vanished
    without ending it goes once it has idled long enough."""
    from grader.submissions.finding import Submission
    from grader.submissions.staging import content_hash
    from grader.worker import TEMP_PREFIX, Context
    plan, answers = prepared
    context = Context(course, plan, answers, "process", 60.0, "en", "hash")
    korrekt = ROOT / "submissions" / "korrekt"

    def grade_for(batch):
        return cluster_module.grade_on_worker(
            batch, context, Submission("korrekt", "korrekt", korrekt, "folder"), None,
            cluster_module.bundle(korrekt), None, ())

    def folders():
        return sorted(Path(cluster_module.tempfile.gettempdir()).glob(
            f"{TEMP_PREFIX}{os.getpid()}-*"))
    before = folders()
    outcome = grade_for("vanished")
    assert outcome.kind == "graded" and outcome.result.score == 60
    state = json.loads(outcome.files[".grading.json"])
    assert state["hashes"]["submission"] == content_hash(korrekt)
    kept = [f for f in folders() if f not in before]
    assert len(kept) == 1 and kept[0].is_dir()
    monkeypatch.setattr(cluster_module, "IDLE_SECONDS", 0)
    assert grade_for("current").kind == "graded"
    assert not kept[0].exists()            # the vanished batch's grader is gone
    assert len([f for f in folders() if f not in before]) == 1
    cluster_module.end_on_worker("current")
    assert [f for f in folders() if f not in before] == []
    assert grade_for("current").kind == "interrupted"   # an ended batch grades no more
