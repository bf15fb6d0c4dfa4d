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

It also packs each student's feedback page for the assignment's "Upload multiple feedback
files in a zip" (``feedback_zip``).  Moodle's importer (mod/assign/feedback/file/importziplib.php,
``is_valid_filename_for_import``) splits every path in the zip at "/" and each part at "_" (at
most five pieces); the first part whose second piece is the number of a participant and whose
third and fourth name an enabled plugin (here ``assignfeedback`` ``file``) gives the user, and
what follows becomes the file's name.  So ``Max Mustermann_123456_assignfeedback_file_/
feedback.html`` reaches participant 123456 as ``feedback.html``; the name before the number is
only for people (Moodle writes it with "_" turned into spaces).
"""

from __future__ import annotations

import csv
import io
import re
import time
import zipfile
from pathlib import Path

from .exports import FEEDBACK_FILE, feedback_page, grade_cell, has_grade, zip_member
from .messages import Catalogue

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
    """The worksheet with the results' grades, and what could not be matched or graded (one
    line each).  ``comment_of(result)``: the feedback comment for a result.  A result without
    a grade (``exports.has_grade``) gets an empty grade cell, which Moodle's upload skips."""
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
            row[grade] = grade_cell(result.score, result)
            if not has_grade(result):
                problems.append(f"{result.display}: could not be graded as handed in (see "
                                f"summary.html); grade left empty, grade it by hand")
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




def feedback_zip(results, out: Path, catalogue: Catalogue) -> tuple[bytes, list[str]]:
    """The zip for "Upload multiple feedback files in a zip": each Moodle-download student's
    ``OUT/<student>/feedback.html`` in a folder Moodle maps to the participant; and what was
    left out (one line each, from ``catalogue``).  A folder that names no participant, or a
    participant with several folders, is listed, never guessed."""
    by_id: dict[str, list] = {}
    problems = []
    for result in sorted(results, key=lambda r: r.student):
        match = FOLDER.match(result.display)
        if match is None:
            problems.append(catalogue.text("lms.not-moodle-folder", display=result.display))
        else:
            by_id.setdefault(match["id"], []).append((match, result))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for number, alike in sorted(by_id.items()):
            if len(alike) > 1:
                problems.append(catalogue.text("lms.moodle-several", number=number,
                                               displays=[r.display for _, r in alike]))
                continue
            match, result = alike[0]
            data = feedback_page(out, result, catalogue, problems)
            if data is None:
                continue
            # The name part as Moodle writes it ("_" never in it: the importer would read the
            # piece after one as the participant); the number and plugin are what it reads.
            folder = f"{match['name'].replace('_', ' ')}_{number}_assignfeedback_file_"
            zip_member(archive, f"{folder}/{FEEDBACK_FILE}", data, time.localtime()[:6])
    return buffer.getvalue(), problems


def looks_like_download(results) -> bool:
    """Whether the submissions are folders of Moodle's download (one names a participant)."""
    return any(participant(result.display) is not None for result in results)
