"""A class tournament (``grader tournament``): every submission's search with its evaluation
function, and the built-in baselines, play each other; the games are rated with
uncertainty and written as a leaderboard, ``ratings.csv`` and one page per player.

The flow:

1. **Players.** Each submission is staged into a private copy
   (``grader.submissions.staging.stage``: the one place that opens what students handed in);
   one whose copy cannot be made is left out and listed.  The baselines
   (``grader.play.players.baseline``) join by name.
2. **Schedule** (``grader.play.schedule``): a round robin, Swiss rounds, or rounds of
   random opponents.
3. **Games.** Each matchup is one pair of games (``grader.play.referee.play_pair``), played by
   an *arena*: a process that keeps each player's sandboxed child (``SandboxedPlayer``) for
   the matchups it plays there (the child is restarted after a crash or timeout, as in
   grading).  ``--jobs N`` runs N arenas in worker processes; the referee and the baselines
   are Python in the arena, the students' searches run in their children.
4. **Journal.** Every finished matchup's games are appended to ``OUT/games.jsonl`` at once
   (flushed and synced), after a first line that fingerprints the tournament (the task
   files, the players' content, the options).  ``--resume`` reads it and plays only the
   matchups not in it; a journal of a different tournament is refused, not mixed in.
5. **Ratings** (``grader.play.ratings.rate``) from all games in the schedule's order (not the
   order they finished in), so the same games always give the same ratings.
6. **Reports** (``grader.report.tournament``): ``leaderboard.html``, ``ratings.csv``,
   ``players/*.html``, and ``tournament.json``: the record they are made from.

A player that crashes, hangs or answers an illegal move loses that game, with the reason in
its replay; the tournament goes on.  A matchup the arena itself fails on (a bug, a worker
that died) is listed as an error and not rated; ``--resume`` tries it again.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .arena import LocalPlay
from .entrants import Entrant, Setup, TournamentError
from .record import JOURNAL, TOURNAMENT_FORMAT, Journal, fingerprint
from .referee import POINTS
from .schedule import ROUNDED, Matchup, round_robin, swiss_round, swiss_sitting_out


@dataclass
class Progress:
    """What the caller hears: ``announce(total, already)`` once per batch of matchups, then
    ``played(matchup, outcome)`` per matchup."""

    announce: object = None
    played: object = None


@dataclass
class Outcome:
    record: dict
    ratings: dict
    errors: list = field(default_factory=list)


def run_tournament(setup: Setup, entrants: list[Entrant], out: Path, *, jobs: int = 1,
                   resume: bool = False, tasks_hash: str = "", left_out: list | None = None,
                   progress: Progress | None = None, executor=None) -> Outcome:
    """Plays the tournament (module docstring), writes the journal as it goes, and returns
    the record and the ratings; the caller writes the reports."""
    from .ratings import rate
    progress = progress or Progress()
    started = time.monotonic()
    ids = [entrant.id for entrant in entrants]
    if len(ids) < 2:
        raise TournamentError("a tournament needs at least two players")
    journal = Journal(Path(out) / JOURNAL, fingerprint(setup, entrants, tasks_hash), resume)
    play = executor or LocalPlay(setup, entrants, jobs)
    schedule: list[Matchup] = []
    errors: list = []
    complete = False
    try:
        rounds = ([round_robin(ids, setup.pairs)] if setup.schedule not in ROUNDED
                  else range(1, setup.rounds + 1))
        for this_round in rounds:
            if setup.schedule in ROUNDED:
                scores, met, byes = _swiss_standing(ids, schedule, journal.finished)
                if setup.schedule == "sampled":
                    scores = {}             # random pairings, whatever the results
                this_round = swiss_round(ids, this_round, setup.pairs, setup.seed, scores,
                                         met, byes)
            schedule.extend(this_round)
            pending = [m for m in this_round if m.key not in journal.finished]
            if progress.announce:
                progress.announce(len(this_round), len(this_round) - len(pending))
            for matchup, outcome in play.play(pending):
                if "games" in outcome:
                    journal.add(matchup, outcome["games"])
                else:
                    errors.append({"matchup": asdict(matchup), "error": outcome["error"]})
                if progress.played:
                    progress.played(matchup, outcome)
        complete = not errors
    finally:
        if executor is None:
            play.close()
        journal.close()
        games = [{"round": m.round, "a": m.a, "b": m.b, "pair": m.pair, "game": number,
                  "replay": replay}
                 for m in schedule for number, replay in
                 enumerate(journal.finished.get(m.key, ()), 1)]
        record = {"format": TOURNAMENT_FORMAT, "title": setup.title,
                  "language": setup.language, "task": setup.task, "game": setup.spec,
                  "schedule": {"kind": setup.schedule, "pairs": setup.pairs,
                               "opening": setup.opening, "seed": setup.seed,
                               "rounds": (setup.rounds if setup.schedule in ROUNDED else
                                          max((m.round for m in schedule), default=0))},
                  "limits": {"move_seconds": setup.move_seconds,
                             "game_seconds": setup.game_seconds},
                  "players": [entrant.describe(setup) for entrant in entrants],
                  "left_out": list(left_out or ()), "errors": errors, "games": games,
                  "complete": complete, "wall_seconds": round(time.monotonic() - started, 1)}
    ratings = rate([rated_game(game) for game in games], players=ids)
    return Outcome(record, ratings, errors)


def seated(a: str, b: str, number: int, replay: dict) -> tuple:
    """``(first, second, points of first)`` of game ``number`` (1 or 2) of a pair of ``a``
    and ``b``: in a pair's first game ``a`` moved first."""
    first, second = (a, b) if number == 1 else (b, a)
    return first, second, POINTS[replay["result"]]


def rated_game(game: dict) -> tuple:
    """A game of the record as ``ratings.rate`` takes it (``seated``)."""
    return seated(game["a"], game["b"], game["game"], game["replay"])


def _swiss_standing(ids: list[str], schedule: list[Matchup], finished: dict) -> tuple:
    """``(scores, met, byes)`` after the rounds in ``schedule``."""
    scores: dict[str, float] = {}
    met: set = set()
    for matchup in schedule:
        met.add(frozenset((matchup.a, matchup.b)))
        for number, replay in enumerate(finished.get(matchup.key, ()), 1):
            first, second, points = seated(matchup.a, matchup.b, number, replay)
            scores[first] = scores.get(first, 0.0) + points
            scores[second] = scores.get(second, 0.0) + 1.0 - points
    byes: set = set()
    for number in sorted({m.round for m in schedule}):
        byes |= swiss_sitting_out(ids, [m for m in schedule if m.round == number])
    return scores, met, byes
