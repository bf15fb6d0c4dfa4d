"""Grading one batch on several machines: which submissions belong to which shard.

``grader grade --shard K/N`` grades the submissions of shard K of N: those whose *shard key*
(the entry's own name in the submissions folder without its archive suffix, as raw bytes)
hashes (SHA-256) to K.  A submission's shard depends on its own name only, so adding or
removing a student never moves anyone else to another shard, and every machine that sees the
same folder makes the same split.  The report id is not the key: ``anna.zip`` is graded as
``anna~2`` once ``anna.tar`` is added, but both still have the key ``anna``.

Every shard lists the *whole* submissions folder before it selects its share, so ids and
collision notes are those of a single run, and ``Shard.record`` (kept in the shard's
``.batch.json``) says what that listing held, so that ``grader.merge`` can tell shards of
different folders apart.  Merging the shards' reports is ``grader.merge``'s business.

What it must never do: depend on anything but a submission's own name (the process, the
order of the listing, the other submissions), or open a submission.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass

from .submissions.finding import Submission
from .submissions.names import archive_stem


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``count`` (both counted from 1, as job arrays and CI do).

    >>> Shard(2, 4)
    Shard(2/4)
    """
    index: int
    count: int

    def __post_init__(self):
        if not 1 <= self.index <= self.count:
            raise ValueError(f"shard {self.index}/{self.count}: K must be between 1 and N")

    def __repr__(self) -> str:
        return f"Shard({self})"

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, submission: Submission) -> bool:
        return in_shard(shard_key(submission), self.index, self.count)

    def select(self, submissions: list[Submission]) -> list[Submission]:
        return [submission for submission in submissions if self.holds(submission)]

    def record(self, listed: list[Submission], selected: list[Submission]) -> dict:
        """What ``merge`` checks: which shard, and what the whole listing held."""
        return {"index": self.index, "count": self.count, "listed": len(listed),
                "listing": listing_digest(listed), "selected": len(selected)}


def parse_shard(text: str) -> Shard:
    """``"K/N"`` -> ``Shard(K, N)``; a ``ValueError`` that says what is wrong otherwise.

    >>> parse_shard("3/4")
    Shard(3/4)
    """
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not match:
        raise ValueError(f"{text!r} is not K/N: give the shard's number K and the number of "
                         "shards N, e.g. --shard 1/4 (K from 1 to N)")
    index, count = int(match[1]), int(match[2])
    if count < 1:
        raise ValueError(f"{text!r}: the number of shards N must be at least 1")
    if not 1 <= index <= count:
        raise ValueError(f"{text!r}: K must be between 1 and N={count} (shards are counted "
                         f"from 1, as in --shard 1/{count} ... {count}/{count})")
    return Shard(index, count)


def shard_key(submission: Submission) -> bytes:
    """The entry's name in the submissions folder without an archive suffix, as raw bytes:
    depends on nothing but the entry itself (the report id can change when another entry
    collides with it)."""
    name = archive_stem(submission.source) or submission.source.name
    try:
        return os.fsencode(name)
    except UnicodeEncodeError:          # a lone surrogate no file name can hold
        return name.encode("utf-8", "surrogatepass")


def in_shard(key: str | bytes, index: int, count: int) -> bool:
    """Whether ``key`` belongs to shard ``index`` of ``count`` (1-based).  SHA-256, not
    Python's ``hash``, which differs from process to process."""
    if isinstance(key, str):
        key = key.encode("utf-8", "surrogateescape")
    number = int.from_bytes(hashlib.sha256(key).digest()[:8], "big")
    return number % count == index - 1


def listing_digest(listed: list[Submission]) -> str:
    """The whole listing's report ids: shards that saw different folders differ here."""
    ids = "\n".join(submission.student for submission in listed)
    return hashlib.sha256(ids.encode("utf-8", "surrogateescape")).hexdigest()
