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
import unicodedata
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction

from ..report.grades import grade_cell, grade_comment, has_grade
from ..report.messages import Catalogue
from ..report.safe import csv_cell
from ..report.views import task_scores

# A folder of Moodle's download: ``Full Name_123456_assignsubmission_file`` (4.1 and later:
# mod/assign/classes/downloader.php, get_student_prefix and load_submissionplugin_filelist:
# the name with "_" turned into spaces, the participant number, the plugin), with a "_" at
# the end before 4.1; one folder per submission plugin (``..._assignsubmission_onlinetext``
# beside ``..._file``).  In a team assignment the name is the group's and the number its group
# id (no participant's), or there is no number at all for the default team (``Default
# group_assignsubmission_file``).
FOLDER = re.compile(r"^(?P<name>.+?)_(?:(?P<id>\d+)_)?assign(?P<kind>submission|feedback)_"
                    r"(?P<plugin>[a-z0-9]+)_?$")
PARTICIPANT = re.compile(r"^(?P<prefix>\D+?)\s*(?P<id>\d+)$")
GRADE_HEADERS = ("grade", "bewertung")                          # English, German
COMMENT_HEADERS = ("feedback comments", "feedback als kommentar")
MAXIMUM_HEADERS = ("maximum grade", "bestwertung", "maximale bewertung")
SCALE_HEADERS = ("scale", "skala")                  # a custom scale instead of a maximum
FULL_NAME_HEADERS = ("full name", "vollständiger name")
GROUP_HEADERS = ("group", "gruppe")                 # team assignments only
STATUS_HEADERS = ("status",)
# What a folder is named in blind marking (get_string('participant', 'mod_assign'), cleaned
# as a file name): no person's name to check the number against.
BLIND_NAMES = ("participant", "teilnehmer/in", "teilnehmerin", "teilnehmer")


class WorksheetError(ValueError):
    """Why a worksheet cannot be filled in (the message says what to do)."""


@dataclass(frozen=True)
class MoodleFolder:
    """What a folder name of Moodle's download says."""
    name: str               # a person's or a group's name, as Moodle wrote it
    number: str | None      # participant number (individual) or group id (team); None for
    plugin: str             # the default team; "file", "onlinetext", ...

    @property
    def blind(self) -> bool:
        return normal_name(self.name) in BLIND_NAMES


def folder_of(display: str) -> MoodleFolder | None:
    """The Moodle folder a display name is, or None."""
    match = FOLDER.match(display)
    if match is None:
        return None
    return MoodleFolder(match["name"], match["id"], match["plugin"])


def participant(display: str) -> str | None:
    """The participant number in a folder name of Moodle's download, or None."""
    folder = folder_of(display)
    return folder.number if folder is not None else None


def normal_name(text: str) -> str:
    """A person's or group's name as compared: NFC, no case, Moodle's "_" as a space, the
    characters a file name cannot hold (which Moodle's clean_filename drops) left out, runs
    of white space as one."""
    text = unicodedata.normalize("NFC", text).casefold().replace("_", " ")
    text = re.sub(r"[\\/:*?\"<>|&`']", "", text)
    return " ".join(text.split())


@dataclass(frozen=True)
class Maximum:
    """A participant's "Maximum Grade" as the worksheet writes it (Moodle's format_float with
    the grade item's decimals, in the site language's decimal separator)."""
    value: Decimal
    decimals: int
    separator: str = "."

    @classmethod
    def parse(cls, text: str) -> "Maximum | None":
        text = text.strip()
        if not re.fullmatch(r"\d+([.,]\d+)?", text):
            return None
        separator = "," if "," in text else "."
        decimals = len(text.split(separator, 1)[1]) if separator in text else 0
        try:
            return cls(Decimal(text.replace(",", ".")), decimals, separator)
        except InvalidOperation:
            return None

    def text(self) -> str:
        return written(self.value, self.decimals, self.separator)


def written(value: Decimal, decimals: int, separator: str = ".") -> str:
    return f"{value:.{decimals}f}".replace(".", separator)


def on_scale(score: float, course_max: float, maximum: Decimal, decimals: int) -> Decimal:
    """``score`` of ``course_max`` points as a grade out of ``maximum``, rounded as Moodle
    rounds a grade it shows.

    Moodle keeps a grade to 5 decimals ("we must round to 5 digits to get the same precision
    as in 10,5 db fields", grade_floatval in lib/gradelib.php) and shows it, in the grading
    worksheet and the gradebook alike, with the grade item's decimals through format_float
    (lib/moodlelib.php), which formats with PHP's number_format: rounded half away from zero.
    The worksheet's "Maximum Grade" is written the same way, so its decimals are the grade
    item's.  Writing the grade already rounded like that makes what Moodle stores and shows
    exactly what the comment's points say it is (54 of 60 on a maximum of 10: 9.00)."""
    exact = Fraction(str(score)) * Fraction(maximum) / Fraction(str(course_max))
    as_decimal = Decimal(exact.numerator) / Decimal(exact.denominator)
    return as_decimal.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Row:
    """One participant of the worksheet."""
    index: int                  # its line's index among the worksheet's rows (header 0)
    number: str                 # participant number
    name: str                   # its "Full name" cell ("" in blind marking)
    group: str                  # its "Group" cell (team assignments), else ""
    status: str                 # its "Status" cell, as Moodle wrote it
    maximum: Maximum | None     # its "Maximum Grade", None on a scale or without the column
    label: str = ""             # its identifier cell as Moodle wrote it ("Participant 123456")

    def who(self) -> str:
        """The participant for people, as the worksheet names it: ``Participant 123456 (Anna
        Schmidt)``."""
        return (self.label or f"Participant {self.number}") + (f" ({self.name})"
                                                               if self.name else "")


def _index(header: list[str], names: tuple) -> int | None:
    return next((i for i, cell in enumerate(header) if cell in names), None)


class Worksheet:
    """Moodle's grading worksheet of an assignment (Grading action: Download grading
    worksheet), with the columns the grader reads and writes found by their headers (English
    or German) and the participant column by its cells.  Raises ``WorksheetError`` when it
    cannot be filled in."""

    def __init__(self, text: str):
        try:
            self.rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
        except csv.Error as error:
            raise WorksheetError(f"not a CSV file Moodle wrote ({error}); download the "
                                 f"worksheet again") from None
        rows = self.rows
        if len(rows) < 2:
            raise WorksheetError("the worksheet holds no participants; download it again "
                                 "from the assignment (Grading action: Download grading "
                                 "worksheet)")
        header = [cell.strip().casefold() for cell in rows[0]]
        self.grade = _index(header, GRADE_HEADERS)
        if self.grade is None:
            raise WorksheetError(f"no grade column (looked for {', '.join(GRADE_HEADERS)}; "
                                 f"the headers are {', '.join(rows[0])}); use the file "
                                 f"Moodle's Download grading worksheet gives")
        counts = [sum(1 for row in rows[1:] if i < len(row)
                      and PARTICIPANT.match(row[i].strip())) for i in range(len(header))]
        self.identifier = max(range(len(header)), key=lambda i: counts[i])
        if counts[self.identifier] == 0:
            raise WorksheetError("no column of participant identifiers (Participant 123456)")
        self.comment = _index(header, COMMENT_HEADERS)
        self.maximum = _index(header, MAXIMUM_HEADERS)
        self.scale = _index(header, SCALE_HEADERS)
        self.full_name = _index(header, FULL_NAME_HEADERS)
        self.group = _index(header, GROUP_HEADERS)
        self.status = _index(header, STATUS_HEADERS)
        self.participants = []
        for index, row in enumerate(rows[1:], start=1):
            match = PARTICIPANT.match(self._cell(row, self.identifier))
            if match is None or len(row) <= max(self.identifier, self.grade,
                                                 self.comment or 0):
                continue
            self.participants.append(Row(
                index, match["id"], self._cell(row, self.full_name),
                self._cell(row, self.group), self._cell(row, self.status),
                Maximum.parse(self._cell(row, self.maximum))
                if self.maximum is not None else None,
                self._cell(row, self.identifier)))

    @staticmethod
    def _cell(row: list[str], index: int | None) -> str:
        return row[index].strip() if index is not None and index < len(row) else ""

    @property
    def team(self) -> bool:
        """A team assignment's worksheet (it has a Group column): its download's folders
        are named after groups, and their numbers are group ids."""
        return self.group is not None

    def maxima(self) -> set:
        """The distinct maximum grades of the participants (one per assignment)."""
        return {row.maximum for row in self.participants if row.maximum is not None}

    def text(self) -> str:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows(self.rows)
        return buffer.getvalue()


def columns(text: str) -> tuple[list, int, int, int | None]:
    """The worksheet's rows and the indexes of its participant, grade and comment columns."""
    sheet = Worksheet(text)
    return sheet.rows, sheet.identifier, sheet.grade, sheet.comment


def looks_like_download(results) -> bool:
    """Whether the submissions are folders of Moodle's download (one names a participant)."""
    return any(participant(result.display) is not None for result in results)


def moodle_csv(results, course, catalogue: Catalogue, roster=None, scale=None) -> str:
    """Moodle's grade import (Grades: Import: CSV file): a user column, the grade, one column
    per task, and a feedback text.

    Without a roster the user column, ``identifier``, holds the submission's report id (its
    folder name made safe), which Moodle can map only when the folders are named after
    usernames or ID numbers.  With a roster (``lms.roster.Roster``) it holds each student's
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
