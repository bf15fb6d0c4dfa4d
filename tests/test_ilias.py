"""ILIAS round trip: a real "Download all submissions" layout graded, and its status file and
multi-feedback zip read back by the rules ILIAS (and StudOn's status-file extension) apply."""

import csv
import io
import json
import re
import zipfile

import pytest

from grader.cli import main
from grader.grading import SubmissionResult
from grader.lms.ilias import Member, feedback_zip, status, status_csv
from grader.report.messages import Catalogue

from conftest import ROOT

DOWNLOAD = ROOT / "tests" / "data" / "lms" / "ilias-download" / "Blatt 3" / "Abgaben"
MEMBERS = {6171, 6172, 6173, 6174}
# $member_titles of the status file, in ILIAS's order (its cells are read by these positions).
TITLES = ("update", "usr_id", "login", "lastname", "firstname", "status", "mark", "notice",
          "comment", "plagiarism", "plag_comment")


def php_int(text):
    """PHP's (int) cast of a string: its leading integer, else 0."""
    match = re.match(r"\s*[+-]?\d+", text)
    return int(match.group()) if match else 0


def ilias_multi_feedback(archive, members):
    """What ILIAS's multi-feedback upload takes from ``archive``: user id -> {file: bytes}.
    Follows ilExAssignment::uploadMultiFeedbackFile and getMultiFeedbackFiles (ILIAS 8,
    Modules/Exercise/classes/class.ilExAssignment.php): the last top-level folder (in name
    order) whose name starts with "multi_feedback"; in it every folder whose last "_" part,
    cast to int, is a member's user id; in such a folder every file (not its subfolders) whose
    name does not start with "."."""
    with zipfile.ZipFile(archive) as zipped:
        names = [name for name in zipped.namelist() if not name.endswith("/")]
        tops = sorted({name.split("/")[0] for name in names if "/" in name
                       and name.split("/")[0].startswith("multi_feedback")})
        assert tops, "ILIAS: exc_no_feedback_dir_found_in_zip"
        taken = {}
        for name in names:
            parts = name.split("/")
            if parts[0] != tops[-1] or len(parts) != 3 or parts[2].startswith("."):
                continue
            user_id = php_int(parts[1].split("_")[-1])
            if user_id in members:
                taken.setdefault(user_id, {})[parts[2]] = zipped.read(name)
        return taken


def ilias_status_updates(text, members):
    """The updates StudOn's status file import applies: usr_id -> row.  Follows
    ilExAssignmentStatusFile::loadMemberSheet (StudOn, "fau: exStatusFile") and the
    ExerciseStatusFile plugin's ilPluginExAssignmentStatusFile for ILIAS 8+: every one of the
    eleven titles must be in the first row, but cells are read by the titles' fixed
    positions; a row counts when ``update`` is true and ``usr_id`` is a member, and its status
    must be notgraded, passed or failed."""
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert not set(TITLES) - set(rows[0]), "ILIAS: exc_status_file_wrong_titles"
    index = {title: position for position, title in enumerate(TITLES)}
    updates = {}
    for row in rows[1:]:
        if not any(row):
            continue
        update = row[index["update"]].strip()
        if not update or php_int(update) == 0 or php_int(row[index["usr_id"]]) not in members:
            continue
        assert row[index["status"]] in ("notgraded", "passed", "failed"), row
        updates[php_int(row[index["usr_id"]])] = {title: row[index[title]] for title in TITLES}
    return updates


def graded(display, score, maximum=60, problem=None):
    from dataclasses import replace

    from grader.checks.verdict import failed
    from grader.tasks import load_course
    check = load_course(ROOT / "tasks").tasks[0].checks[0]
    verdict = replace(failed(check, "call.timeout"), score=score)
    verdict = replace(verdict, check=replace(check, points=maximum))
    return SubmissionResult(display.replace(" ", "_"), [verdict], display=display,
                            problem=problem)


def test_ilias_folder_names_give_the_user_id_and_a_best_guess_of_the_rest():
    assert Member.of("Mustermann_Max_mmuster_6171") == Member("6171", "Mustermann", "Max",
                                                              "mmuster")
    assert Member.of("Mueller_Joerg_j_mueller_6173").login == "j_mueller"
    assert Member.of("van Dijk_Anna Maria_adijk_12").firstname == "Anna Maria"
    for other in ("Max Mustermann_123456_assignsubmission_file_", "korrekt", "a_b_12",
                  "Mustermann_Max_mmuster_61x"):
        assert Member.of(other) is None


@pytest.mark.parametrize("score, threshold, expected", [
    (30, 50, "passed"), (29.5, 50, "failed"), (60, 100, "passed"), (0, 0, "passed"),
    (45, 75.5, "failed")])
def test_passed_from_the_threshold_s_share_of_the_points_on(score, threshold, expected):
    assert status(graded("A_B_c_1", score), threshold) == expected


def test_a_submission_that_could_not_be_graded_is_left_to_a_person(tmp_path):
    results = [graded("Kaputt_Karl_kkaputt_7", 0, problem="archive-error"),
               graded("Eins_Anna_aeins_8", 40), graded("Zwei_Anna_azwei_8", 50),
               graded("korrekt", 60), graded("Gut_Gustav_ggut_9", 20.5)]
    text, problems = status_csv(results, Catalogue("en"), 50)
    updates = ilias_status_updates(text, {7, 8, 9})
    assert updates == {9: {"update": "1", "usr_id": "9", "login": "ggut", "lastname": "Gut",
                           "firstname": "Gustav", "status": "failed", "mark": "20.50",
                           "notice": "", "comment": "20.50 of 60 points", "plagiarism": "",
                           "plag_comment": ""}}
    assert len(problems) == 3
    assert any(p.startswith("korrekt: not named like a folder of ILIAS's download")
               for p in problems)
    assert any("one user id (8), several folders" in p for p in problems)
    assert any(p.startswith("Kaputt_Karl_kkaputt_7: could not be graded") for p in problems)
    for folder in ("Eins_Anna_aeins_8", "Zwei_Anna_azwei_8", "Gut_Gustav_ggut_9", "korrekt"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "feedback.html").write_text(folder)
    data, _ = feedback_zip(results[1:], tmp_path, Catalogue("en"))
    (tmp_path / "feedback.zip").write_bytes(data)
    assert ilias_multi_feedback(tmp_path / "feedback.zip", {7, 8, 9}) == {
        9: {"feedback.html": b"Gut_Gustav_ggut_9"}}


def test_the_test_s_readers_refuse_what_ilias_refuses(tmp_path):
    archive = tmp_path / "feedback.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("feedback/A_B_c_1/f.html", "top folder not multi_feedback...")
    with pytest.raises(AssertionError, match="no_feedback_dir"):
        ilias_multi_feedback(archive, {1})
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("multi_feedback_x/A_B_c_1/.hidden", "hidden")
        zipped.writestr("multi_feedback_x/A_B_c_1/sub/f.html", "in a subfolder")
        zipped.writestr("multi_feedback_x/A_B_c_2/f.html", "not a member")
        zipped.writestr("multi_feedback_x/A_B_c_1/g.html", "taken")
    assert ilias_multi_feedback(archive, {1}) == {1: {"g.html": b"taken"}}
    with pytest.raises(AssertionError, match="wrong_titles"):
        ilias_status_updates("update,usr_id,login,lastname,firstname,status,mark,notice,"
                             "comment\n", {1})


def test_an_ilias_download_gets_its_status_file_and_multi_feedback_zip(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["grade", "--submissions", str(DOWNLOAD), "--out", str(out), "--lang", "de",
                 "--allow-weak-sandbox", "--ilias-pass", "60"]) == 0
    assert not (out / "moodle-feedback.zip").exists()
    results = {}
    for folder in out.iterdir():
        if (folder / "results.json").is_file():
            data = json.loads((folder / "results.json").read_text())
            results[data["extra_data"]["display_name"]] = (folder, data)

    text = (out / "ilias-status.csv").read_bytes().decode("utf-8")
    assert text.startswith("\ufeff") and text.split("\r\n")[0].lstrip("\ufeff") == ",".join(TITLES)
    updates = ilias_status_updates(text, MEMBERS)
    assert sorted(updates) == sorted(MEMBERS)
    for display, (_, data) in results.items():
        row = updates[int(display.rsplit("_", 1)[1])]
        assert row["mark"] == f"{data['score']:g}"
        assert row["status"] == ("passed" if data["score"] >= 0.6 * 60 else "failed")
        assert row["comment"] == f"{data['score']:g} von 60 Punkten"
    assert updates[6171]["status"] == updates[6172]["status"] == "passed"
    assert updates[6174]["status"] == "failed" and updates[6174]["mark"] == "0"
    assert updates[6173]["login"] == "j_mueller"

    taken = ilias_multi_feedback(out / "ilias-feedback.zip", MEMBERS)
    assert sorted(taken) == sorted(MEMBERS)
    for display, (folder, _) in results.items():
        assert taken[int(display.rsplit("_", 1)[1])] == {
            "feedback.html": (folder / "feedback.html").read_bytes()}
    with zipfile.ZipFile(out / "ilias-feedback.zip") as zipped:
        inside = zipped.read("multi_feedback_gametree-grader/status.csv").decode("utf-8")
    assert inside == text
    assert "ilias-status.csv:" not in capsys.readouterr().err
    # ilias.csv's Login column holds the logins, not the folders' names
    table = (out / "ilias.csv").read_text(encoding="utf-8-sig").splitlines()
    assert table[0].startswith("Login;Punkte;Maximum;")
    assert sorted(line.split(";")[0] for line in table[1:]) == [
        "emuster", "j_mueller", "lleer", "mmuster"]


def test_ilias_csv_says_login_only_where_it_holds_logins(course):
    from grader.grading import SubmissionResult
    from grader.lms.ilias import ilias_csv
    from grader.report.messages import Catalogue
    mixed = [SubmissionResult("Mustermann_Max_mmuster_6171", []), SubmissionResult("korrekt", [])]
    header = ilias_csv(mixed, course, Catalogue("en")).lstrip("\ufeff").split("\r\n")
    assert header[0].startswith("Submission;Points;Maximum;")
    assert [line.split(";")[0] for line in header[1:3]] == ["Mustermann_Max_mmuster_6171",
                                                           "korrekt"]


def test_ilias_files_are_written_only_for_ilias_folders_or_when_asked(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["grade", "--submissions", str(ROOT / "tests" / "data" / "lms" /
                                                "moodle-download"),
                 "--out", str(out), "--allow-weak-sandbox", "--lms", "none"]) == 0
    assert not any((out / name).exists() for name in
                   ("moodle-feedback.zip", "ilias-status.csv", "ilias-feedback.zip"))
    assert main(["grade", "--submissions", str(ROOT / "tests" / "data" / "lms" /
                                                "moodle-download"),
                 "--out", str(out), "--allow-weak-sandbox", "--resume", "--lms", "ilias",
                 "--lang", "en"]) == 0
    assert ilias_status_updates((out / "ilias-status.csv").read_text(), MEMBERS) == {}
    assert "ilias-status.csv: korrekt: not named like a folder of ILIAS's download" \
        in capsys.readouterr().err
