"""A series of games that a check kind asks the grading to play: the student's search against
one baseline, in pairs with the seats swapped (issue 13, step 2).

A check kind that grades by play (``grader/checks/match.py``) declares ``series(task, check)``
next to ``calls(task, check)``: plain data (a ``Series``), the same for every submission, as a
``Call`` is.  The grading (``grader.grading.grade_submission``) plays each planned series with
the submission's own run (its sandboxed child, budget and output) through the referee, and
keeps the record ``play_series`` returns as the check's observation; the check's ``judge``
then reads the record only, as a pure function.

The record is plain JSON::

    {"format": "gametree-grader series 1", "opponent": "alphabeta:2",
     "games": [replay, replay, ...]}                # grader.play.referee's replays, in order

In the games of odd number (1, 3, ...) the student moves first, in the others the opponent;
pair ``k`` (from 1) plays from the random opening seeded ``"{seed}/{k}"``.

A ``rating`` check also needs the baselines' games among themselves: a ``RoundRobin``, plain
data as well, which ``grader.answers.compute`` plays once per task in the parent as a reference answer
(no student code is involved).

**Early stopping** (``stop_early``, the match check's option): after each pair the shares of
the pairs so far go through the sequential test of ``grader.play.sprt`` for each of the
series' ``thresholds`` (shares), and the series stops once every one is decided.  The record
then also holds ``"planned"`` (the games the series would have played) and ``"decisions"``
(each threshold's: ``above``, ``below`` or ``open``, after the last pair played).  The same
seeds give the same games and so the same stopping point.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from ..calls import canonical
from . import sprt

SERIES_FORMAT = "gametree-grader series 1"


@dataclass(frozen=True)
class Series:
    """What to play: ``games`` (even) games of the task's game (``spec``: canonical JSON)
    between the student's ``module.function`` (called with ``depth``; ``evaluation``: the
    student's own heuristic, ``"evaluation.evaluate"``, or None for the game's) and the
    baseline ``opponent``, each pair from ``opening`` random plies, with ``move_seconds`` and
    ``game_seconds`` of CPU time per move and per game for each player; with ``stop_early``,
    stopped once the sequential test has decided each of ``thresholds`` (module docstring).
    """

    spec: str
    module: str
    function: str
    depth: int | None
    evaluation: str | None
    opponent: str
    games: int
    opening: int
    seed: int
    move_seconds: float
    game_seconds: float
    stop_early: bool = False
    thresholds: tuple = ()      # shares the sequential test decides (with stop_early only)
    margin: float = 0.05        # the test's margin either side of a threshold (grader.play.sprt)

    def key(self) -> str:
        """Tells series apart in a plan, as ``Call.key`` tells calls apart (never equal to a
        call's key)."""
        return "series:" + canonical(asdict(self))

    def pair_seed(self, pair: int) -> str:
        """The seed of pair ``pair`` (from 1): its opening and the random baseline's moves."""
        return f"{self.seed}/{pair}"


def play_series(series: Series, run, name: str = "student") -> dict:
    """Plays ``series`` with the submission's ``run`` (``grader.sandbox.run.SubmissionRun``, entered)
    against its baseline, and returns the record (module docstring)."""
    from . import Limits, SandboxedPlayer, baseline, play_pair
    player = SandboxedPlayer(run.submission, module=series.module, function=series.function,
                             depth=series.depth, evaluation=series.evaluation, name=name,
                             run=run)
    opponent = baseline(series.opponent)
    limits = Limits(move_seconds=series.move_seconds, game_seconds=series.game_seconds)
    spec = json.loads(series.spec)
    games, shares = [], []
    test = sprt.Test(margin=series.margin)
    # Each game asks a search that timed out in an earlier game again; the run's other calls
    # keep what they knew before the match: a function that timed out in an ordinary check
    # is still not called again there (its later calls fail as "after-timeout").
    timed_out = dict(run.timed_out)
    try:
        for pair in range(1, series.games // 2 + 1):
            result = play_pair(spec, player, opponent, series.pair_seed(pair),
                               opening=series.opening, limits=limits)
            games.extend(game.replay for game in result.games)
            shares.append(result.score / 2)
            if series.stop_early and sprt.settled(shares, series.thresholds, test):
                break
    finally:
        run.timed_out.clear()
        run.timed_out.update(timed_out)
    record = {"format": SERIES_FORMAT, "opponent": series.opponent, "games": games}
    if series.stop_early:
        record.update(planned=series.games,
                      decisions=sprt.decisions(shares, series.thresholds, test))
    return record


ROUND_ROBIN_FORMAT = "gametree-grader round robin 1"


@dataclass(frozen=True)
class RoundRobin:
    """The baselines' games among themselves (a ``rating`` check's reference answer): every
    two of ``opponents`` play ``games`` games (pairs, the seats swapped), pair ``k`` from the
    same random opening as the student's pair ``k`` (``Series.pair_seed``).

    Trusted code in the parent, computed once per task (``grader.answers.compute``, and kept in the
    answer cache): no student is involved, so the games depend only on the seeds.  The
    baselines play without a time limit here, so that a slow machine cannot make one forfeit
    and change the answer; their moves are the same as under a limit they keep."""

    spec: str
    opponents: tuple
    games: int
    opening: int
    seed: int

    def key(self) -> str:
        """Tells round robins apart from calls and series in the answer book and its cache."""
        return "round-robin:" + canonical(asdict(self))

    def pair_seed(self, pair: int) -> str:
        return f"{self.seed}/{pair}"

    def play(self) -> dict:
        """The record: ``{"format", "opponents", "games": [replay, ...]}``, the pairings in
        the order of ``opponents`` (the first against the second, the third, ...; then the
        second against the third, ...), in each the earlier-named baseline first in the odd
        games."""
        from . import Limits, baseline, play_pair
        spec = json.loads(self.spec)
        unlimited = Limits(move_seconds=UNLIMITED_SECONDS, game_seconds=UNLIMITED_SECONDS)
        games = []
        for first_index, first in enumerate(self.opponents):
            for second in self.opponents[first_index + 1:]:
                with baseline(first) as one, baseline(second) as other:
                    for pair in range(1, self.games // 2 + 1):
                        result = play_pair(spec, one, other, self.pair_seed(pair),
                                           opening=self.opening, limits=unlimited)
                        games.extend(game.replay for game in result.games)
        return {"format": ROUND_ROBIN_FORMAT, "opponents": list(self.opponents),
                "games": games}


# A baseline's move in the reference round robin is not timed out (RoundRobin's docstring).
UNLIMITED_SECONDS = 1e9
