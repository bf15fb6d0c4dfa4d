"""Notes for the instructor: things about a submission that a person should look at.

A note is not a verdict: it costs no points by itself.  It says that something about a
submission was unusual and was handled in a fixed way (two archives for one student graded
under two ids, a symbolic link ignored, a bytecode cache removed, code that reaches for the
grader's runner), so that the summary can list every submission that needs a person.

Notes are plain data (a catalogue key and JSON-able facts), written into results.json and the
state file and rendered from the message catalogue's ``note`` section.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Note:
    key: str                     # the entry in the catalogue's ``note`` section, e.g. "collision"
    facts: dict = field(default_factory=dict, compare=False, hash=False)  # plain JSON data

    def as_json(self) -> dict:
        return {"key": self.key, "facts": self.facts}

    @classmethod
    def from_json(cls, data: dict) -> "Note":
        return cls(str(data["key"]), dict(data.get("facts") or {}))


# Notes that say how a submission was read, not that anything is in doubt: it was graded as
# the student meant it (an uploaded archive unpacked, the one folder that holds the task's
# files, a file renamed to the case the task gives it, bytecode left out, a name kept away
# from the reports' own, an online text handed in beside the files).  The summary lists
# them apart; every other note needs a person.
HARMLESS = frozenset({"inner-archive", "subfolder", "case-renamed", "bytecode-ignored",
                      "reserved-name", "online-text"})


def needs_person(note: Note) -> bool:
    """Whether ``note`` is for a person to act on (not one of the ``HARMLESS`` ones)."""
    return note.key not in HARMLESS
