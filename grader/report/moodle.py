"""Moodle's assignment grading worksheet, filled in with the batch's grades.

Moodle's "download all submissions" names each student's folder ``Full Name_N_assignsubmission
_file_``, where N is the assignment's participant number, and its grading worksheet (Grading
action: Download grading worksheet) identifies the same student as ``Participant N``.  Moodle
imports the worksheet back (Upload grading worksheet) only with its own column headers, which
are in the instructor's language; so the grader fills in the worksheet the instructor
downloaded rather than writing one: the grade (and the feedback comment, where that column
exists) of every participant whose folder it graded, every other cell as it was.  The
"last modified (grade)" column is left as downloaded, so that Moodle still refuses to
overwrite a grade someone changed there since.
"""

from __future__ import annotations

import csv
import io
import re

from .exports import points_text

FOLDER = re.compile(r"^(?P<name>.+)_(?P<id>\d+)_assign(?:submission|feedback)_")
PARTICIPANT = re.compile(r"^(?P<prefix>\D+?)\s*(?P<id>\d+)$")
GRADE_HEADERS = ("grade", "bewertung")                          # English, German
COMMENT_HEADERS = ("feedback comments", "feedback als kommentar")


class WorksheetError(ValueError):
    """Why a worksheet cannot be filled in (the message says what to do)."""


def participant(display: str) -> str | None:
    """The participant number in a folder name of Moodle's download, or None."""
    match = FOLDER.match(display)
    return match["id"] if match else None


def columns(text: str) -> tuple[list, int, int, int | None]:
    """The worksheet's rows and the indexes of its participant, grade and comment columns."""
    try:
        rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    except csv.Error as error:
        raise WorksheetError(f"not a CSV file Moodle wrote ({error}); download the "
                             f"worksheet again") from None
    if len(rows) < 2:
        raise WorksheetError("the worksheet holds no participants; download it again from "
                             "the assignment (Grading action: Download grading worksheet)")
    header = [cell.strip().casefold() for cell in rows[0]]
    grade = next((i for i, cell in enumerate(header) if cell in GRADE_HEADERS), None)
    if grade is None:
        raise WorksheetError(f"no grade column (looked for {', '.join(GRADE_HEADERS)}; the "
                             f"headers are {', '.join(rows[0])}); use the file Moodle's "
                             f"Download grading worksheet gives")
    counts = [sum(1 for row in rows[1:] if i < len(row) and PARTICIPANT.match(row[i].strip()))
              for i in range(len(header))]
    identifier = max(range(len(header)), key=lambda i: counts[i])
    if counts[identifier] == 0:
        raise WorksheetError("no column of participant identifiers (Participant 123456)")
    comment = next((i for i, cell in enumerate(header) if cell in COMMENT_HEADERS), None)
    return rows, identifier, grade, comment


def fill_worksheet(text: str, results, comment_of) -> tuple[str, list[str]]:
    """The worksheet with the results' grades, and what could not be matched (one line
    each).  ``comment_of(result)``: the feedback comment for a result."""
    rows, identifier, grade, comment = columns(text)
    by_id, problems = {}, []
    for result in sorted(results, key=lambda r: r.student):
        number = participant(result.display)
        if number is None:
            problems.append(f"{result.display}: not named like a folder of Moodle's download "
                            f"(Full Name_123456_assignsubmission_file_); grade it by hand")
        else:
            by_id.setdefault(number, []).append(result)
    for number, alike in list(by_id.items()):
        if len(alike) > 1:
            # Two folders for one participant: which one counts is for a person to decide.
            problems.append(f"{', '.join(r.display for r in alike)}: one participant "
                            f"({number}), several folders; left empty, grade it by hand")
            del by_id[number]
    by_id = {number: alike[0] for number, alike in by_id.items()}
    filled = set()
    for row in rows[1:]:
        if len(row) <= max(identifier, grade, comment or 0):
            continue
        match = PARTICIPANT.match(row[identifier].strip())
        if match and match["id"] in by_id:
            result = by_id[match["id"]]
            row[grade] = points_text(result.score)
            if comment is not None:
                row[comment] = comment_of(result)
            filled.add(match["id"])
    for number, result in by_id.items():
        if number not in filled:
            problems.append(f"{result.display}: participant {number} is not in the worksheet; "
                            f"grade it by hand")
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue(), problems
