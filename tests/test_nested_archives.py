"""Archives inside archives: a correct submission packed twice is graded in full; nesting too
deep, a bomb one level down, and archives that only together pass the limits are refused with
the reason, the submission listed for a person with an empty grade in every export (never a
0), and the batch goes on.  The archives are tests/data/archives/nested/ (README.md there)."""

import csv
import html
import io
import json
import tracemalloc

import pytest

from grader.cli import main
from grader.grading import SubmissionResult
from grader.lms.ilias import ilias_csv
from grader.lms.moodle import moodle_csv
from grader.report.grades import points_text
from grader.report.messages import Catalogue
from grader.lms.handback import fill_worksheet
from grader.report.writers import gradebook_csv
from grader.submissions.archives import unpack
from grader.submissions.finding import find
from grader.submissions.limits import MAX_ENTRIES, MAX_NESTING, UnpackStats
from grader.submissions.staging import _arrange, stage

from conftest import DATA, ROOT

NESTED = DATA / "archives" / "nested"
WORKSHEET = DATA / "archives" / "nested-worksheet.csv"
MODULES = ("evaluation", "minimax")
CORRECT = {"Max Mustermann_123456_assignsubmission_file_", "anna.zip"}
# Each hostile submission and what its problem must say.
REFUSED = {
    "Bernd Bombe_200001_assignsubmission_file_":
        "abgabe.tar.gz > bombe.zip: the archive unpacks to more than 20 MiB in all",
    "Karla Kette_200002_assignsubmission_file_":
        f"kette.zip > ebene2.zip > ebene3.zip > ebene4.zip: archives inside archives more "
        f"than {MAX_NESTING} deep are not unpacked; hand in one archive that holds your .py "
        f"files",
    "Sven Selbst_200003_assignsubmission_file_":
        "selbst.zip > selbst.zip > selbst.zip > selbst.zip: archives inside archives more than",
    "Viola Viele_200004_assignsubmission_file_":
        f"viele.zip > viele2.zip > viele3.zip: the archive holds more than {MAX_ENTRIES} "
        f"members in all, with the archives inside it",
    "Simon Summe_200005_assignsubmission_file_":
        "summe.zip > summe2.zip > summe3.zip: the archive unpacks to more than 20 MiB in all",
}


@pytest.fixture(scope="module")
def submissions():
    return {submission.display: submission for submission in find(NESTED)}


def test_the_fixtures_are_the_ones_the_builder_makes():
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_nested",
                                                  DATA / "archives" / "make_nested.py")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    built = builder.build()
    on_disk = {str(path.relative_to(NESTED)): path.read_bytes()
               for path in NESTED.rglob("*") if path.is_file()}
    assert sorted(on_disk) == sorted(built)
    # compared by what they hold, not byte for byte: zipfile's bytes differ between Python
    # patch releases (3.11.2's streamed zip64 member is 4 bytes longer than 3.11.7's)
    stale = [name for name, data in built.items()
             if contents(name, on_disk[name]) != contents(name, data)]
    assert stale == [], "rebuild with python tests/data/archives/make_nested.py"


def contents(name: str, data: bytes):
    """What an archive holds, down through the archives inside it: each member's name, size
    and CRC-32 (from the zip's directory, so a bomb is not unpacked to be compared), or for an
    archive member what it holds; a file that is no archive, its bytes."""
    import gzip
    import tarfile
    import zipfile
    import zlib
    if name.endswith(".zip"):
        with zipfile.ZipFile(io.BytesIO(data)) as bundle:
            return [(info.filename, info.file_size,
                     contents(info.filename, bundle.read(info)) if info.filename.endswith(
                         (".zip", ".tar.gz", ".tgz")) else info.CRC)
                    for info in bundle.infolist()]
    if name.endswith((".tar.gz", ".tgz")):
        with tarfile.open(fileobj=io.BytesIO(gzip.decompress(data))) as bundle:
            return [(member.name, member.size, member.mtime, member.mode,
                     contents(member.name, bundle.extractfile(member).read())
                     if member.name.endswith((".zip", ".tar.gz", ".tgz"))
                     else zlib.crc32(bundle.extractfile(member).read()))
                    for member in bundle.getmembers()]
    return data


@pytest.mark.parametrize("display", sorted(CORRECT))
def test_a_tar_gz_inside_a_zip_is_unpacked_and_staged_whole(submissions, tmp_path, display):
    staged = stage(submissions[display], tmp_path / "staged", MODULES)
    assert staged.problem is None
    for name in ("minimax.py", "evaluation.py"):
        assert (staged.folder / name).read_bytes() == \
            (ROOT / "submissions" / "korrekt" / name).read_bytes()
    notes = [(note.key, note.facts) for note in staged.notes]
    if display == "anna.zip":
        assert notes == [("inner-archive", {"archive": "code.tar.gz", "inside": "anna.zip"})]
    else:
        assert notes == [("inner-archive", {"archive": "abgabe.zip"}),
                         ("inner-archive", {"archive": "abgabe.tar.gz",
                                            "inside": "abgabe.zip"})]


@pytest.mark.parametrize("display", sorted(REFUSED))
def test_hostile_nested_archives_are_refused_with_the_reason(submissions, tmp_path, display):
    tracemalloc.start()
    try:
        staged = stage(submissions[display], tmp_path / "staged", MODULES)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert staged.problem is not None and staged.problem.startswith(REFUSED[display])
    assert list(staged.folder.iterdir()) == []      # nothing half-unpacked is graded
    assert peak < 16 << 20                          # the 512 MiB bomb is never inflated
    assert not any(tmp_path.glob(".unpack-*"))      # scratch folders are gone


def test_the_bomb_is_refused_from_its_header_without_inflating_a_byte(submissions, tmp_path):
    """Staged as the worker does, with the budget passed down: the inner zip's declared size
    is refused before its member is opened."""
    folder = tmp_path / "copy"
    budget = UnpackStats()
    root = unpack(NESTED / "Bernd Bombe_200001_assignsubmission_file_" / "abgabe.tar.gz",
                  folder / "abgabe", budget)
    assert (root / "bombe.zip").stat().st_size < 1 << 20
    before = budget.unpacked
    with pytest.raises(Exception, match="more than 20 MiB in all"):
        _arrange(root, MODULES, budget, ("abgabe.tar.gz",))
    assert budget.archives == 2 and budget.files == 2
    assert budget.unpacked - before == 512 << 20     # declared, never written
    assert not (root / "bombe" / "minimax.py").exists()


def test_limits_that_each_archive_keeps_are_counted_over_all_levels(submissions, tmp_path):
    """Every level of viele.zip and summe.zip is within the limits of one archive: alone,
    the innermost unpacks without a word."""
    innermost = tmp_path / "levels"
    budget = UnpackStats()
    folder = unpack(NESTED / "Simon Summe_200005_assignsubmission_file_" / "summe.zip",
                    innermost / "1", budget)
    assert budget.unpacked < 20 << 20
    for level in (2, 3):
        alone = UnpackStats()
        folder = unpack(folder / f"summe{level}.zip", innermost / str(level), alone)
        assert alone.unpacked < 20 << 20
        budget.unpacked += alone.unpacked
    assert budget.unpacked > 20 << 20 and (folder / "minimax.py").is_file()


def test_several_archives_where_the_code_is_missing_need_a_person(tmp_path):
    into = tmp_path / "copy"
    into.mkdir()
    for name in ("teil1.zip", "teil2.tar.gz"):
        (into / name).write_bytes((NESTED / "anna.zip").read_bytes())
    with pytest.raises(Exception, match="the archives teil1.zip, teil2.tar.gz were not "
                                        "unpacked"):
        _arrange(into, MODULES)


def result(display, score, problem=None, detail=None):
    from dataclasses import replace

    from grader.checks.verdict import failed
    from grader.tasks import load_course
    check = load_course(ROOT / "tasks").tasks[0].checks[0]
    verdict = replace(failed(check, "call.timeout"), score=score)
    return SubmissionResult(display.replace(" ", "_"), [verdict], display=display,
                            problem=problem, problem_detail=detail)


def test_a_submission_without_a_grade_gets_empty_grade_cells_in_every_export(course):
    refused = result("Karla Kette_200002_assignsubmission_file_", 0, "submission.unusable",
                     "kette.zip > ebene2.zip: too deep")
    graded = result("Max Mustermann_123456_assignsubmission_file_", 0)
    catalogue = Catalogue("en")
    rows = lambda text, delimiter=",": {row[0]: row for row in csv.reader(
        io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter)}
    gradebook = rows(gradebook_csv([refused, graded], course))
    maximum = points_text(refused.max_score)
    assert gradebook[refused.student][1:] == ["", maximum, *[""] * len(course.tasks)]
    assert gradebook[graded.student][1] == "0"
    moodle = rows(moodle_csv([refused, graded], course, catalogue))
    assert moodle[refused.student][1:-1] == ["", *[""] * len(course.tasks)]
    assert moodle[refused.student][-1] == ("The submission cannot be graded as handed in: "
                                           "kette.zip > ebene2.zip: too deep")
    assert moodle[graded.student][1] == "0"
    ilias = rows(ilias_csv([refused, graded], course, catalogue), ";")
    assert ilias[refused.student][1:] == ["", maximum, *[""] * len(course.tasks)]
    assert ilias[graded.student][1] == "0"
    filled, problems = fill_worksheet(WORKSHEET.read_text(), [refused, graded], str)
    sheet = rows(filled)
    assert sheet["Participant 200002"][4] == "" and sheet["Participant 123456"][4] == "0.00"
    assert problems[1] == ("Participant 200002 (Karla Kette): Karla Kette_200002_assignsubmission"
                           "_file_ could not be graded as handed in (kette.zip > ebene2.zip: "
                           "too deep); grade left empty, grade it by hand.")


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """``grader grade`` of the nested archives against the bundled course, in the real
    sandbox, with the Moodle worksheet."""
    out = tmp_path_factory.mktemp("nested") / "out"
    status = main(["grade", "--tasks", str(ROOT / "tasks"), "--submissions", str(NESTED),
                   "--out", str(out), "--lang", "en", "--jobs", "2",
                   "--moodle-worksheet", str(WORKSHEET)])
    results = {json.loads((folder / "results.json").read_text())["extra_data"]["display_name"]:
               json.loads((folder / "results.json").read_text())
               for folder in out.iterdir() if (folder / "results.json").is_file()}
    return {"status": status, "out": out, "results": results}


def test_a_correct_submission_in_a_tar_gz_in_a_zip_gets_full_marks(batch):
    assert batch["status"] == 0
    assert batch["results"][next(iter(CORRECT))]["extra_data"]["isolation"] != "process"
    for display in CORRECT:
        result = batch["results"][display]
        assert result["score"] == result["extra_data"]["max_score"] == 60, display
    sheet = {row[0]: row for row in csv.reader(io.StringIO(
        (batch["out"] / "moodle-worksheet.csv").read_text()))}
    assert sheet["Participant 123456"][4] == "60.00"     # as the worksheet's 60.00 shows it
    assert sheet["Participant 123456"][9] == "60/60 points"


def test_refused_nested_archives_are_listed_for_a_person_with_an_empty_grade(batch):
    out, results = batch["out"], batch["results"]
    students = {}
    for display, reason in REFUSED.items():
        result = results[display]
        assert result["extra_data"]["needs_person"], display
        # Gradescope's output is Markdown: what a submission named is escaped there
        assert reason in html.unescape(result["output"]), display
        students[display] = result["extra_data"]["student"]
    gradebook = {row[0]: row for row in csv.reader((out / "gradebook.csv").open())}
    moodle = {row[0]: row for row in csv.reader((out / "moodle.csv").open())}
    ilias = {row[0]: row for row in csv.reader(
        io.StringIO((out / "ilias.csv").read_text().lstrip("\ufeff")), delimiter=";")}
    sheet = {row[0]: row for row in csv.reader((out / "moodle-worksheet.csv").open())}
    for display, student in students.items():
        assert gradebook[student][1] == "" and gradebook[student][2] == "60", display
        assert moodle[student][1] == "" and REFUSED[display] in moodle[student][-1], display
        assert ilias[student][1] == "", display
        number = display.split("_")[1]
        assert sheet[f"Participant {number}"][4] == "", display
        assert REFUSED[display] in sheet[f"Participant {number}"][9], display
    summary = (out / "summary.html").read_text()
    attention = summary[summary.index('id="attention"'):]
    for display, student in students.items():
        assert f">{student}</a>" in attention
        assert REFUSED[display].replace(">", "&gt;") in attention
    assert "— / 60" in attention
