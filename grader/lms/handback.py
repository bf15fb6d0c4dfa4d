"""Handing grades back to the LMS: who gets which result, on which scale, and who is left for
a person.

A download's folders are not its participants.  In Moodle one participant may have a folder
per submission plugin (merged into one submission when the folders are found), a team's
folder is named after its group and carries the group's id, which is no participant number,
and a participant who handed in nothing has no folder at all.  So the grader never writes a
grade by a folder's number alone: with the grading worksheet (``--moodle-worksheet``) a
folder's number must belong to a participant of the same name, and a team's folder reaches
every member of its group (the worksheet's Group column); everything else, and every
participant who ends without a grade, is an ``Item`` for a person, with why and what to do.

The grade itself is written on the LMS's scale (``Scale``): Moodle reads the worksheet's
grade against the assignment's maximum grade, so 54 of the course's 60 points become 9.00
on a maximum of 10.00, and the exact points go into the feedback comment.

This module decides; ``moodle.py`` reads and writes Moodle's files, ``roster.py`` the
gradebook's users, and the messages are the catalogue's ``lms`` section.
"""

from __future__ import annotations

import io
import time
import zipfile
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

from ..report.grades import FEEDBACK_FILE, feedback_page, has_grade, points_text, zip_member
from ..report.messages import Catalogue
from .moodle import Maximum, Worksheet, folder_of, normal_name, on_scale, written

SCALES = ("worksheet", "points", "percent")


@dataclass(frozen=True)
class Item:
    """Something a person must do about the hand-back: a folder no participant got, or a
    participant left without a grade.  ``key`` names the catalogue's ``lms.<key>``."""
    key: str
    facts: dict = field(default_factory=dict, compare=False, hash=False)

    def text(self, catalogue: Catalogue) -> str:
        return catalogue.text(f"lms.{self.key}", **self.facts)


@dataclass(frozen=True)
class Scale:
    """How a grade is written for the LMS (``--moodle-scale``): ``worksheet`` (the maximum
    grade the worksheet or roster gives, points where none is given), ``points`` (as graded),
    ``percent`` (of the course's points, 2 decimals) or a fixed maximum grade (``10``, with 2
    decimals, for a gradebook import without a worksheet)."""
    mode: str = "worksheet"
    maximum: Decimal | None = None

    @classmethod
    def parse(cls, text: str) -> "Scale":
        if text in SCALES:
            return cls(text)
        try:
            maximum = Decimal(text.replace(",", "."))
        except InvalidOperation:
            maximum = Decimal(0)
        if not maximum.is_finite() or maximum <= 0:
            raise ValueError(f"{text!r}: give worksheet, points, percent or the assignment's "
                             f"maximum grade (a number above 0, such as 10)")
        return cls("maximum", maximum)

    def given(self, given: Maximum | None) -> Maximum | None:
        """The maximum a grade is written against (None: points as they are)."""
        if self.mode == "percent":
            return Maximum(Decimal(100), 2, given.separator if given else ".")
        if self.mode == "maximum":
            return Maximum(self.maximum, 2, given.separator if given else ".")
        if self.mode == "worksheet":
            return given
        return None

    def grade(self, score: float, course_max: float, given: Maximum | None) -> str:
        """The grade cell for ``score`` of ``course_max`` points; ``given``: the maximum grade
        the LMS states for this participant, if it states one."""
        target = self.given(given)
        if target is None or not course_max:
            return points_text(score, given.separator if given else ".")
        return written(on_scale(score, course_max, target.value, target.decimals),
                       target.decimals, target.separator)

    def problems(self, course_max: float, maxima: set, on_a_scale: bool,
                 source: str) -> tuple[list[str], list[str]]:
        """``(refusals, warnings)`` before anything is graded, for grades read against the
        maxima ``source`` states (a worksheet's "Maximum Grade"s; ``on_a_scale``: it has a
        Scale column instead, a custom scale of words)."""
        refusals, warnings = [], []
        if on_a_scale and not maxima and self.mode in ("worksheet", "points"):
            refusals.append(f"{source}: the assignment is graded on a scale (its worksheet has "
                            f"a Scale column, not a Maximum Grade), which points cannot be "
                            f"written on; grade it with points (Grade type: Point) or enter "
                            f"the grades by hand")
            return refusals, warnings
        if len(maxima) > 1:
            refusals.append(f"{source}: the participants have different maximum grades "
                            f"({', '.join(sorted(m.text() for m in maxima))}); download the "
                            f"worksheet of one assignment again")
            return refusals, warnings
        stated = next(iter(maxima), None)
        if stated is not None and stated.value <= 0:
            refusals.append(f"{source}: the maximum grade is {stated.text()}; Moodle takes no "
                            f"grade there")
            return refusals, warnings
        target = self.given(stated)
        if self.mode == "points" and stated is not None and stated.value < Decimal(
                str(course_max)):
            refusals.append(f"{source}: --moodle-scale points would write up to "
                            f"{points_text(course_max)} points into a grade out of "
                            f"{stated.text()}, and Moodle drops every grade above the maximum; "
                            f"leave out --moodle-scale (the grades are then scaled to "
                            f"{stated.text()}) or raise the assignment's maximum grade to "
                            f"{points_text(course_max)}")
        elif stated is not None and target is not None and target.value < 100 \
                and self.mode == "percent":
            refusals.append(f"{source}: --moodle-scale percent writes grades up to 100, above "
                            f"the maximum grade {stated.text()}; leave it out")
        elif target is not None and target.value != Decimal(str(course_max)):
            example = written(on_scale(course_max * 0.9, course_max, target.value,
                                       target.decimals), target.decimals, target.separator)
            warnings.append(f"{source}: grades are written out of {target.text()}, not "
                            f"{points_text(course_max)} points: "
                            f"{points_text(course_max * 0.9)}/{points_text(course_max)} points "
                            f"become {example}, rounded as Moodle rounds to "
                            f"{target.decimals} decimal(s); the feedback comment keeps the "
                            f"points")
            if target.decimals == 0:
                warnings.append(f"{source}: the maximum grade {target.text()} shows no "
                                f"decimals, so every grade is rounded to a whole number of "
                                f"{target.text()}; give the grade item decimals in Moodle "
                                f"(Gradebook setup: Overall decimal places) if that is too "
                                f"coarse")
        return refusals, warnings


@dataclass
class Matching:
    """Who gets what from a worksheet: ``matched`` (row index -> the one result of that
    participant, graded or not), ``left`` (the items for a person)."""
    matched: dict = field(default_factory=dict)
    rows: dict = field(default_factory=dict)        # row index -> Row
    left: list = field(default_factory=list)

    def given(self) -> dict:
        """Row index -> result, for the participants who get a grade."""
        return {index: result for index, result in self.matched.items() if has_grade(result)}


def match_worksheet(sheet: Worksheet, results) -> Matching:
    """Match each folder of Moodle's download to the worksheet's participants:

    * individual assignments: by the participant number in the folder's name, only when the
      worksheet names that participant as the folder does (blind marking names no one): a
      number that belongs to someone else (a group's id, another course's download) is left
      for a person;
    * team assignments (the worksheet has a Group column): every participant whose group is
      the folder's name (the folder's number is the group's id and is not read);

    and list for a person every folder no one gets and every participant who ends without a
    grade (no folder, several folders, a submission that could not be graded as handed in)."""
    matching = Matching(rows={row.index: row for row in sheet.participants})
    by_number = {row.number: row for row in sheet.participants}
    wanted: dict[int, list] = {}
    for result in sorted(results, key=lambda r: r.student):
        folder = folder_of(result.display)
        if folder is None:
            matching.left.append(Item("not-moodle-folder-grade", {"display": result.display}))
        elif sheet.team:
            members = [row for row in sheet.participants
                       if row.group and normal_name(row.group) == normal_name(folder.name)]
            if not members:
                matching.left.append(Item("team-no-members", {"display": result.display,
                                                              "group": folder.name}))
            for row in members:
                wanted.setdefault(row.index, []).append(result)
        elif folder.number is None:
            matching.left.append(Item("team-without-groups", {"display": result.display}))
        elif folder.number not in by_number:
            matching.left.append(Item("not-in-worksheet", {"display": result.display,
                                                           "number": folder.number}))
        else:
            row = by_number[folder.number]
            if row.name and not folder.blind \
                    and normal_name(row.name) != normal_name(folder.name):
                matching.left.append(Item("name-mismatch", {
                    "display": result.display, "number": row.number, "name": row.name}))
            else:
                wanted.setdefault(row.index, []).append(result)
    teams: dict[str, list] = {}         # a team's items are said once, for the whole group
    for row in sheet.participants:
        found = wanted.get(row.index, [])
        if len(found) == 1:
            matching.matched[row.index] = found[0]
            if has_grade(found[0]):
                continue
            key, facts = "not-graded", {"display": found[0].display,
                                        "detail": found[0].problem_detail or ""}
        elif found:
            key, facts = "several", {"displays": [r.display for r in found]}
        else:
            key, facts = "no-folder", {"status": row.status}
        if sheet.team and row.group:
            teams.setdefault((key, normal_name(row.group)), [row, facts, []])[2].append(
                row.who())
        else:
            matching.left.append(Item(f"participant-{key}", {"who": row.who(), **facts}))
    for (key, _), (row, facts, members) in teams.items():
        matching.left.append(Item(f"team-{key}", {"group": row.group, "members": members,
                                                  **facts}))
    return matching


def fill(sheet: Worksheet, matching: Matching, scale: Scale, comment_of) -> None:
    """Write each matched participant's grade (on ``scale``, against the row's maximum
    grade) and comment into ``sheet``; a participant without a grade keeps the grade cell
    as downloaded and gets the reason as comment."""
    for index, result in matching.matched.items():
        row, cells = matching.rows[index], sheet.rows[index]
        if has_grade(result):
            cells[sheet.grade] = scale.grade(result.score, result.max_score, row.maximum)
        if sheet.comment is not None:
            cells[sheet.comment] = comment_of(result)


def zip_targets(results, sheet: Worksheet | None, roster=None) -> tuple[list, list]:
    """``([(result, name, participant number)], items)``: the feedback zip's folders.

    With the worksheet, each participant it matched (a team's every member), under the
    worksheet's name.  Without it, a folder's number is used only when nothing says it is a
    group's: with a roster, only for the person the roster finds for the folder (number and
    name, or the name alone), and a team's members only by the participant numbers the roster
    gives them; without a roster, by the folder's own number, unless the download is a team
    assignment's (a folder of the default team, which has no number, gives that away).  What
    is left out is an item for a person."""
    targets, left = [], []
    if sheet is not None:
        matching = match_worksheet(sheet, results)
        for index, result in sorted(matching.matched.items()):
            row = matching.rows[index]
            targets.append((result, row.name or "Participant", row.number))
        return targets, left
    folders = {result.student: folder_of(result.display) for result in results}
    teams = any(folder is not None and folder.number is None for folder in folders.values())
    people = roster.assigned(results) if roster is not None else {}
    by_number: dict[str, list] = {}
    for result in sorted(results, key=lambda r: r.student):
        folder = folders[result.student]
        if folder is None:
            left.append(Item("not-moodle-folder", {"display": result.display}))
            continue
        if roster is not None:
            found, _ = people[result.student]
            if len(found) == 1 and not found[0].participant:
                numbers = [(found[0], folder.number)]      # named by the roster: its own
            else:
                numbers = [(person, person.participant) for person in found]
            if not numbers or any(number is None for _, number in numbers):
                left.append(Item("not-confirmed", {"display": result.display}))
                continue
            for person, number in numbers:
                by_number.setdefault(number, []).append((person.label or folder.name,
                                                         result))
        elif teams or folder.number is None:
            left.append(Item("team-needs-worksheet", {"display": result.display}))
        else:
            by_number.setdefault(folder.number, []).append((folder.name, result))
    for number, alike in sorted(by_number.items()):
        if len({result.student for _, result in alike}) > 1:
            left.append(Item("moodle-several", {"number": number,
                                                "displays": [r.display for _, r in alike]}))
        else:
            name, result = alike[0]
            targets.append((result, name, number))
    if targets and roster is None:
        left.append(Item("numbers-unchecked", {"count": len(targets)}))
    return targets, left


@dataclass
class Handback:
    """A batch's way back to the LMS: the worksheet to fill in (``sheet``), the roster that
    names the gradebook's users, and the scale grades are written on."""
    sheet: Worksheet | None = None
    roster: object = None
    scale: Scale = field(default_factory=Scale)

    def problems(self, course_max: float) -> tuple[list[str], list[str]]:
        """``(refusals, warnings)`` about the scale, before anything is graded."""
        refusals, warnings = [], []
        if self.sheet is not None:
            more = self.scale.problems(course_max, self.sheet.maxima(),
                                       self.sheet.scale is not None, "--moodle-worksheet")
            refusals += more[0]
            warnings += more[1]
        if self.roster is not None:
            maxima = {p.maximum for p in self.roster.people if p.maximum is not None}
            more = self.scale.problems(course_max, maxima, False, "--roster")
            refusals += more[0]
            warnings += more[1]
            if not maxima and self.scale.mode == "worksheet":
                warnings.append(f"--roster: moodle.csv holds points out of "
                                f"{points_text(course_max)}, as the roster states no maximum "
                                f"grade; if the grade item's maximum in Moodle is another, "
                                f"pass --moodle-scale MAXIMUM (or percent), or Moodle caps or "
                                f"misreads every grade")
        return refusals, list(dict.fromkeys(warnings))

    def items(self, results) -> list:
        """What the hand-back leaves to a person: the worksheet's participants without a
        grade and folders no one got, else the roster's students no folder grades."""
        if self.sheet is not None:
            return match_worksheet(self.sheet, results).left
        if self.roster is not None:
            from pathlib import Path
            name = Path(self.roster.path).name
            return [Item("roster-no-folder", {"who": person.who(), "roster": name})
                    for person in self.roster.without_folder(results)]
        return []


def fill_worksheet(text: str, results, comment_of, scale=None,
                   catalogue: Catalogue | None = None) -> tuple[str, list[str]]:
    """The worksheet with the results' grades, and what could not be matched or graded (one
    line each, from ``catalogue``, English by default).  ``comment_of(result)``: the feedback
    comment for a result; ``scale``: a ``handback.Scale`` (default: the worksheet's maximum
    grade).  A result without a grade (``grades.has_grade``) gets an empty grade cell, which
    Moodle's upload skips; so does every participant the matching leaves to a person
    (``handback.match_worksheet``)."""
    catalogue = catalogue or Catalogue("en")
    sheet = Worksheet(text)
    matching = match_worksheet(sheet, results)
    fill(sheet, matching, scale or Scale(), comment_of)
    return sheet.text(), [item.text(catalogue) for item in matching.left]


def feedback_zip(results, out: Path, catalogue: Catalogue,
                 sheet: Worksheet | None = None, roster=None) -> tuple[bytes, list[str]]:
    """The zip for "Upload multiple feedback files in a zip": each participant's
    ``OUT/<student>/feedback.html`` in a folder Moodle maps to the participant (with the
    worksheet ``sheet``, every member of a team gets the team's page), and what was left out
    (one line each, from ``catalogue``).  A folder that names no participant, several folders
    for one, and a team's folder without the worksheet are listed, never guessed; with the
    worksheet, what its matching leaves to a person is said with the worksheet's lines."""
    targets, left = zip_targets(results, sheet, roster)
    problems = [item.text(catalogue) for item in left]
    pages: dict[str, bytes | None] = {}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for result, name, number in targets:
            if result.student not in pages:
                pages[result.student] = feedback_page(out, result, catalogue, problems)
            data = pages[result.student]
            if data is None:
                continue
            # The name part as Moodle writes it ("_" never in it: the importer would read the
            # piece after one as the participant); the number and plugin are what it reads.
            folder = f"{name.replace('_', ' ').replace('/', ' ')}_{number}_assignfeedback_file_"
            zip_member(archive, f"{folder}/{FEEDBACK_FILE}", data, time.localtime()[:6])
    return buffer.getvalue(), problems
