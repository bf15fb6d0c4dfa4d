"""Batches survive bad input and interruption: nothing lost, the same result every time."""

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import time
import zipfile

import pytest

from grader.cli import main
from grader.submissions.archives import unpack
from grader.submissions.limits import ArchiveError

from conftest import DATA, ROOT


def make_zip(path, entries):
    with zipfile.ZipFile(path, "w") as bundle:
        for name, data in entries.items():
            bundle.writestr(name, data)


@pytest.fixture
def lms_export(tmp_path):
    """A folder as an LMS exports it: archives and folders, some of them broken."""
    folder = tmp_path / "export"
    folder.mkdir()
    korrekt = ROOT / "submissions" / "korrekt"
    make_zip(folder / "anna.zip", {f"anna/{p.name}": p.read_bytes() for p in korrekt.iterdir()})
    with tarfile.open(folder / "ben.tar.gz", "w:gz") as bundle:
        for path in korrekt.iterdir():
            bundle.add(path, arcname=path.name)
    make_zip(folder / "traversal.zip", {"../../evil.py": b"print('escaped')",
                                        "minimax.py": b""})
    with tarfile.open(folder / "link.tar", "w") as bundle:
        info = tarfile.TarInfo("minimax.py")
        info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
        bundle.addfile(info)
    make_zip(folder / "bomb.zip", {f"f{i}.py": b"x" for i in range(600)})
    (folder / "leer").mkdir()
    shutil.copytree(DATA / "bad-input" / "keine-datei", folder / "keine-datei")
    shutil.copytree(DATA / "bad-input" / "latin1", folder / "latin1")
    return folder


def test_an_lms_export_is_graded_whatever_it_holds(lms_export, tmp_path, course):
    out = tmp_path / "out"
    assert main(["grade", "--submissions", str(lms_export), "--tasks", str(ROOT / "tasks"),
                 "--out", str(out), "--lang", "en"]) == 0
    results = {p.name: json.loads((p / "results.json").read_text())
               for p in out.iterdir() if p.is_dir()}
    assert set(results) == {"anna", "ben", "traversal", "link", "bomb", "leer", "keine-datei",
                            "latin1"}
    assert results["anna"]["score"] == results["ben"]["score"] == course.max_score
    assert not (tmp_path / "evil.py").exists() and not (lms_export.parent / "evil.py").exists()
    assert "unsafe path" in results["traversal"]["output"]
    assert "link or special file" in results["link"]["output"]
    assert "more than 500 files" in results["bomb"]["output"]
    assert results["leer"]["output"] == "The submission is empty."
    texts = " ".join(t["output"] for t in results["keine-datei"]["tests"])
    assert "The file minimax.py is missing from your submission." in texts
    latin = " ".join(t["output"] for t in results["latin1"]["tests"])
    assert "minimax.py cannot be loaded: SyntaxError" in latin and "utf-8" in latin


def test_a_lying_archive_header_cannot_unpack_a_bomb(tmp_path):
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w") as bundle:
        info = tarfile.TarInfo("minimax.py")
        info.size = 10
        bundle.addfile(info, io.BytesIO(b"0123456789"))
    archive = tmp_path / "a.tar"
    archive.write_bytes(data.getvalue())
    assert (unpack(archive, tmp_path / "ok") / "minimax.py").read_bytes() == b"0123456789"
    with pytest.raises(ArchiveError):
        make_zip(tmp_path / "abs.zip", {"/etc/cron.d/x": b"boom"})
        unpack(tmp_path / "abs.zip", tmp_path / "abs")


def test_a_batch_killed_midway_finishes_with_resume(tmp_path):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    for index in range(4):
        shutil.copytree(ROOT / "submissions" / "korrekt", submissions / f"k{index}")
    for index in range(2):
        shutil.copytree(ROOT / "submissions" / "endlosschleife", submissions / f"z{index}")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "grader.cli", "grade", "--tasks", str(ROOT / "tasks"),
               "--submissions", str(submissions), "--out", str(out), "--jobs", "1"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while len(list(out.glob("*/results.json"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    done = {p.parent.name: p.stat().st_mtime_ns for p in out.glob("*/results.json")}
    assert 2 <= len(done) < 6, "killed midway"
    for path in out.glob("*/results.json"):
        json.loads(path.read_text())  # every written result is whole
    assert subprocess.run(command + ["--resume"], cwd=ROOT, capture_output=True).returncode == 0
    after = {p.parent.name: p.stat().st_mtime_ns for p in out.glob("*/results.json")}
    assert set(after) == {"k0", "k1", "k2", "k3", "z0", "z1"}
    assert all(after[name] == stamp for name, stamp in done.items()), "not graded twice"
    assert (out / "gradebook.csv").read_text().count("\n") == 7


def test_a_batch_at_the_process_level_is_refused_unless_allowed(tmp_path, capsys):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    shutil.copytree(ROOT / "submissions" / "korrekt", submissions / "korrekt")
    out = tmp_path / "out"
    argv = ["grade", "--tasks", str(ROOT / "tasks"), "--submissions", str(submissions),
            "--out", str(out), "--sandbox", "process", "--lang", "en"]
    assert main(argv) == 2
    assert "--allow-weak-sandbox" in capsys.readouterr().err
    assert not out.exists()
    assert main(argv + ["--allow-weak-sandbox"]) == 0
    results = json.loads((out / "korrekt" / "results.json").read_text())
    assert results["extra_data"]["isolation"] == "process"
    assert results["score"] == sum(t["max_score"] for t in results["tests"])
    assert "process" in (out / "korrekt" / "feedback.md").read_text()


def test_set_orders_in_student_code_repeat_from_run_to_run(grade):
    from grader.tasks import load_course
    course = load_course(DATA / "hostile" / "tasks.yaml")
    runs = [grade(DATA / "set-order", course) for _ in range(3)]
    facts = [[(v.check.id, v.passed, v.reason, repr(v.facts.get("first_difference")),
               repr(v.facts.get("picture", {}).get("observed"))) for v in r.verdicts]
             for r in runs]
    assert facts[0] == facts[1] == facts[2]


def test_a_grader_failure_on_one_submission_is_its_internal_error_and_the_batch_goes_on(
        tmp_path, monkeypatch):
    from grader.checks import value
    submissions, out = tmp_path / "submissions", tmp_path / "out"
    submissions.mkdir()
    for name in ("a-korrekt", "b-korrekt", "c-korrekt"):
        shutil.copytree(ROOT / "submissions" / "korrekt", submissions / name)
    original = value.judge
    calls = {"count": 0}

    def judging(check, observations, answers):
        # The grader's own bug, hit once: while judging the first submission graded.
        calls["count"] += 1
        if calls["count"] == 1:
            raise RuntimeError("a bug in the grader")
        return original(check, observations, answers)
    monkeypatch.setattr(value, "judge", judging)
    status = main(["grade", "--tasks", str(DATA / "hostile" / "tasks.yaml"), "--submissions",
                   str(submissions), "--out", str(out), "--jobs", "1", "--allow-weak-sandbox"])
    assert status == 0
    results = {p.name: json.loads((p / "results.json").read_text())
               for p in out.iterdir() if p.is_dir()}
    assert sorted(results) == ["a-korrekt", "b-korrekt", "c-korrekt"]
    broken = [r for r in results.values() if r["extra_data"]["needs_person"]]
    assert len(broken) == 1
    assert "RuntimeError: a bug in the grader" in broken[0]["output"]
    assert [n["key"] for n in broken[0]["extra_data"]["notes"]] == ["internal-error"]
    assert all("internal error" in t["output"] for t in broken[0]["tests"])
    # Its state has no hashes: --resume grades it again, grader merge still finds it.
    state = json.loads((out / broken[0]["extra_data"]["student"] / ".grading.json").read_text())
    assert state["hashes"] is None and state["problem"] == "submission.internal"
    for result in results.values():
        if result is not broken[0]:
            assert result["score"] == result["extra_data"]["max_score"]
    summary = (out / "summary.html").read_text()
    assert "a bug in the grader" in summary[summary.index('id="attention"'):]
    # --resume grades it again (the judge works now) rather than taking its state.
    monkeypatch.setattr(value, "judge", original)
    assert main(["grade", "--tasks", str(DATA / "hostile" / "tasks.yaml"), "--submissions",
                 str(submissions), "--out", str(out), "--jobs", "1", "--allow-weak-sandbox",
                 "--resume"]) == 0
    again = json.loads((out / broken[0]["extra_data"]["student"] / "results.json").read_text())
    assert again["score"] == again["extra_data"]["max_score"] and not again["extra_data"]["notes"]


def test_one_export_that_cannot_be_written_does_not_keep_the_others_back(tmp_path, monkeypatch):
    from grader.lms import exports
    submissions, out = tmp_path / "submissions", tmp_path / "out"
    submissions.mkdir()
    shutil.copytree(ROOT / "submissions" / "korrekt", submissions / "korrekt")

    def broken(*args, **kwargs):
        raise OSError("disk full")
    monkeypatch.setattr(exports, "summary_html", broken)
    status = main(["grade", "--tasks", str(DATA / "hostile" / "tasks.yaml"), "--submissions",
                   str(submissions), "--out", str(out), "--allow-weak-sandbox"])
    assert status == 1
    for name in ("gradebook.csv", "moodle.csv", "ilias.csv", "junit.xml"):
        assert (out / name).is_file()
    assert not (out / "summary.html").exists()
