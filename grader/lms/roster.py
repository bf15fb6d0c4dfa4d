"""The course's roster: which Moodle user each submission folder belongs to.

Moodle's gradebook import (Grades: Import: CSV file) finds a user by username, ID number or
email address, never by the name of a folder in the assignment's download.  The roster is a
CSV file the instructor exports from Moodle (the participants page, a gradebook export, or the
assignment's grading worksheet; English or German headers, comma or semicolon, with or without
a byte-order mark).  Each submission is matched, in this order:

1. by participant number, when the roster has a column of ``Participant 123456`` (the grading
   worksheet does) and the folder's name carries the number (Moodle's download);
2. by full name, when the folder is named like Moodle's download (``Max Mustermann_123456_
   assignsubmission_file_``) and exactly one person in the roster has that name (first and last
   name in either order; case, spacing and Moodle's ``_`` -> space do not count);
3. by the folder's name (an archive's without its suffix) equal to a username, ID number or
   email address in the roster.

What matches nothing or more than one person, and two submissions that match one person, are
never guessed: they are left out of the import and noted for a person.  Reading the roster never raises anything but ``RosterError``, whose
problems each say where (file:line), what and what to do.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

from ..notes import Note
from .moodle import (GROUP_HEADERS, MAXIMUM_HEADERS, PARTICIPANT, Maximum, folder_of,
                     normal_name, participant)

# Headers as Moodle writes them in English and German (compared without case and spaces at
# the ends), plus the obvious spellings of a hand-made list.
USERNAME = ("username", "user name", "anmeldename", "benutzername", "nutzername", "login")
IDNUMBER = ("id number", "idnumber", "id-nummer", "id nummer", "matrikelnummer",
            "matriculation number")
EMAIL = ("email address", "email", "e-mail", "e-mail address", "e-mail-adresse",
         "email-adresse", "mail")
FIRST = ("first name", "firstname", "given name", "vorname")
LAST = ("last name", "lastname", "surname", "family name", "nachname")
FULL = ("full name", "fullname", "vollständiger name", "name")
GROUPS = (*GROUP_HEADERS, "groups", "gruppen")   # the participants page says Groups/Gruppen
ROLES = ("roles", "rollen")
STUDENT_ROLES = ("student", "studierende", "teilnehmer/in", "schüler/in", "learner")

# What the gradebook import's "Map to" list calls each identifier, best first.
IDENTIFIERS = (("username", "Username"), ("idnumber", "ID number"), ("email", "Email address"))


class RosterError(ValueError):
    """Why a roster cannot be used: one line per problem (file:line: what; what to do)."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Person:
    line: int                   # the roster's line, for messages
    participant: str | None     # Moodle's participant number in this assignment
    username: str
    idnumber: str
    email: str
    names: tuple                # normalised full names this person answers to
    name: str = ""              # the full name as the roster writes it (for printed sheets)
    groups: tuple = ()          # normalised names of the person's groups
    maximum: Maximum | None = None   # the worksheet's "Maximum Grade" (a worksheet as roster)
    student: bool = True        # not a teacher (when the roster says roles)
    label: str = ""             # the person for people: the name, else an identifier

    def who(self) -> str:
        return self.label or self.username or self.email or self.idnumber or f"line {self.line}"


@dataclass(frozen=True)
class Roster:
    path: str
    people: tuple
    identifier: str             # "username" | "idnumber" | "email": the import's column
    has_participants: bool
    has_groups: bool = False

    @property
    def header(self) -> str:
        """The import column's header, as Moodle's own exports name that field."""
        return dict(IDENTIFIERS)[self.identifier]

    def match(self, display: str) -> tuple[Person | None, str]:
        """The person a submission (its display name) belongs to, or None and why not:
        ``participant``, ``name-mismatch``, ``name``, ``ambiguous``, ``folder``, ``team`` or
        ``no-identifier``."""
        found, why = self.members(display)
        if why:
            return None, why
        if len(found) != 1:
            return None, "team"
        return found[0], ""

    def members(self, display: str) -> tuple[tuple, str]:
        """Everyone a submission belongs to (a team's folder: every member of its group), or
        () and why not.  A folder's participant number counts only with the name it carries:
        the number of a team's folder is its group's id, which may be anyone's number."""
        folder = folder_of(display)
        if folder is not None and self.has_groups and (folder.number is None or not any(
                normal(folder.name) in p.names for p in self.people)):
            group = normal_name(folder.name)
            members = tuple(p for p in self.people if group in p.groups)
            if members:
                missing = [p for p in members if not getattr(p, self.identifier)]
                return ((), "no-identifier") if missing else (members, "")
        number = participant(display)
        if number is not None and self.has_participants:
            found = [p for p in self.people if p.participant == number]
            if len(found) == 1 and found[0].names and not folder.blind \
                    and normal(folder.name) not in found[0].names:
                return (), "name-mismatch"
            return self._all(found, "participant")
        if folder is not None:
            name = normal(folder.name)
            return self._all([p for p in self.people if name in p.names], "name")
        folder_name = normal(_without_archive_suffix(display), spaces=False)
        return self._all([p for p in self.people
                          if folder_name in (normal(p.username, spaces=False),
                                             normal(p.idnumber, spaces=False),
                                             normal(p.email, spaces=False))], "folder")

    def _all(self, found: list, why: str) -> tuple[tuple, str]:
        person, why = self._one(found, why)
        return ((person,), "") if person is not None else ((), why)

    def _one(self, found: list, why: str) -> tuple[Person | None, str]:
        if len(found) > 1:
            return None, "ambiguous"
        if not found:
            return None, why
        if not getattr(found[0], self.identifier):
            return None, "no-identifier"
        return found[0], ""

    def identifier_of(self, person: Person) -> str:
        return getattr(person, self.identifier)

    def assigned(self, results) -> dict:
        """Each result's student id -> (the people it grades, why not when none).  Two
        submissions that match one person are both left out (``several``): which one counts
        is for a person to decide."""
        matched = {result.student: self.members(result.display) for result in results}
        count: dict[int, int] = {}
        for people, _ in matched.values():
            for person in people:
                count[person.line] = count.get(person.line, 0) + 1
        return {student: ((), "several") if any(count[p.line] > 1 for p in people)
                else (people, why) for student, (people, why) in matched.items()}

    def people_of(self, results) -> dict:
        """Each result's student id -> (its one person or None, why not)."""
        return {student: (people[0] if len(people) == 1 else None,
                          why or ("" if len(people) == 1 else "team"))
                for student, (people, why) in self.assigned(results).items()}

    def annotated(self, results) -> list:
        """The results, each one the roster does not name with a note saying so (copies: the
        results themselves are left as they are)."""
        people = self.assigned(results)
        noted = []
        for result in results:
            found, why = people[result.student]
            if not found:
                result = replace(result, notes=[*result.notes, Note("not-in-roster", {
                    "display": result.display, "roster": Path(self.path).name, "why": why,
                    "identifier": self.header})])
            noted.append(result)
        return noted

    def without_folder(self, results) -> list:
        """The roster's students no submission grades (teachers left out where the roster
        says roles), for a person: each ends without a grade."""
        reached = {p.line for people, _ in self.assigned(results).values() for p in people}
        return [person for person in self.people
                if person.student and person.line not in reached]


def normal(text: str, spaces: bool = True) -> str:
    """A name as compared: NFC, without case; with ``spaces``, Moodle's "_" -> " " and runs of
    white space as one space."""
    text = unicodedata.normalize("NFC", text).casefold()
    if spaces:
        text = " ".join(text.replace("_", " ").split())
    return text.strip()


def _without_archive_suffix(name: str) -> str:
    for suffix in (".zip", ".tar.gz", ".tgz", ".tar"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def _column(header: list[str], names: tuple) -> int | None:
    return next((i for i, cell in enumerate(header) if cell in names), None)


def read_roster(path: str | Path) -> Roster:
    """The roster in ``path``; raises RosterError with every problem found."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise RosterError([f"{name}:1: not UTF-8 text; export it again from Moodle, or save it "
                           f"as \"CSV UTF-8\" in your spreadsheet program"]) from None
    except OSError as error:
        raise RosterError([f"{name}: cannot be read ({error.strerror or error}); check the "
                           f"path"]) from None
    first_line = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first_line.count)
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    except csv.Error as error:
        raise RosterError([f"{name}: not a CSV file ({error}); export the participants from "
                           f"Moodle as CSV"]) from None
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise RosterError([f"{name}:1: no header line; export the participants from Moodle as "
                           f"CSV (with the column names in the first line)"])
    header = [cell.strip().casefold() for cell in rows[0]]
    columns = {"username": _column(header, USERNAME), "idnumber": _column(header, IDNUMBER),
               "email": _column(header, EMAIL), "first": _column(header, FIRST),
               "last": _column(header, LAST), "full": _column(header, FULL),
               "groups": _column(header, GROUPS), "roles": _column(header, ROLES),
               "maximum": _column(header, MAXIMUM_HEADERS)}
    body = [(number, row) for number, row in enumerate(rows[1:], start=2)
            if any(cell.strip() for cell in row)]
    # The participant column holds "Participant 123456" (or "Teilnehmer/in 123456"): found by
    # its cells, as its header ("Identifier", "ID") says little.
    counts = [sum(1 for _, row in body if i < len(row) and _participant(row[i]))
              for i in range(len(header))]
    best = max(range(len(header)), key=lambda i: counts[i]) if header else None
    participant_column = best if best is not None and counts[best] else None

    problems = []
    if all(columns[kind] is None for kind, _ in IDENTIFIERS):
        problems.append(f"{name}:1: no column of usernames, ID numbers or email addresses "
                        f"(the headers are {', '.join(rows[0])}); export the participants "
                        f"with their username, ID number or email address (for example "
                        f"Grades: Export, or the participants page's download)")
    if not body:
        problems.append(f"{name}: holds no people below its header line; export the roster "
                        f"again")
    if problems:
        raise RosterError(problems)

    def cell(row, index):
        return row[index].strip() if index is not None and index < len(row) else ""

    people = []
    for number, row in body:
        first, last, full = (cell(row, columns[k]) for k in ("first", "last", "full"))
        names = {normal(n) for n in (full, f"{first} {last}", f"{last} {first}")
                 if normal(n)}
        roles = cell(row, columns["roles"]).casefold()
        people.append(Person(
            number, _participant(cell(row, participant_column)),
            cell(row, columns["username"]), cell(row, columns["idnumber"]),
            cell(row, columns["email"]), tuple(sorted(names)),
            full or f"{first} {last}".strip(),
            tuple(sorted({normal_name(group) for group in cell(row, columns["groups"])
                          .split(",") if normal_name(group)})),
            Maximum.parse(cell(row, columns["maximum"])),
            not roles or any(role in roles for role in STUDENT_ROLES),
            full or " ".join(part for part in (first, last) if part)))

    # One participant number or identifier on two lines: which line is meant is for a person.
    for kind in ("participant", "username", "idnumber", "email"):
        seen: dict = {}
        for person in people:
            value = getattr(person, kind)
            key = normal(value, spaces=False) if value else None
            if key and key in seen:
                problems.append(f"{name}:{person.line}: the {_described(kind)} {value} is "
                                f"also on line {seen[key]}; remove one of the two lines")
            elif key:
                seen[key] = person.line
    if problems:
        raise RosterError(problems)

    present = [kind for kind, _ in IDENTIFIERS if columns[kind] is not None]
    # The import maps one column to one field: the first kind that every person has, else
    # the first there is (a person without one is then left out of the import, with a note).
    identifier = next((kind for kind in present if all(getattr(p, kind) for p in people)),
                      present[0])
    return Roster(name, tuple(people), identifier, participant_column is not None,
                  columns["groups"] is not None)


def _participant(text: str) -> str | None:
    """The number in a worksheet's "Participant 123456" (English, German, French ...), or
    None; "Gruppe 12" or "Raum 3" in some other column is not one."""
    match = PARTICIPANT.match(text.strip())
    if match and match["prefix"].strip().casefold().startswith(("particip", "teilnehm")):
        return match["id"]
    return None


def _described(kind: str) -> str:
    return {"participant": "participant number", "username": "username",
            "idnumber": "ID number", "email": "email address"}[kind]
