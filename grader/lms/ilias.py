"""ILIAS exercises: from the download of all submissions back to the exercise's grades.

ILIAS (7, 8, 9) names each student's folder in "Download all submissions" (under
``<assignment>/Abgaben/`` or ``.../Submissions/``) ``Lastname_Firstname_Login_UsrId``, made
ASCII (ilExSubmission::getDirectoryNameFromUserData: umlauts as ae/oe/ue/ss, other letters
without accents).  Only the last part, the user id, is certain: names and logins may hold "_"
themselves.  The grader writes back:

* ``status_csv``: the status file of StudOn's exercise extension and the ExerciseStatusFile
  plugin for ILIAS 8+ (plain ILIAS has no such import).  Its columns are read *by position*
  and all eleven must be there: update, usr_id, login, lastname, firstname, status, mark,
  notice, comment, plagiarism, plag_comment.  A row with ``update`` 1 sets the member's status
  (``passed``/``failed``/``notgraded``), mark, notice and comment; rows with 0 are skipped.
  CSV is accepted (comma or semicolon, UTF-8), so no spreadsheet library is needed.
* ``feedback_zip``: the multi-feedback zip (Assignment: Grades: Multi-Feedback: upload).
  ILIAS (ilExAssignment::getMultiFeedbackFiles) looks for a top folder whose name starts with
  ``multi_feedback``, in it for folders whose last "_" part is a member's user id, and takes
  every file in such a folder whose name does not start with "." as that member's feedback
  file.  The status file goes into the top folder too, where the extension looks for it and
  plain ILIAS ignores it.

A submission that could not be graded as handed in (``problem``), or two folders with one
user id, gets ``update`` 0 and is listed: a person decides, nothing is guessed.
"""

from __future__ import annotations

import csv
import io
import re
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ..report.grades import (FEEDBACK_FILE, feedback_page, grade_cell, points_comment,
                             points_text, zip_member)
from ..report.messages import Catalogue
from ..report.safe import csv_cell
from ..report.views import task_scores

FOLDER = re.compile(r"^(?P<rest>[^_]+_.+_.+)_(?P<usr_id>\d+)$")
TITLES = ("update", "usr_id", "login", "lastname", "firstname", "status", "mark", "notice",
          "comment", "plagiarism", "plag_comment")
STATUS_FILE = "status.csv"
TOP_FOLDER = "multi_feedback_gametree-grader"
DEFAULT_PASS_PERCENT = 50.0


@dataclass(frozen=True)
class Member:
    """What an ILIAS folder name says about its student."""
    usr_id: str
    lastname: str
    firstname: str
    login: str

    @classmethod
    def of(cls, display: str) -> Member | None:
        """The member an ILIAS folder (``Lastname_Firstname_Login_UsrId``) names, or None.
        With more than four "_" parts the split is a best guess (only the id is certain,
        and only the id is what ILIAS reads back): logins hold "_" more often than names, so
        the last and first name are the first two parts and the login is the rest."""
        match = FOLDER.match(display)
        if match is None:
            return None
        lastname, firstname, login = match["rest"].split("_", 2)
        return cls(match["usr_id"], lastname, firstname, login)


def looks_like_download(results) -> bool:
    """Whether the submissions are folders of ILIAS's download (one is named like one)."""
    return any(Member.of(result.display) is not None for result in results)


def status(result, pass_percent: float) -> str:
    """``passed`` when the score is at least ``pass_percent`` % of the maximum, else
    ``failed``; ``notgraded`` when it could not be graded as handed in."""
    if result.problem or not result.max_score:
        return "notgraded"
    return "passed" if result.score * 100 >= pass_percent * result.max_score - 1e-9 \
        else "failed"


def _members(results, catalogue: Catalogue) -> tuple[dict, list[str]]:
    """The results by user id (a list each: several folders may name one member), and the
    problems (from ``catalogue``)."""
    by_id: dict[str, list] = {}
    problems = []
    for result in sorted(results, key=lambda r: r.student):
        member = Member.of(result.display)
        if member is None:
            problems.append(catalogue.text("lms.not-ilias-folder", display=result.display))
        else:
            by_id.setdefault(member.usr_id, []).append((member, result))
    for usr_id, alike in list(by_id.items()):
        if len(alike) > 1:
            problems.append(catalogue.text("lms.ilias-several", usr_id=usr_id,
                                           displays=[r.display for _, r in alike]))
    return by_id, problems


def status_csv(results, catalogue: Catalogue,
               pass_percent: float = DEFAULT_PASS_PERCENT) -> tuple[str, list[str]]:
    """The status file (UTF-8 with a byte-order mark, commas) and what was not updated."""
    by_id, problems = _members(results, catalogue)
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(TITLES)
    for usr_id, alike in sorted(by_id.items(), key=lambda item: int(item[0])):
        for member, result in alike:
            update = len(alike) == 1 and not result.problem
            if len(alike) == 1 and result.problem:
                problems.append(catalogue.text("lms.not-graded", display=result.display))
            writer.writerow([1 if update else 0, usr_id, csv_cell(member.login),
                             csv_cell(member.lastname), csv_cell(member.firstname),
                             status(result, pass_percent) if update else "notgraded",
                             points_text(result.score) if update else "", "",
                             csv_cell(points_comment(result, catalogue)) if update else "",
                             "", ""])
    return buffer.getvalue(), problems


def feedback_zip(results, out: Path, catalogue: Catalogue,
                 status_text: str | None = None) -> tuple[bytes, list[str]]:
    """The multi-feedback zip: ``multi_feedback_.../<ILIAS folder>/feedback.html`` for each
    member graded once (and ``status.csv`` beside the folders), and what was left out."""
    by_id, problems = _members(results, catalogue)
    buffer = io.BytesIO()
    now = time.localtime()[:6]
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        def add(name: str, data: bytes) -> None:
            zip_member(archive, f"{TOP_FOLDER}/{name}", data, now)
        if status_text is not None:
            add(STATUS_FILE, status_text.encode("utf-8"))
        for usr_id, alike in sorted(by_id.items(), key=lambda item: int(item[0])):
            if len(alike) > 1:
                continue                # listed by _members
            member, result = alike[0]
            data = feedback_page(out, result, catalogue, problems)
            if data is None:
                continue
            add(f"{result.display}/{FEEDBACK_FILE}", data)
    return buffer.getvalue(), problems


def ilias_csv(results, course, catalogue: Catalogue) -> str:
    """For ILIAS (and the spreadsheets it is fed from): semicolons, decimal commas, UTF-8
    with a byte-order mark, the login first.  The first column says logins only where it
    holds them: when every submission is a folder of ILIAS's download
    (``Lastname_Firstname_Login_UsrId``), its ``Login``; otherwise the submissions' report
    ids, headed as the summary heads them."""
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
