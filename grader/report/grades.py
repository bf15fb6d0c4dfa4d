"""What every export writes alike: points (``60``, ``2.50`` or ``2,50``), an empty grade cell
for a result without a grade, the comment beside a grade, the points line for CI logs, and
the members of an export zip (a student's feedback page).  The exports themselves: Moodle's
and ILIAS's in ``grader/lms/``, JUnit XML and the gradebook in ``writers.py``."""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path

from .messages import Catalogue


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
