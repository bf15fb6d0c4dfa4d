"""Moodle round trips: the grading worksheet filled in (headers kept), the feedback zip read
back by the rules of Moodle's importer, and the roster that names Moodle users in moodle.csv."""

import csv
import io
import json
import re
import shutil
import zipfile

import pytest

from grader.cli import main
from grader.grading import SubmissionResult
from grader.report.messages import Catalogue
from grader.lms.moodle import WorksheetError, participant
from grader.lms.handback import feedback_zip, fill_worksheet
from grader.lms.roster import RosterError, read_roster

from conftest import ROOT
from test_submissions import moodle_download

ENGLISH = (
    '"Identifier","Full name","Email address","Status","Grade","Maximum Grade",'
    '"Grade can be changed","Last modified (submission)","Last modified (grade)",'
    '"Feedback comments"\n'
    '"Participant 123456","Max Mustermann",max@example.org,"Submitted for grading",,60.00,Yes,'
    '"Monday, 23 November 2026, 9:12 AM",-,\n'
    '"Participant 654321","Erika Musterfrau",erika@example.org,"Submitted for grading",,60.00,'
    'Yes,"Monday, 23 November 2026, 9:40 AM",-,\n'
    '"Participant 111111","Zwei Ordner",zwei@example.org,"Submitted for grading",,60.00,Yes,'
    '"Monday, 23 November 2026, 10:02 AM",-,\n'
    '"Participant 999999","Ohne Abgabe",ohne@example.org,"No submission",,60.00,Yes,-,-,\n')
GERMAN = ('\ufeff"ID","Vollständiger Name","E-Mail-Adresse","Status","Bewertung",'
          '"Bestwertung","Zuletzt geändert (Bewertung)","Feedback als Kommentar"\n'
          '"Teilnehmer/in 123456","Max Mustermann",max@example.org,"Zur Bewertung abgegeben",'
          ',"60,00",-,\n')


def rows_of(text):
    return {row[0]: row for row in csv.reader(io.StringIO(text))}


def result(display, score):
    """A result of the bundled course (60 points) with ``score`` points."""
    from dataclasses import replace

    from grader.checks.verdict import failed
    from grader.tasks import load_course
    checks = [check for task in load_course(ROOT / "tasks").tasks for check in task.checks]
    verdicts = [replace(failed(check, "call.timeout"), score=0.0)
                for check in checks]
    verdicts[0] = replace(verdicts[0], score=score)
    return SubmissionResult(display.replace(" ", "_"), verdicts, display=display)


def test_participant_numbers_come_from_the_download_s_folder_names():
    assert participant("Max Mustermann_123456_assignsubmission_file_") == "123456"
    assert participant("Anna_B_12_assignsubmission_onlinetext_") == "12"
    assert participant("korrekt") is None and participant("x_12_other_") is None


@pytest.mark.parametrize("text, grade, comment, written", [(ENGLISH, 4, 9, "2.50"),
                                                           (GERMAN, 4, 7, "2,50")])
def test_grades_and_comments_go_into_the_instructor_s_own_columns(text, grade, comment,
                                                                  written):
    results = [result("Max Mustermann_123456_assignsubmission_file_", 2.5),
               result("Unbekannt_424242_assignsubmission_file_", 1),
               result("korrekt", 3)]
    filled, problems = fill_worksheet(text, results, lambda r: f"{r.score:g} points")
    rows = list(csv.reader(io.StringIO(filled)))
    assert rows[0] == next(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    # on the worksheet's own scale (60,00 with two decimals, in its decimal separator)
    assert rows[1][grade] == written and rows[1][comment] == "2.5 points"
    assert rows[1][:grade] == next(csv.reader(io.StringIO(text.lstrip("\ufeff").split("\n")[1])))[:grade]
    assert any("424242 is not in the worksheet" in p for p in problems)
    assert any(p.startswith("korrekt: not named like") for p in problems)
    others = [p for p in problems if "424242" not in p and not p.startswith("korrekt")]
    assert all("no folder in the download" in p for p in others), "every other participant"


def test_a_file_that_is_not_a_worksheet_is_refused_with_what_to_do():
    with pytest.raises(WorksheetError, match="no grade column"):
        fill_worksheet("name,points\nAnna,3\n", [], str)
    with pytest.raises(WorksheetError, match="no participants"):
        fill_worksheet('"Identifier","Grade"\n', [], str)
    with pytest.raises(WorksheetError, match="not a CSV file"):
        fill_worksheet('"Identifier","Grade"\n"Participant 1","' + "x" * 200_000 + '"\n',
                       [], str)


def test_two_folders_of_one_participant_leave_the_grade_to_a_person():
    # the folder of Moodle 4.1 and the one of an older download, side by side
    results = [result("Max Mustermann_1_assignsubmission_file_", 60),
               result("Max Mustermann_1_assignsubmission_file", 0)]
    filled, problems = fill_worksheet(ENGLISH.replace("123456", "1"), results, str)
    assert rows_of(filled)["Participant 1"][4] == ""
    assert [p for p in problems if "several folders" in p] == [
        "Participant 1 (Max Mustermann): several folders (Max Mustermann_1_assignsubmission_file,"
        " Max Mustermann_1_assignsubmission_file_); grade left empty, grade it by hand."]


def test_a_folder_whose_number_is_someone_else_s_gets_no_one_s_grade():
    # A team's folder carries its group's id: here Erika's participant number.
    results = [result("Team Beta_654321_assignsubmission_file", 54)]
    filled, problems = fill_worksheet(ENGLISH, results, str)
    assert rows_of(filled)["Participant 654321"][4] == ""
    assert problems[0].startswith("Team Beta_654321_assignsubmission_file: the worksheet's "
                                  "participant 654321 is Erika Musterfrau, not the person "
                                  "this folder names")


@pytest.mark.parametrize("maximum, grade", [("10.00", "9.00"), ("20.00", "18.00"),
                                            ("7.00", "6.30"), ("100", "90"), ("3.0", "2.7")])
def test_a_grade_is_written_on_the_worksheet_s_maximum_as_moodle_rounds(maximum, grade):
    # 54 of 60 points; Moodle shows a grade with the decimals its maximum is shown with
    filled, _ = fill_worksheet(ENGLISH.replace("60.00", maximum),
                               [result("Max Mustermann_123456_assignsubmission_file", 54)],
                               lambda r: "x")
    assert rows_of(filled)["Participant 123456"][4] == grade


def test_rounding_is_half_away_from_zero_as_php_s_number_format():
    from decimal import Decimal

    from grader.lms.moodle import on_scale
    assert on_scale(1, 8, Decimal(1), 3) == Decimal("0.125")
    assert on_scale(1, 8, Decimal(1), 2) == Decimal("0.13"), "not banker's rounding (0.12)"
    assert on_scale(1, 3, Decimal(10), 2) == Decimal("3.33")
    assert on_scale(2, 3, Decimal(10), 0) == Decimal("7")


def test_a_moodle_download_is_graded_into_its_worksheet(tmp_path, capsys):
    download = moodle_download(tmp_path / "download")
    sheet = tmp_path / "worksheet.csv"
    sheet.write_text(ENGLISH)
    out = tmp_path / "out"
    assert main(["grade", "--submissions", str(download), "--out", str(out), "--lang", "en",
                 "--allow-weak-sandbox", "--moodle-worksheet", str(sheet)]) == 0
    rows = rows_of((out / "moodle-worksheet.csv").read_text())
    assert rows["Participant 123456"][4] == rows["Participant 654321"][4] == "60.00"
    assert rows["Participant 111111"][4] == "0.00"
    assert rows["Participant 123456"][9] == "60/60 points"
    assert rows["Participant 999999"] == rows_of(ENGLISH)["Participant 999999"]
    assert rows["Participant 123456"][8] == "-", "Moodle still guards grades changed there"


def test_an_unusable_worksheet_stops_before_anything_is_graded(tmp_path, capsys):
    sheet = tmp_path / "grades.csv"
    sheet.write_text("name,points\n")
    out = tmp_path / "out"
    assert main(["grade", "--submissions", str(ROOT / "submissions"), "--out", str(out),
                 "--moodle-worksheet", str(sheet)]) == 2
    assert "--moodle-worksheet" in capsys.readouterr().err and not out.exists()


# -- the feedback zip, read back as Moodle reads it -----------------------------------------

LMS = ROOT / "tests" / "data" / "lms"
DOWNLOAD = LMS / "moodle-download"
# The plugins of an assignment with file submissions and file feedback enabled.
PLUGINS = {("assignsubmission", "file"), ("assignsubmission", "comments"),
           ("assignfeedback", "file"), ("assignfeedback", "comments")}


def php_numeric(text):
    """PHP's is_numeric for the strings a folder name holds."""
    return re.fullmatch(r"\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?", text) is not None


def moodle_imports(archive, participants, plugins=PLUGINS):
    """What "Upload multiple feedback files in a zip" stores from ``archive``: participant
    number -> {file name: bytes}.  Follows the rules of
    assignfeedback_file_zip_importer::is_valid_filename_for_import in Moodle's
    mod/assign/feedback/file/importziplib.php: directories and names starting with "." or "~"
    are skipped; the path (below Moodle's /import/) is split at "/", each part at "_" into at
    most five pieces; the first part with at least four pieces, a numeric second piece that is
    a participant of the assignment and a third and fourth piece naming one of its plugins
    gives the user, and the fifth piece with the rest of the path is the file's name."""
    stored = {}
    with zipfile.ZipFile(archive) as zipped:
        for info in zipped.infolist():
            path = "/import/" + info.filename
            if info.is_dir() or path.rsplit("/", 1)[1].startswith((".", "~")):
                continue
            parts = path.split("/")
            while parts:
                pieces = parts.pop(0).split("_", 4)
                if len(pieces) < 4 or not php_numeric(pieces[1]):
                    continue
                number = int(float(pieces[1]))
                if number not in participants or (pieces[2], pieces[3]) not in plugins:
                    continue
                name = "/".join([pieces[4] if len(pieces) == 5 else "", *parts])
                stored.setdefault(number, {})[name] = zipped.read(info)
                break
    return stored


def test_the_test_s_importer_refuses_what_moodle_s_refuses(tmp_path):
    archive = tmp_path / "feedback.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("Anna_B_12_assignfeedback_file_/a.html", "name with _: 'B' is no number")
        zipped.writestr("Anna B_13_assignfeedback_file_/b.html", "not a participant")
        zipped.writestr("Anna B_12_assignfeedback_nofile_/c.html", "no such plugin")
        zipped.writestr("Anna B_12_assignfeedback_file_/.d.html", "hidden")
        zipped.writestr("some_path_here/Anna B_12_assignfeedback_file_/sub/e.html", "deeper")
        zipped.writestr("Anna B_12_assignsubmission_file_f.html", "Moodle 3.0's flat layout")
    assert moodle_imports(archive, {12}) == {12: {"/sub/e.html": b"deeper",
                                                  "f.html": b"Moodle 3.0's flat layout"}}


def feedback_result(out, display, score=60):
    graded = result(display, score)
    (out / graded.student).mkdir(parents=True)
    (out / graded.student / "feedback.html").write_text(f"<p>{display}</p>")
    return graded


def test_the_feedback_zip_reaches_each_participant_and_lists_the_rest(tmp_path):
    results = [feedback_result(tmp_path, "Max Mustermann_123456_assignsubmission_file_"),
               feedback_result(tmp_path, "Anna_B_12_assignsubmission_onlinetext_"),
               feedback_result(tmp_path, "korrekt"),
               feedback_result(tmp_path, "Kopie Eins_7_assignsubmission_file_"),
               feedback_result(tmp_path, "Kopie Zwei_7_assignsubmission_file_")]
    data, problems = feedback_zip(results, tmp_path, Catalogue("en"))
    (tmp_path / "moodle-feedback.zip").write_bytes(data)
    stored = moodle_imports(tmp_path / "moodle-feedback.zip", {123456, 12, 7})
    # "Anna_B" as a name would read "B" as the participant: it is written "Anna B".
    assert stored == {123456: {"/feedback.html": b"<p>Max Mustermann_123456_assignsubmission_file_</p>"},
                      12: {"/feedback.html": b"<p>Anna_B_12_assignsubmission_onlinetext_</p>"}}
    assert len(problems) == 3
    assert problems[0].startswith("korrekt: not named like a folder of Moodle's download")
    assert "one participant (7), several folders" in problems[1]
    assert problems[2].startswith("2 page(s) go to the participant number in their folder's "
                                  "name, which nothing checked")


def test_a_moodle_download_gets_its_feedback_zip_and_a_roster_s_usernames(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["grade", "--submissions", str(DOWNLOAD), "--out", str(out), "--lang", "en",
                 "--allow-weak-sandbox", "--roster", str(LMS / "moodle-roster-de.csv")]) == 0
    err = capsys.readouterr().err
    pages = {folder.name: (folder / "feedback.html").read_bytes()
             for folder in out.iterdir() if (folder / "feedback.html").is_file()}
    stored = moodle_imports(out / "moodle-feedback.zip", {123456, 654321, 777777, 888888})
    # 888888's folder names no one of the roster: its number is not trusted
    assert sorted(stored) == [123456, 654321, 777777]
    for number, files in stored.items():
        folder = next(name for name in pages if f"_{number}_" in name)
        assert files == {"/feedback.html": pages[folder]}
    assert "moodle-feedback.zip: korrekt: not named like a folder of Moodle's download" in err
    assert ("moodle-feedback.zip: Nicht Eingeschrieben_888888_assignsubmission_file_: the "
            "roster names no one participant for this folder") in err

    # The roster has no participant numbers: names, and "korrekt" by its username.
    rows = list(csv.reader(io.StringIO((out / "moodle.csv").read_text())))
    assert rows[0][0] == "Username" and rows[0][1] == "grade"
    grades = {row[0]: row[1] for row in rows[1:]}
    scores = {json.loads((out / name / "results.json").read_text())["extra_data"]["display_name"]:
              json.loads((out / name / "results.json").read_text())["score"] for name in pages}
    assert grades == {"mmuster": "60", "emuster": "60", "korrekt": "60",
                      "jmueller": str(int(scores["Jörg Müller_777777_assignsubmission_file_"]))}
    assert ("  Nicht Eingeschrieben_888888_assignsubmission_file_: No one in the roster "
            "moodle-roster-de.csv has the name in this folder's name, so Nicht "
            "Eingeschrieben_888888_assignsubmission_file_ is not in moodle.csv") in err
    summary = (out / "summary.html").read_text()
    attention = summary[summary.index('id="attention"'):]
    assert "Nicht Eingeschrieben_888888_assignsubmission_file_ is not in moodle.csv" in attention


def test_without_a_moodle_download_no_feedback_zip_is_written_unless_asked(tmp_path, capsys):
    out = tmp_path / "out"
    only = tmp_path / "submissions"
    shutil.copytree(DOWNLOAD / "korrekt", only / "korrekt")
    assert main(["grade", "--submissions", str(only), "--out", str(out), "--lang", "en",
                 "--allow-weak-sandbox"]) == 0
    assert not (out / "moodle-feedback.zip").exists()
    rows = list(csv.reader(io.StringIO((out / "moodle.csv").read_text())))
    assert rows[0][0] == "identifier" and rows[1][0] == "korrekt"
    assert main(["grade", "--submissions", str(only), "--out", str(out), "--resume",
                 "--lang", "en", "--allow-weak-sandbox", "--lms", "moodle"]) == 0
    with zipfile.ZipFile(out / "moodle-feedback.zip") as zipped:
        assert zipped.namelist() == []
    assert "korrekt: not named like a folder" in capsys.readouterr().err


# -- the roster ------------------------------------------------------------------------------

def test_a_roster_matches_by_participant_number_then_name_then_folder_name():
    worksheet = read_roster(LMS / "moodle-worksheet-roster-en.csv")
    assert worksheet.has_participants and worksheet.identifier == "email"
    person, _ = worksheet.match("Erika Musterfrau_654321_assignsubmission_file_")
    assert person.email == "erika@example.org"
    # the number of a team's folder is its group's id: a number counts only with its name
    assert worksheet.match("Irgendwer_654321_assignsubmission_file_") == (None,
                                                                          "name-mismatch")
    assert worksheet.match("Participant_654321_assignsubmission_file")[0] == person, \
        "blind marking names no one"
    assert worksheet.match("Max Mustermann_111_assignsubmission_file_") == (None, "participant")

    german = read_roster(LMS / "moodle-roster-de.csv")
    assert not german.has_participants and german.identifier == "username"
    assert german.header == "Username"
    assert german.match("jörg  MÜLLER_5_assignsubmission_file_")[0].username == "jmueller"
    assert german.match("Mustermann Max_5_assignsubmission_file_")[0].username == "mmuster"
    assert german.match("korrekt.zip")[0].username == "korrekt"
    assert german.match("4712")[0].username == "emuster"
    assert german.match("erika@example.org")[0].username == "emuster"
    assert german.match("Max")[0] is None and german.match("Max")[1] == "folder"


def test_a_roster_never_guesses_between_two_people(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("First name,Last name,Email address,Groups\n"
                      "Anna,Schmidt,a1@example.org,Gruppe 1\n"
                      "Anna,Schmidt,a2@example.org,Gruppe 1\nBen,Ohne,,Gruppe 2\n")
    read = read_roster(roster)
    assert not read.has_participants, "a group's number is no participant number"
    assert read.match("Anna Schmidt_1_assignsubmission_file_") == (None, "ambiguous")
    assert read.match("Ben Ohne_2_assignsubmission_file_") == (None, "no-identifier")

    german = read_roster(LMS / "moodle-roster-de.csv")
    twice = [result("Max Mustermann_5_assignsubmission_file_", 60), result("mmuster", 0),
             result("emuster", 30)]
    assert german.people_of(twice) == {
        "Max_Mustermann_5_assignsubmission_file_": (None, "several"),
        "mmuster": (None, "several"), "emuster": (german.match("emuster")[0], "")}
    notes = [n for r in german.annotated(twice) for n in r.notes]
    assert [n.facts["why"] for n in notes] == ["several", "several"]
    assert "Another folder fits the same person" in Catalogue("en").text(
        "note.not-in-roster", **notes[0].facts)


@pytest.mark.parametrize("text, expected", [
    ("Name;Punkte\nAnna;3\n", ["roster.csv:1: no column of usernames, ID numbers or email"]),
    ("Username,Email address\n", ["roster.csv: holds no people below its header line"]),
    ("Username,Email address\nanna,a@example.org\nben,b@example.org\nanna,c@example.org\n"
     "Ben,d@example.org\n",
     ["roster.csv:4: the username anna is also on line 2",
      "roster.csv:5: the username Ben is also on line 3"]),
    (b"Username\nJ\xf6rg\n", ["roster.csv:1: not UTF-8 text"]),
])
def test_an_unusable_roster_is_refused_with_where_and_what_to_do(tmp_path, text, expected):
    roster = tmp_path / "roster.csv"
    if isinstance(text, bytes):
        roster.write_bytes(text)
    else:
        roster.write_text(text)
    with pytest.raises(RosterError) as refused:
        read_roster(roster)
    problems = [problem.replace(str(tmp_path) + "/", "") for problem in refused.value.problems]
    assert len(problems) == len(expected)
    assert all(problem.startswith(start) for problem, start in zip(problems, expected))


def test_an_unusable_roster_stops_before_anything_is_graded(tmp_path, capsys):
    roster = tmp_path / "roster.csv"
    roster.write_text("Name;Punkte\n")
    out = tmp_path / "out"
    assert main(["grade", "--submissions", str(DOWNLOAD), "--out", str(out),
                 "--roster", str(roster)]) == 2
    assert f"--roster {roster}:1: no column of usernames" in capsys.readouterr().err
    assert not out.exists()


def test_merged_shards_get_the_roster_s_usernames_and_one_feedback_zip(tmp_path, capsys):
    for shard in ("1/2", "2/2"):
        assert main(["grade", "--submissions", str(DOWNLOAD), "--lang", "en",
                     "--out", str(tmp_path / shard.replace("/", "-")), "--shard", shard,
                     "--allow-weak-sandbox", "--lms", "none"]) == 0
    out = tmp_path / "merged"
    assert main(["merge", str(tmp_path / "1-2"), str(tmp_path / "2-2"), "--out", str(out),
                 "--roster", str(LMS / "moodle-roster-de.csv")]) == 0
    rows = list(csv.reader(io.StringIO((out / "moodle.csv").read_text())))
    assert rows[0][0] == "Username"
    assert sorted(row[0] for row in rows[1:]) == ["emuster", "jmueller", "korrekt", "mmuster"]
    stored = moodle_imports(out / "moodle-feedback.zip", {123456, 654321, 777777, 888888})
    assert sorted(stored) == [123456, 654321, 777777]
    assert "Nicht Eingeschrieben_888888_assignsubmission_file_ is not in moodle.csv" \
        in capsys.readouterr().err
