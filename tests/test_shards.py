"""Sharding: ``grader grade --shard K/N`` grades a stable share of the submissions, and
``grader merge`` turns the shards into the reports of a single run, apart from timings."""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from grader.cli import build_parser, main
from grader.shards import Shard, in_shard, parse_shard, shard_key
from grader.submissions.finding import find

from conftest import DATA, ROOT

EXAMPLES = ROOT / "docs" / "examples"
# Real submission folders of every kind the suite holds: about 70 names in all.
LISTINGS = [ROOT / "submissions", DATA / "hostile", DATA / "styles", DATA / "do-nothing"]
EXPORTS = ["gradebook.csv", "moodle.csv", "ilias.csv", "junit.xml", "summary.html"]

# The fields that differ between a merged and a single run, each a timing (see the README,
# "Sharding: job arrays and CI matrices"): the pattern and how many times a file holds it.
TIMINGS = {
    "junit.xml": re.compile(rb'(<testsuite name="[^"]*" tests="\d+" failures="\d+" time=")'
                            rb'[0-9.]+(")'),
    "summary.html": re.compile(rb"(\d+ (?:Abgaben|submissions) in )[0-9.]+( s)"),
    "results.json": re.compile(rb'("execution_time": )[0-9.]+()'),
    "feedback.md": re.compile(rb"((?:Laufzeit|Time): )[0-9.]+( s)"),
    "feedback.html": re.compile(rb"((?:Laufzeit|Time): )[0-9.]+( s)"),
    ".grading.json": re.compile(rb'("seconds": )[0-9.e-]+()'),
}


def without_timing(path: Path) -> bytes:
    data = path.read_bytes()
    pattern = TIMINGS.get(path.name)
    if pattern is None:
        return data
    normalised, count = pattern.subn(rb"\1<timing>\2", data)
    assert count, f"{path}: no timing field found where one is expected"
    return normalised


def files_below(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


# -- the split -------------------------------------------------------------------------------

@pytest.mark.parametrize("count", [1, 2, 3, 4, 5])
def test_every_submission_is_in_exactly_one_shard(count):
    listed = [(folder, s) for folder in LISTINGS for s in find(folder)]
    assert len(listed) > 60
    for folder, submission in listed:
        owners = [k for k in range(1, count + 1) if Shard(k, count).holds(submission)]
        assert len(owners) == 1, (folder, submission.student, owners)
    shares = [[(folder, s.student) for folder in LISTINGS
               for s in Shard(k, count).select(find(folder))] for k in range(1, count + 1)]
    assert sorted(x for share in shares for x in share) == sorted((f, s.student) for f, s in listed)
    # The hash spreads them: with ~70 names no shard of at most 5 is empty.
    assert all(shares), [len(share) for share in shares]


def test_adding_or_removing_students_moves_no_one_else(tmp_path):
    names = sorted(p.name for p in (DATA / "hostile").iterdir() if p.is_dir())
    root = tmp_path / "submissions"
    root.mkdir()
    for name in names[:25]:
        (root / name).mkdir()

    def shards(count):
        return {s.display: k for k in range(1, count + 1)
                for s in Shard(k, count).select(find(root))}
    before = {count: shards(count) for count in range(2, 6)}
    for name in names[25:]:
        (root / name).mkdir()
    for name in names[:6]:
        (root / name).rmdir()
    after = {count: shards(count) for count in range(2, 6)}
    for count in range(2, 6):
        kept = set(before[count]) & set(after[count])
        assert len(kept) == 19
        assert {n: before[count][n] for n in kept} == {n: after[count][n] for n in kept}


def test_an_archive_keeps_its_shard_when_a_colliding_one_renames_it(tmp_path):
    # find() only lists names: empty files are enough.
    (tmp_path / "anna.zip").write_bytes(b"")
    (tmp_path / "ben").mkdir()
    [alone, _] = find(tmp_path)
    (tmp_path / "anna.tar").write_bytes(b"")
    renamed = next(s for s in find(tmp_path) if s.source.name == "anna.zip")
    assert (alone.student, renamed.student) == ("anna", "anna~2")
    assert shard_key(alone) == shard_key(renamed) == b"anna"
    for count in range(2, 8):
        assert [Shard(k, count).holds(alone) for k in range(1, count + 1)] == \
               [Shard(k, count).holds(renamed) for k in range(1, count + 1)]


def test_the_split_is_the_same_in_every_process():
    # Python's own hash() of a str differs from process to process; the split must not.
    names = sorted(p.name for p in (DATA / "hostile").iterdir() if p.is_dir())
    script = ("import sys; from grader.shards import in_shard; "
              "print([[k for k in range(1, 6) if in_shard(n, k, 5)][0] for n in sys.argv[1:]])")
    here = str([[k for k in range(1, 6) if in_shard(n, k, 5)][0] for n in names])
    for seed in ("1", "2"):
        there = subprocess.run([sys.executable, "-c", script, *names], capture_output=True,
                               text=True, check=True,
                               env={**os.environ, "PYTHONHASHSEED": seed}).stdout.strip()
        assert there == here


@pytest.mark.parametrize("value", ["0/3", "4/3", "3/0", "0/0", "-1/3", "x", "1/", "/3", "1/3/5",
                                   "1.5/3", "", "one/two"])
def test_a_bad_shard_is_refused_with_exit_status_2(value, tmp_path, capsys):
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as stopped:
        main(["grade", f"--shard={value}", "--tasks", str(ROOT / "tasks"), "--submissions",
              str(ROOT / "submissions"), "--out", str(out)])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert "argument --shard" in error and repr(value) in error and "K" in error
    assert not out.exists()


@pytest.mark.parametrize("command", ["grade", "merge"])
def test_the_help_shows_an_example_and_the_exit_statuses(command, capsys):
    with pytest.raises(SystemExit) as stopped:
        main([command, "--help"])
    assert stopped.value.code == 0
    text = capsys.readouterr().out
    assert "grader merge shards/1 shards/2" in text and "exit status: 0" in text
    assert "2 " in text[text.index("exit status:"):]
    assert ("--shard K/N" if command == "grade" else "OUT_DIR") in text


def test_parse_shard_reads_k_of_n():
    assert parse_shard("2/4") == Shard(2, 4) and parse_shard(" 4 / 4 ") == Shard(4, 4)
    assert str(parse_shard("1/1")) == "1/1"
    with pytest.raises(ValueError, match="between 1 and N=4"):
        parse_shard("5/4")


# -- a single run against three shards merged ------------------------------------------------

@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The bundled students graded once plainly (3 at once) and as 3 shards (1 at once
    each, so the merge's summed jobs are the single run's), and the shards merged."""
    base = tmp_path_factory.mktemp("sharding")
    common = ["--tasks", str(ROOT / "tasks"), "--submissions", str(ROOT / "submissions"),
              "--allow-weak-sandbox"]
    assert main(["grade", *common, "--out", str(base / "single"), "--jobs", "3"]) == 0
    for k in (1, 2, 3):
        assert main(["grade", *common, "--out", str(base / f"shard-{k}"), "--jobs", "1",
                     "--shard", f"{k}/3"]) == 0
    assert main(["merge", *(str(base / f"shard-{k}") for k in (1, 2, 3)),
                 "--out", str(base / "merged"), "--tasks", str(ROOT / "tasks")]) == 0
    return base


@pytest.mark.parametrize("export", EXPORTS)
def test_merged_exports_are_a_single_runs_apart_from_timing(runs, export):
    single, merged = runs / "single" / export, runs / "merged" / export
    assert without_timing(merged) == without_timing(single)
    if export in ("gradebook.csv", "moodle.csv", "ilias.csv"):
        assert merged.read_bytes() == single.read_bytes()      # no timing in them at all


def test_merged_student_folders_are_a_single_runs_apart_from_timing(runs):
    single, merged = runs / "single", runs / "merged"
    students = sorted(p.name for p in single.iterdir() if p.is_dir())
    assert students == sorted(s.student for s in find(ROOT / "submissions"))
    assert files_below(merged) == files_below(single)
    for student in students:
        for name in sorted(files_below(single / student)):
            assert without_timing(merged / student / name) == \
                   without_timing(single / student / name), f"{student}/{name}"


def test_the_merge_records_its_shards_with_their_time_and_jobs_summed(runs):
    shards = [json.loads((runs / f"shard-{k}" / ".batch.json").read_text()) for k in (1, 2, 3)]
    merged = json.loads((runs / "merged" / ".batch.json").read_text())
    assert merged["seconds"] == pytest.approx(sum(s["seconds"] for s in shards))
    assert merged["jobs"] == 3 and merged["shard"] is None and not merged["interrupted"]
    assert merged["students"] == sorted(s.student for s in find(ROOT / "submissions"))
    assert [m["shard"] for m in merged["merged"]] == ["1/3", "2/3", "3/3"]
    assert merged["total"] == 5


def test_each_shard_reports_only_its_share_and_says_which_shard_it_is(runs):
    listed = find(ROOT / "submissions")
    for k in (1, 2, 3):
        out = runs / f"shard-{k}"
        mine = sorted(s.student for s in Shard(k, 3).select(listed))
        record = json.loads((out / ".batch.json").read_text())
        assert record["students"] == mine and record["total"] == len(mine)
        assert record["shard"] == {**record["shard"], "index": k, "count": 3, "listed": 5,
                                   "selected": len(mine)}
        gradebook = (out / "gradebook.csv").read_text().splitlines()
        assert [row.split(",")[0] for row in gradebook[1:]] == mine
        assert f"Teil {k} von 3" in (out / "summary.html").read_text()
        assert f"(shard {k}/3)" in (out / "junit.xml").read_text().splitlines()[1]
    assert "Teil" not in (runs / "single" / "summary.html").read_text()


def test_a_shard_without_submissions_is_graded_with_empty_exports(tmp_path, capsys):
    listed = find(ROOT / "submissions")
    k, count = next((k, n) for n in range(2, 10) for k in range(1, n + 1)
                    if not Shard(k, n).select(listed))
    out = tmp_path / "empty"
    assert main(["grade", "--tasks", str(ROOT / "tasks"), "--submissions",
                 str(ROOT / "submissions"), "--out", str(out), "--shard", f"{k}/{count}",
                 "--allow-weak-sandbox"]) == 0
    assert f"Graded 0 submission(s) of shard {k}/{count}" in capsys.readouterr().err
    assert len((out / "gradebook.csv").read_text().splitlines()) == 1
    assert "<testsuite " not in (out / "junit.xml").read_text()
    assert json.loads((out / ".batch.json").read_text())["students"] == []


# -- merges that a single run could not have produced ----------------------------------------

@pytest.fixture
def shards(runs, tmp_path):
    """Copies of the three shards, to spoil one way or another."""
    for k in (1, 2, 3):
        shutil.copytree(runs / f"shard-{k}", tmp_path / f"shard-{k}", symlinks=True)
    return [tmp_path / f"shard-{k}" for k in (1, 2, 3)]


def refused(capsys, folders, out, *more) -> str:
    status = main(["merge", *map(str, folders), "--out", str(out),
                   "--tasks", str(ROOT / "tasks"), *more])
    assert status == 2
    assert not out.exists(), "a refused merge wrote something"
    return capsys.readouterr().err


def edit_record(folder: Path, **changes) -> None:
    record = json.loads((folder / ".batch.json").read_text())
    for key, value in changes.items():
        if key in ("index", "count"):
            record["shard"][key] = value
        else:
            record[key] = value
    (folder / ".batch.json").write_text(json.dumps(record))


def test_merging_shards_graded_with_different_task_files_is_refused(tmp_path, capsys):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    shutil.copytree(ROOT / "submissions" / "syntaxfehler", submissions / "syntaxfehler")
    for k, tasks in ((1, ROOT / "tasks"), (2, DATA / "hostile" / "tasks.yaml")):
        assert main(["grade", "--tasks", str(tasks), "--submissions", str(submissions),
                     "--out", str(tmp_path / f"shard-{k}"), "--shard", f"{k}/2",
                     "--allow-weak-sandbox"]) == 0
    capsys.readouterr()
    error = refused(capsys, [tmp_path / "shard-1", tmp_path / "shard-2"], tmp_path / "merged")
    assert "graded with different task files" in error
    assert "grade every shard again with the same --tasks" in error


def test_merging_with_other_task_files_than_the_shards_is_refused(shards, tmp_path, capsys):
    status = main(["merge", *map(str, shards), "--out", str(tmp_path / "merged"),
                   "--tasks", str(DATA / "hostile" / "tasks.yaml")])
    assert status == 2 and not (tmp_path / "merged").exists()
    assert "other task files" in capsys.readouterr().err


def test_a_missing_shard_is_named(shards, tmp_path, capsys):
    error = refused(capsys, shards[:2], tmp_path / "merged")
    assert "missing: shard 3/3" in error


def test_a_shard_given_twice_is_refused(shards, tmp_path, capsys):
    error = refused(capsys, [shards[0], *shards], tmp_path / "merged")
    assert "shard 1/3 was given twice" in error


def test_a_student_in_two_shards_is_refused(runs, shards, tmp_path, capsys):
    # A copy of the shard with most students posing as the third: its students twice.
    big = max(shards, key=lambda s: len(json.loads((s / ".batch.json").read_text())["students"]))
    others = [s for s in shards if s != big]
    impostor = tmp_path / "impostor"
    shutil.copytree(big, impostor)
    third = json.loads((others[1] / ".batch.json").read_text())["shard"]["index"]
    edit_record(impostor, index=third)
    error = refused(capsys, [big, others[0], impostor], tmp_path / "merged")
    assert re.search(r"\S+ is in \S+ and in \S+impostor: a student belongs to one shard", error)


def test_an_interrupted_shard_is_named_with_how_to_finish_it(shards, tmp_path, capsys):
    edit_record(shards[1], interrupted=True)
    error = refused(capsys, shards, tmp_path / "merged")
    assert f"{shards[1]}: shard 2/3 was interrupted" in error
    assert f"grader grade --shard 2/3 --resume --out {shards[1]}" in error


def test_a_student_without_state_is_named_not_a_crash(shards, tmp_path, capsys):
    graded = next(s for s in shards if json.loads((s / ".batch.json").read_text())["students"])
    student = json.loads((graded / ".batch.json").read_text())["students"][0]
    (graded / student / ".grading.json").unlink()
    error = refused(capsys, shards, tmp_path / "merged")
    assert f"{graded / student / '.grading.json'}: missing" in error and "--resume" in error


@pytest.mark.parametrize("spoil", ["no folder", "no record", "broken record", "not a shard",
                                   "a path for a student", "shard 0 of 0"])
def test_a_folder_that_is_not_a_finished_shard_is_named(spoil, runs, shards, tmp_path, capsys):
    if spoil == "no folder":
        shutil.rmtree(shards[2])
        expected = f"{shards[2]}: no such folder"
    elif spoil == "no record":
        (shards[2] / ".batch.json").unlink()
        expected = f"{shards[2] / '.batch.json'}: missing"
    elif spoil == "broken record":
        (shards[2] / ".batch.json").write_text('{"shard": ')
        expected = f"{shards[2] / '.batch.json'}: unreadable"
    elif spoil == "a path for a student":
        edit_record(shards[2], students=["../shard-1/x"])
        expected = f"{shards[2] / '.batch.json'}: no list of student ids"
    elif spoil == "shard 0 of 0":
        edit_record(shards[2], index=0, count=0)
        expected = "graded without --shard"
    else:
        shards[2] = runs / "single"
        expected = "graded without --shard"
    assert expected in refused(capsys, shards, tmp_path / "merged")


def test_exports_in_another_language_than_the_shards_feedback_are_refused(shards, tmp_path,
                                                                         capsys):
    error = refused(capsys, shards, tmp_path / "merged", "--lang", "en")
    assert "--lang en: the shards wrote their feedback in de" in error


def test_merging_into_a_shard_folder_is_refused(shards, capsys):
    before = files_below(shards[0])
    assert main(["merge", *map(str, shards), "--out", str(shards[0]),
                 "--tasks", str(ROOT / "tasks")]) == 2
    assert "merge into a folder of its own" in capsys.readouterr().err
    assert files_below(shards[0]) == before


# -- the examples in docs/examples -----------------------------------------------------------

def parse(command: str):
    words = shlex.split(command)
    assert words[0] == "grader", command
    return build_parser().parse_args(words[1:])


def test_the_github_actions_example_grades_every_shard_and_merges_them():
    workflow = yaml.safe_load((EXAMPLES / "github" / "grade.yml").read_text())
    shard_job, merge_job = workflow["jobs"]["shard"], workflow["jobs"]["merge"]
    values = shard_job["strategy"]["matrix"]["shard"]
    count = len(values)
    assert values == list(range(1, count + 1)) and count > 1
    [grade] = [s["run"] for s in shard_job["steps"] if "grader grade" in s.get("run", "")]
    [upload] = [s for s in shard_job["steps"] if s.get("uses", "").startswith("actions/upload-")]
    artifacts = []
    for value in values:
        args = parse(grade.replace("${{ matrix.shard }}", str(value)))
        assert args.command == "grade" and args.shard == Shard(value, count)
        assert upload["with"]["path"].replace("${{ matrix.shard }}", str(value)) == args.out
        assert upload["with"]["include-hidden-files"] is True   # the state files are hidden
        artifacts.append(upload["with"]["name"].replace("${{ matrix.shard }}", str(value)))
    assert merge_job["needs"] == "shard"
    [download] = [s for s in merge_job["steps"]
                  if s.get("uses", "").startswith("actions/download-")]
    downloaded = [f"{download['with']['path']}/{name}" for name in artifacts
                  if fnmatch.fnmatch(name, download["with"]["pattern"])]
    [merge] = [s["run"] for s in merge_job["steps"] if "grader merge" in s.get("run", "")]
    args = parse(merge)
    assert args.command == "merge"
    assert sorted(p for p in downloaded if any(fnmatch.fnmatch(p, g) for g in args.shards)) == \
           sorted(downloaded) and len(downloaded) == count


def test_the_gitlab_example_grades_every_shard_and_merges_them():
    pipeline = yaml.safe_load((EXAMPLES / "gitlab" / ".gitlab-ci.yml").read_text())
    grade_job, merge_job = pipeline["grade"], pipeline["merge"]
    count = grade_job["parallel"]
    stages = pipeline["stages"]
    assert stages.index(grade_job["stage"]) < stages.index(merge_job["stage"])
    [grade] = [line for line in grade_job["script"] if "grader grade" in line]
    outs = []
    for index in range(1, count + 1):
        line = grade.replace("$CI_NODE_INDEX", str(index)).replace("$CI_NODE_TOTAL", str(count))
        args = parse(line)
        assert args.shard == Shard(index, count)
        assert any(args.out.startswith(path.rstrip("/") + "/")
                   for path in grade_job["artifacts"]["paths"])
        outs.append(args.out)
    [merge] = [line for line in merge_job["script"] if "grader merge" in line]
    args = parse(merge)
    assert all(any(fnmatch.fnmatch(out, g) for g in args.shards) for out in outs)


def test_the_slurm_example_is_a_job_array_of_shards_and_a_dependent_merge():
    script = (EXAMPLES / "slurm" / "grade-shards.sbatch").read_text()
    [array] = re.findall(r"^#SBATCH --array=(\d+)-(\d+)$", script, re.MULTILINE)
    first, last = map(int, array)
    assert first == 1
    # The directives must come before the first command, or sbatch ignores them.
    lines = [line for line in script.splitlines()[1:] if line.strip()]
    first_command = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    assert all(line.startswith("#") for line in lines[:first_command])
    assert max(i for i, line in enumerate(lines) if line.startswith("#SBATCH")) < first_command
    command = next(c for c in script.replace("\\\n", " ").splitlines() if c.startswith("grader"))
    outs = []
    for task in range(first, last + 1):
        line = command.replace("$SLURM_ARRAY_TASK_ID", str(task)) \
                      .replace("$SLURM_CPUS_PER_TASK", "4")
        args = parse(line)
        assert args.shard == Shard(task, last) and args.jobs == 4
        outs.append(args.out)
    merge_script = (EXAMPLES / "slurm" / "merge.sbatch").read_text()
    args = parse(next(c for c in merge_script.splitlines() if c.startswith("grader")))
    assert args.command == "merge" and sorted(args.shards) == sorted(outs)
    submit = (EXAMPLES / "slurm" / "submit.sh").read_text()
    assert "sbatch --parsable grade-shards.sbatch" in submit
    assert re.search(r"sbatch --dependency=\"?afterok:\$\{?array", submit)
    assert "merge.sbatch" in submit


def test_the_gitlab_example_runs_here(tmp_path):
    """Its commands, as its jobs would run them, on two of the bundled students: the shards
    one after another, then the merge, as a shell expands them."""
    pipeline = yaml.safe_load((EXAMPLES / "gitlab" / ".gitlab-ci.yml").read_text())
    shutil.copytree(ROOT / "tasks", tmp_path / "tasks")
    for student in ("korrekt", "syntaxfehler"):
        shutil.copytree(ROOT / "submissions" / student, tmp_path / "submissions" / student)
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    count = pipeline["grade"]["parallel"]
    for index in range(1, count + 1):
        for line in pipeline["grade"]["script"]:
            subprocess.run(["bash", "-c", line + " --allow-weak-sandbox"], cwd=tmp_path,
                           check=True, capture_output=True,
                           env={**os.environ, "PATH": path, "CI_NODE_INDEX": str(index),
                                "CI_NODE_TOTAL": str(count)})
    for line in pipeline["merge"]["script"]:
        subprocess.run(["bash", "-c", line], cwd=tmp_path, check=True, capture_output=True,
                       env={**os.environ, "PATH": path})
    gradebook = (tmp_path / "reports" / "gradebook.csv").read_text().splitlines()
    assert [row.split(",")[0] for row in gradebook[1:]] == ["korrekt", "syntaxfehler"]
