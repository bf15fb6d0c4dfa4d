"""A check's verdict: whether it passed, its score, a message key and the facts the message
is rendered from (never prose: the words live in the message catalogue).

Its own module, below the registry (``grader/checks/__init__.py``) and every kind module:
the kinds, the grading and the hand exercises import it without importing the registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Verdict:
    check: Any               # tasks.Check
    passed: bool
    score: float
    reason: str              # message key, e.g. "value.wrong"
    facts: dict = field(default_factory=dict)

    @property
    def max_score(self) -> float:
        return self.check.points


def passed(check, reason: str = "ok", **facts) -> Verdict:
    return Verdict(check, True, check.points, reason, facts)


def failed(check, reason: str, **facts) -> Verdict:
    return Verdict(check, False, 0.0, reason, facts)
