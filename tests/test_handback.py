"""Every participant's grade lands right in Moodle, or is listed for a person: the grading
worksheet's maximum grade, Moodle 4.1's folder per submission plugin (files and online text),
team downloads, participants without a folder, and the download as Moodle hands it over (its
zip, its flat layout) and as ILIAS does (the download's top).  Fixtures: tests/data/lms/
(made by make_moodle41.py in the layouts of Moodle's mod/assign/classes/downloader.php)."""

import csv
import html
import io
import json
import re
import shutil

import pytest

from grader.cli import main

from conftest import DATA
from test_moodle import moodle_imports

LMS = DATA / "lms"
FOLDERS = LMS / "moodle41"
WORKSHEET = LMS / "moodle41-worksheet.csv"
GROUPS = LMS / "moodle41-groups"
GROUP_WORKSHEET = LMS / "moodle41-groups-worksheet.csv"
ZIP = LMS / "KI-WS26-Blatt 3-1234.zip"


def worksheet_rows(path):
    return {row[0]: row for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8")))}


def attention(out):
    """The text of summary.html's "Needs a person" section (up to the harmless notes), as
    a reader sees it."""
    page = (out / "summary.html").read_text(encoding="utf-8")
    end = page.index('id="remarks"') if 'id="remarks"' in page else page.index('class="grid"')
    section = page[page.index('id="attention"'):end]
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", section).split()))


def grade(source, out, *options):
    return main(["grade", "--submissions", str(source), "--out", str(out), "--lang", "en",
                 "--jobs", "2", *options])


@pytest.fixture(scope="module")
def individual_with_terminal(tmp_path_factory):
    """The Moodle 4.1 download graded with its worksheet (Maximum grade 10.00): the exit
    status, the reports folder and what the command wrote to the terminal (stderr)."""
    import contextlib
    out = tmp_path_factory.mktemp("moodle41") / "out"
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        status = grade(FOLDERS, out, "--moodle-worksheet", str(WORKSHEET))
    return status, out, said.getvalue()


@pytest.fixture(scope="module")
def individual(individual_with_terminal):
    status, out, _ = individual_with_terminal
    return status, out


def test_a_worksheet_out_of_ten_gets_nine_for_54_of_60_and_the_comment_says_the_points(
        individual):
    status, out = individual
    assert status == 0
    rows = worksheet_rows(out / "moodle-worksheet.csv")
    header = rows["Identifier"]
    grade_at, comment_at = header.index("Grade"), header.index("Feedback comments")
    assert rows["Participant 100001"][grade_at] == "9.00"         # Anna: 54/60
    assert rows["Participant 100001"][comment_at] == "54/60 points"
    assert rows["Participant 100002"][grade_at] == "10.00"        # Ben: 60/60
    assert rows["Participant 100002"][comment_at] == "60/60 points"
    # the Maximum grade and every other cell as downloaded
    original = worksheet_rows(WORKSHEET)
    for number in ("Participant 100001", "Participant 100004"):
        assert [c for i, c in enumerate(rows[number]) if i not in (grade_at, comment_at)] == \
            [c for i, c in enumerate(original[number]) if i not in (grade_at, comment_at)]


def test_a_file_and_online_text_participant_is_graded_once_and_her_row_filled(individual):
    status, out = individual
    with open(out / "gradebook.csv", encoding="utf-8") as handle:
        graded = {row["student"]: row["score"] for row in csv.DictReader(handle)}
    assert graded == {"Anna Schmidt_100001_assignsubmission_file": "54",
                      "Ben Braun_100002_assignsubmission_file": "60",
                      "Cem Celik_100003_assignsubmission_onlinetext": ""}
    anna = json.loads((out / "Anna Schmidt_100001_assignsubmission_file" / "results.json")
                      .read_text())
    assert [n["key"] for n in anna["extra_data"]["notes"]] == ["online-text"]
    assert "Ich habe die Schnittbedingung strikt gewählt" in \
        anna["extra_data"]["notes"][0]["text"], "the online text is kept for the reader"
    assert not anna["extra_data"]["needs_person"]
    # her feedback page reaches her, once
    stored = moodle_imports(out / "moodle-feedback.zip", {100001, 100002, 100003, 100004})
    assert sorted(stored) == [100001, 100002, 100003]
    assert stored[100001] == {"/feedback.html": (
        out / "Anna Schmidt_100001_assignsubmission_file" / "feedback.html").read_bytes()}


def test_participants_with_no_gradable_folder_are_listed_for_a_person(individual):
    status, out = individual
    listed = attention(out)
    assert "Participant 100003 (Cem Celik): Cem Celik_100003_assignsubmission_onlinetext " \
           "could not be graded as handed in (only an online text was handed in" in listed
    assert "Participant 100004 (Dora Dahl): no folder in the download (Moodle says: No " \
           "submission); grade left empty" in listed
    assert "Anna Schmidt" not in listed, "a harmless note is kept apart"
    page = (out / "summary.html").read_text(encoding="utf-8")
    assert page.index('id="remarks"') > page.index('id="attention"')
    rows = worksheet_rows(out / "moodle-worksheet.csv")
    assert rows["Participant 100003"][4] == rows["Participant 100004"][4] == ""


def test_the_terminal_ends_with_everyone_who_needs_a_person(individual_with_terminal):
    status, _, said = individual_with_terminal
    assert status == 0
    err = said.splitlines()
    start = next(i for i, line in enumerate(err) if line.startswith("Needs a person"))
    listed = err[start + 1:-1]
    assert err[-1].startswith("Graded 3 submission(s); average 57.0/60; 1 submission(s) and "
                              "2 hand-back item(s) need a person")
    assert any(line.startswith("  Participant 100004 (Dora Dahl): no folder") for line in listed)
    assert any(line.startswith("  Participant 100003 (Cem Celik): ") for line in listed)
    assert any(line.startswith("WARNING: --moodle-worksheet: grades are written out of 10.00, "
                               "not 60 points: 54/60 points become 9.00") for line in err)


@pytest.fixture(scope="module")
def team(tmp_path_factory):
    out = tmp_path_factory.mktemp("groups") / "out"
    return grade(GROUPS, out, "--moodle-worksheet", str(GROUP_WORKSHEET)), out


def test_a_group_download_gives_every_member_the_team_s_grade_and_page(team):
    status, out = team
    assert status == 0
    rows = worksheet_rows(out / "moodle-worksheet.csv")
    # Team Alpha (60/60) and Team Beta (54/60), out of 20.00
    assert [rows[f"Participant {n}"][5] for n in range(100011, 100016)] == \
        ["20.00", "20.00", "18.00", "18.00", ""]
    assert rows["Participant 100013"][-1] == "54/60 points"
    pages = {name: (out / name / "feedback.html").read_bytes()
             for name in ("Team Alpha_7_assignsubmission_file",
                          "Team Beta_100011_assignsubmission_file")}
    stored = moodle_imports(out / "moodle-feedback.zip", set(range(100011, 100016)))
    # Team Beta's folder carries 100011, Emil's number: Emil gets his own team's page
    assert stored == {100011: {"/feedback.html": pages["Team Alpha_7_assignsubmission_file"]},
                      100012: {"/feedback.html": pages["Team Alpha_7_assignsubmission_file"]},
                      100013: {"/feedback.html": pages["Team Beta_100011_assignsubmission_file"]},
                      100014: {"/feedback.html": pages["Team Beta_100011_assignsubmission_file"]}}
    assert "Group Team Gamma (Participant 100015 (Ida Iser)): no folder in the download" \
        in attention(out)


def test_a_team_whose_group_no_one_is_in_is_listed_whole(tmp_path):
    sheet = tmp_path / "worksheet.csv"
    sheet.write_text(GROUP_WORKSHEET.read_text().replace('"Team Beta"', '"Team Delta"'))
    assert grade(GROUPS, tmp_path / "out", "--moodle-worksheet", str(sheet)) == 0
    listed = attention(tmp_path / "out")
    assert "Team Beta_100011_assignsubmission_file: a group's folder, but no participant of " \
           "the worksheet is in the group Team Beta" in listed
    assert "Group Team Delta (Participant 100013 (Gero Gast), Participant 100014 (Hanna " \
           "Hahn)): no folder in the download" in listed
    rows = worksheet_rows(tmp_path / "out" / "moodle-worksheet.csv")
    assert rows["Participant 100011"][5] == "20.00" and rows["Participant 100013"][5] == ""


def test_a_team_roster_gives_every_member_a_gradebook_row(tmp_path):
    roster = tmp_path / "participants.csv"
    roster.write_text("First name,Last name,Username,Email address,Roles,Groups\n"
                      "Emil,Ernst,emil,emil@example.org,Student,Team Alpha\n"
                      "Fiona,Fink,fiona,fiona@example.org,Student,\"Team Alpha, Tutorium 2\"\n"
                      "Gero,Gast,gero,gero@example.org,Student,Team Beta\n"
                      "Hanna,Hahn,hanna,hanna@example.org,Student,Team Beta\n"
                      "Tina,Tutor,tina,tina@example.org,Teacher,Tutorium 2\n"
                      "Ida,Iser,ida,ida@example.org,Student,Team Gamma\n")
    out = tmp_path / "out"
    assert grade(GROUPS, out, "--roster", str(roster), "--moodle-scale", "20") == 0
    with open(out / "moodle.csv", encoding="utf-8") as handle:
        rows = {row["Username"]: (row["grade"], row["feedback"])
                for row in csv.DictReader(handle)}
    assert rows == {"emil": ("20.00", "60/60 points"), "fiona": ("20.00", "60/60 points"),
                    "gero": ("18.00", "54/60 points"), "hanna": ("18.00", "54/60 points")}
    listed = attention(out)
    assert "Ida Iser: in the roster participants.csv, but no folder of the download" in listed
    assert "Tina Tutor" not in listed, "a teacher is not missing a submission"


@pytest.mark.parametrize("source", [ZIP, LMS / "moodle41-flat"], ids=["zip", "flat"])
def test_moodle_s_zip_and_its_flat_download_are_graded_as_the_folders(individual, tmp_path,
                                                                      source, capsys):
    out = tmp_path / "out"
    assert grade(source, out, "--moodle-worksheet", str(WORKSHEET)) == 0
    _, folders = individual
    assert (out / "gradebook.csv").read_text() == (folders / "gradebook.csv").read_text()
    assert (out / "moodle-worksheet.csv").read_text() == \
        (folders / "moodle-worksheet.csv").read_text()
    err = capsys.readouterr().err
    said = ("KI-WS26-Blatt 3-1234.zip: unpacked 6 file(s) of the download"
            if source == ZIP else "Moodle's download without folders: 6 file(s) regrouped into "
            "4 folder(s), one per participant and plugin")
    assert said in err
    assert source.exists() and (LMS / "moodle41-flat").is_dir(), "the download is left alone"


def test_ilias_s_download_top_is_graded_as_its_students(tmp_path, capsys):
    out = tmp_path / "out"
    assert grade(LMS / "ilias-download", out) == 0
    assert "ILIAS's download: grading the students' folders in Blatt 3/Abgaben" \
        in capsys.readouterr().err
    with open(out / "gradebook.csv", encoding="utf-8") as handle:
        assert sorted(row["student"] for row in csv.DictReader(handle)) == [
            "Leer_Lena_lleer_6174", "Mueller_Joerg_j_mueller_6173",
            "Musterfrau_Erika_emuster_6172", "Mustermann_Max_mmuster_6171"]
    assert (out / "ilias-status.csv").is_file()


@pytest.mark.parametrize("edit, options, said", [
    (None, ["--moodle-scale", "points"], "--moodle-scale points would write up to 60 points "
     "into a grade out of 10.00, and Moodle drops every grade above the maximum"),
    (lambda text: text.replace('"Maximum grade"', '"Scale"'), [],
     "the assignment is graded on a scale"),
    (lambda text: text.replace(",10.00,", ",0.00,"), [], "the maximum grade is 0.00"),
])
def test_points_the_lms_cannot_take_are_refused_before_grading(tmp_path, capsys, edit,
                                                               options, said):
    sheet = tmp_path / "worksheet.csv"
    sheet.write_text(edit(WORKSHEET.read_text()) if edit else WORKSHEET.read_text())
    out = tmp_path / "out"
    assert grade(FOLDERS, out, "--moodle-worksheet", str(sheet), *options) == 2
    assert said in capsys.readouterr().err
    assert not out.exists()


def test_a_worksheet_as_roster_gives_moodle_csv_its_scale(tmp_path):
    out = tmp_path / "out"
    assert grade(FOLDERS, out, "--roster", str(WORKSHEET)) == 0
    with open(out / "moodle.csv", encoding="utf-8") as handle:
        rows = {row["Email address"]: row["grade"] for row in csv.DictReader(handle)}
    assert rows == {"anna@example.org": "9.00", "ben@example.org": "10.00",
                    "cem@example.org": ""}


def test_without_a_worksheet_a_team_download_s_numbers_are_not_trusted(tmp_path, capsys):
    download = tmp_path / "download"
    shutil.copytree(GROUPS, download)
    # the default team's folder has no number: the download is a team assignment's
    shutil.copytree(GROUPS / "Team Alpha_7_assignsubmission_file",
                    download / "Default group_assignsubmission_file")
    out = tmp_path / "out"
    assert grade(download, out) == 0
    stored = moodle_imports(out / "moodle-feedback.zip", set(range(1, 200000)))
    assert stored == {}, "no page goes to a group's id"
    assert "Team Beta_100011_assignsubmission_file: a team's folder, whose members only the " \
           "grading worksheet names" in capsys.readouterr().err


def test_a_class_folder_is_never_taken_for_an_ilias_download_top(tmp_path):
    from grader.submissions.downloads import prepare
    root = tmp_path / "submissions"
    shutil.copytree(FOLDERS.parent / "moodle-download" / "korrekt", root / "korrekt")
    # a student's own folder that happens to hold something named like ILIAS's
    (root / "anna" / "daten" / "Muster_Max_mm_1").mkdir(parents=True)
    (root / "anna" / "minimax.py").write_text("")
    prepared = prepare(root)
    assert prepared.root == root and prepared.said == [] and prepared.scratch is None


def test_an_ilias_download_of_several_assignments_is_refused_with_their_names(tmp_path,
                                                                             capsys):
    download = tmp_path / "ilias"
    for sheet in ("Blatt 3", "Blatt 4"):
        shutil.copytree(LMS / "ilias-download" / "Blatt 3", download / sheet)
    assert grade(download, tmp_path / "out") == 2
    assert "holds the submissions of several assignments (Blatt 3/Abgaben, Blatt 4/Abgaben)" \
        in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
