"""Exports where instructors and CI already look: an LMS import for Moodle and for ILIAS,
JUnit XML for CI test reporters, and a points line for CI logs (GitHub Classroom's own
result is ``classroom.reporter_result``)."""

from __future__ import annotations

import csv
import io
import stat
import zipfile
from pathlib import Path

from .messages import Catalogue
from .safe import csv_cell
from .views import task_scores


def points_text(number: float, decimal: str = ".") -> str:
    """Points as the exports write them: 60, 2.50 (or 2,50 with ``decimal=","``)."""
    text = str(int(number)) if float(number).is_integer() else f"{number:.2f}"
    return text.replace(".", decimal)


def has_grade(result) -> bool:
    """Whether the exports write ``result``'s points.  Not when it could not be graded as
    handed in (``result.problem``: an archive that was refused or could not be unpacked,
    nothing handed in, an internal error): its grade cells are left empty, never 0, and it is
    listed under "Needs a person".  An LMS leaves an empty grade alone (Moodle's worksheet
    upload skips it, its gradebook import reads it as no grade; an ILIAS status row gets
    ``update`` 0), so no one gets a 0 that a person did not decide."""
    return not result.problem


def grade_cell(points: float, result, decimal: str = ".") -> str:
    """``points`` as an export writes them, or "" for a result without a grade."""
    return points_text(points, decimal) if has_grade(result) else ""


def moodle_csv(results, course, catalogue: Catalogue, roster=None, scale=None) -> str:
    """Moodle's grade import (Grades: Import: CSV file): a user column, the grade, one column
    per task, and a feedback text.

    Without a roster the user column, ``identifier``, holds the submission's report id (its
    folder name made safe), which Moodle can map only when the folders are named after
    usernames or ID numbers.  With a roster (``report.roster.Roster``) it holds each student's
    username (else ID number, else email address: the roster's first such column that everyone
    has), headed as Moodle's exports head it, one row per person a submission grades (every
    member of a team); a submission the roster does not name is left out (its note says so).
    The grade is written on ``scale`` (``handback.Scale``; against the roster's "Maximum
    Grade" where it has one), the task columns and the comment keep the points."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([roster.header if roster else "identifier", "grade",
                     *(t.id for t in course.tasks), "feedback"])
    people = roster.assigned(results) if roster is not None else {}
    for result in sorted(results, key=lambda r: r.student):
        rows = [(result.student, None)]
        if roster is not None:
            rows = [(roster.identifier_of(person), person.maximum)
                    for person in people[result.student][0]]
        scores = task_scores(result)
        for user, maximum in rows:
            grade = (scale.grade(result.score, result.max_score, maximum)
                     if scale is not None and has_grade(result)
                     else grade_cell(result.score, result))
            writer.writerow([csv_cell(user), grade,
                             *(grade_cell(scores.get(t.id, 0.0), result) for t in course.tasks),
                             csv_cell(grade_comment(result, catalogue))])
    return buffer.getvalue()


def points_comment(result, catalogue: Catalogue) -> str:
    """The feedback comment an LMS shows beside the grade: "57 of 60 points"."""
    return catalogue.text("ui.points_line", score=points_text(result.score),
                          maximum=points_text(result.max_score))


def grade_comment(result, catalogue: Catalogue) -> str:
    """The comment beside a grade in Moodle: the points ("54/60 points", whatever scale the
    grade is written on), or for a result without a grade why it has none (what the
    student's page says first)."""
    if has_grade(result):
        return catalogue.text("lms.points-comment", score=points_text(result.score),
                              maximum=points_text(result.max_score))
    return catalogue.text(f"ui.{result.problem}", detail=result.problem_detail)


def ilias_csv(results, course, catalogue: Catalogue) -> str:
    """For ILIAS (and the spreadsheets it is fed from): semicolons, decimal commas, UTF-8
    with a byte-order mark, the login first.  The first column says logins only where it
    holds them: when every submission is a folder of ILIAS's download
    (``Lastname_Firstname_Login_UsrId``), its ``Login``; otherwise the submissions' report
    ids, headed as the summary heads them."""
    from .ilias import Member
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    members = {result.student: Member.of(result.display) for result in results}
    logins = bool(members) and all(member is not None for member in members.values())
    writer.writerow(["Login" if logins else catalogue.text("ui.student"),
                     catalogue.text("ui.score"), "Maximum", *(t.id for t in course.tasks)])
    for result in sorted(results, key=lambda r: r.student):
        scores = task_scores(result)
        who = members[result.student].login if logins else result.student
        writer.writerow([csv_cell(who), grade_cell(result.score, result, ","),
                         points_text(result.max_score, ","),
                         *(grade_cell(scores.get(t.id, 0.0), result, ",")
                           for t in course.tasks)])
    return buffer.getvalue()


def points_line(result) -> str:
    """``Points X/Y``, for tools that read points from a job's log.  GitHub Classroom does not:
    its grading reporter reads ``classroom.reporter_result`` from a step output."""
    return f"Points {points_text(result.score)}/{points_text(result.max_score)}"


FEEDBACK_FILE = "feedback.html"     # a student's page, as the LMS feedback zips carry it


def zip_member(archive: zipfile.ZipFile, name: str, data: bytes, date_time: tuple,
               mode: int = 0o644) -> None:
    """One file of an export zip: deflated, a regular file with ``mode`` for whoever unpacks
    it, dated ``date_time`` (a fixed date where the zip must be reproducible)."""
    info = zipfile.ZipInfo(name, date_time=date_time)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (stat.S_IFREG | mode) << 16
    archive.writestr(info, data)


def feedback_page(out: Path, result, catalogue: Catalogue, problems: list) -> bytes | None:
    """A graded student's feedback.html for an LMS zip; None, with the reason added to
    ``problems``, when it cannot be read."""
    page = out / result.student / FEEDBACK_FILE
    try:
        return page.read_bytes()
    except OSError as error:
        problems.append(catalogue.text("lms.unreadable", display=result.display,
                                       path=str(page), error=error.strerror or error))
        return None
