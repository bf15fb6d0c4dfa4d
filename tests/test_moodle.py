"""Moodle's grading worksheet: filled in from a batch of Moodle's download, headers kept."""

import csv
import io

import pytest

from grader.cli import main
from grader.grading import SubmissionResult
from grader.report.moodle import WorksheetError, fill_worksheet, participant

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
          ',60,-,\n')


def rows_of(text):
    return {row[0]: row for row in csv.reader(io.StringIO(text))}


def result(display, score):
    from dataclasses import replace

    from grader import checks as check_kinds
    from grader.tasks import load_course
    check = load_course(ROOT / "tasks").tasks[0].checks[0]
    verdict = replace(check_kinds.failed(check, "call.timeout"), score=score)
    return SubmissionResult(display.replace(" ", "_"), [verdict], display=display)


def test_participant_numbers_come_from_the_download_s_folder_names():
    assert participant("Max Mustermann_123456_assignsubmission_file_") == "123456"
    assert participant("Anna_B_12_assignsubmission_onlinetext_") == "12"
    assert participant("korrekt") is None and participant("x_12_other_") is None


@pytest.mark.parametrize("text, grade, comment", [(ENGLISH, 4, 9), (GERMAN, 4, 7)])
def test_grades_and_comments_go_into_the_instructor_s_own_columns(text, grade, comment):
    results = [result("Max Mustermann_123456_assignsubmission_file_", 2.5),
               result("Unbekannt_424242_assignsubmission_file_", 1),
               result("korrekt", 3)]
    filled, problems = fill_worksheet(text, results, lambda r: f"{r.score:g} points")
    rows = list(csv.reader(io.StringIO(filled)))
    assert rows[0] == next(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[1][grade] == "2.50" and rows[1][comment] == "2.5 points"
    assert rows[1][:grade] == next(csv.reader(io.StringIO(text.lstrip("\ufeff").split("\n")[1])))[:grade]
    assert len(problems) == 2
    assert any("424242 is not in the worksheet" in p for p in problems)
    assert any(p.startswith("korrekt: not named like") for p in problems)


def test_a_file_that_is_not_a_worksheet_is_refused_with_what_to_do():
    with pytest.raises(WorksheetError, match="no grade column"):
        fill_worksheet("name,points\nAnna,3\n", [], str)
    with pytest.raises(WorksheetError, match="no participants"):
        fill_worksheet('"Identifier","Grade"\n', [], str)
    with pytest.raises(WorksheetError, match="not a CSV file"):
        fill_worksheet('"Identifier","Grade"\n"Participant 1","' + "x" * 200_000 + '"\n',
                       [], str)


def test_two_folders_of_one_participant_leave_the_grade_to_a_person():
    results = [result("Anna Korrekt_1_assignsubmission_file_", 60),
               result("Anna Kopie_1_assignsubmission_file_", 0)]
    filled, problems = fill_worksheet(ENGLISH.replace("123456", "1"), results, str)
    assert rows_of(filled)["Participant 1"][4] == ""
    assert len(problems) == 1 and "several folders" in problems[0]


def test_a_moodle_download_is_graded_into_its_worksheet(tmp_path, capsys):
    download = moodle_download(tmp_path / "download")
    sheet = tmp_path / "worksheet.csv"
    sheet.write_text(ENGLISH)
    out = tmp_path / "out"
    assert main(["grade", "--submissions", str(download), "--out", str(out), "--lang", "en",
                 "--allow-weak-sandbox", "--moodle-worksheet", str(sheet)]) == 0
    rows = rows_of((out / "moodle-worksheet.csv").read_text())
    assert rows["Participant 123456"][4] == rows["Participant 654321"][4] == "60"
    assert rows["Participant 111111"][4] == "0"
    assert rows["Participant 123456"][9] == "60 of 60 points"
    assert rows["Participant 999999"] == rows_of(ENGLISH)["Participant 999999"]
    assert rows["Participant 123456"][8] == "-", "Moodle still guards grades changed there"


def test_an_unusable_worksheet_stops_before_anything_is_graded(tmp_path, capsys):
    sheet = tmp_path / "grades.csv"
    sheet.write_text("name,points\n")
    out = tmp_path / "out"
    assert main(["grade", "--submissions", str(ROOT / "submissions"), "--out", str(out),
                 "--moodle-worksheet", str(sheet)]) == 2
    assert "--moodle-worksheet" in capsys.readouterr().err and not out.exists()
