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
