"""What a class tournament writes: the journal as it goes (``OUT/games.jsonl``: a line that
fingerprints the tournament, then one line per finished matchup, flushed and synced, which
``--resume`` continues) and, at its end, the record the reports are made from
(``OUT/tournament.json``, of ``TOURNAMENT_FORMAT``)."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict
from pathlib import Path

from .entrants import Entrant, Setup, TournamentError
from .schedule import Matchup

TOURNAMENT_FORMAT = "gametree-grader tournament 1"
JOURNAL_FORMAT = "gametree-grader tournament journal 1"
JOURNAL = "games.jsonl"
RECORD = "tournament.json"


def fingerprint(setup: Setup, entrants: list[Entrant], tasks_hash: str) -> str:
    """What a resumed tournament must share with the journal it continues."""
    data = {"setup": {k: v for k, v in asdict(setup).items() if k != "level"},
            "players": [[e.id, e.kind, e.content] for e in entrants], "tasks": tasks_hash}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


class Journal:
    """``OUT/games.jsonl``: the fingerprint line, then one line per finished matchup."""

    def __init__(self, path: Path, fingerprint_: str, resume: bool):
        self.path = path
        self.finished: dict[str, list] = {}
        if resume and path.exists():
            self._read(fingerprint_)
            self.handle = open(path, "a", encoding="utf-8")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.handle = open(path, "w", encoding="utf-8")
            self._write({"format": JOURNAL_FORMAT, "fingerprint": fingerprint_})

    def _read(self, fingerprint_: str) -> None:
        lines = self.path.read_text(encoding="utf-8").splitlines()
        try:
            head = json.loads(lines[0]) if lines else {}
        except ValueError:
            head = {}
        if head.get("format") != JOURNAL_FORMAT or head.get("fingerprint") != fingerprint_:
            raise TournamentError(
                f"{self.path} belongs to another tournament (other task files, players, "
                f"submissions or options); run without --resume to start afresh, or give "
                f"another --out")
        for line in lines[1:]:
            try:
                entry = json.loads(line)
                self.finished[entry["key"]] = entry["games"]
            except (ValueError, KeyError, TypeError):
                continue        # a line cut short by an interruption: played again

    def _write(self, entry: dict) -> None:
        self.handle.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self.handle.flush()
        os.fsync(self.handle.fileno())

    def add(self, matchup: Matchup, games: list) -> None:
        self.finished[matchup.key] = games
        self._write({"key": matchup.key, "games": games})

    def close(self) -> None:
        self.handle.close()
