"""Ratings with uncertainty from the results of games, for a class tournament's leaderboard.

A rating library does the statistics: openskill's Plackett-Luce model (for two players, the
Bradley-Terry model with Gaussian uncertainty).  Every player starts at the same prior
(``mu`` 25, ``sigma`` 25/3); each game moves the two players' estimates and shrinks their
uncertainty.  Games are rated in the order given, which a tournament fixes by its schedule, so
the same games always give the same ratings.  A submission does not learn during a
tournament: no drift is added between games (``tau`` = 0), so the uncertainty keeps shrinking
as games are added.

A rating is shown as ``mu ± z*sigma`` (``z`` = 1.96: an interval of about 95 %), and two
players count as *separated* when the difference of their skills is larger than ``z`` times
its standard deviation.  ``bench/rating_intervals.py``
measures how many games a round robin needs for intervals of a given width, and how often
players of known different strength come out separated and in the right order.

Parent side only; the players' replies never reach this module, only the referee's results.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

Z_95 = 1.96          # an interval of about 95 % of a normal distribution


@dataclass(frozen=True)
class Rating:
    player: str
    mu: float              # the estimated skill
    sigma: float           # its uncertainty (a standard deviation)
    games: int
    wins: int
    draws: int
    losses: int
    z: float = Z_95

    @property
    def low(self) -> float:
        return self.mu - self.z * self.sigma

    @property
    def high(self) -> float:
        return self.mu + self.z * self.sigma

    @property
    def points(self) -> float:
        """Points as chess counts them: 1 a win, 1/2 a draw."""
        return self.wins + self.draws / 2


def rate(games: Iterable[tuple[str, str, float]], players: Iterable[str] = (),
         z: float = Z_95) -> dict[str, Rating]:
    """The ratings after ``games``: ``(first, second, result)`` with ``result`` 1 when the
    first player won, 0.5 for a draw and 0 when the second won (the referee's view of the
    first player).  ``players``: players to list even without a game (at the prior)."""
    from openskill.models import PlackettLuce
    model = PlackettLuce(tau=0)
    ratings, records = {}, {}

    def known(name):
        if name not in ratings:
            ratings[name] = model.rating(name=name)
            records[name] = [0, 0, 0]           # wins, draws, losses
        return ratings[name]

    for name in players:
        known(name)
    for first, second, result in games:
        if first == second:
            raise ValueError(f"{first!r} cannot play against itself")
        if result not in (0, 0.5, 1):
            raise ValueError(f"a result is 1, 0.5 or 0 (from {first!r}'s view), not {result!r}")
        # ranks: the lower the better; equal ranks for a draw
        ranks = [0, 0] if result == 0.5 else ([0, 1] if result == 1 else [1, 0])
        [[ratings[first]], [ratings[second]]] = model.rate([[known(first)], [known(second)]],
                                                            ranks=ranks)
        outcome = {1: (0, 2), 0.5: (1, 1), 0: (2, 0)}[result]
        records[first][outcome[0]] += 1
        records[second][outcome[1]] += 1
    return {name: Rating(name, rating.mu, rating.sigma, sum(records[name]), *records[name], z=z)
            for name, rating in ratings.items()}


def leaderboard(ratings: dict[str, Rating]) -> list[Rating]:
    """Best first: by ``mu``, then by points, then by name (a fixed order for ties)."""
    return sorted(ratings.values(), key=lambda r: (-r.mu, -r.points, r.player))


def separated(a: Rating, b: Rating) -> bool:
    """Whether the tournament tells the two players apart: the difference of their skills is
    more than ``z`` of its standard deviation (``sqrt(sigma_a² + sigma_b²)``), at about 95 %
    for the default ``z``.  (Two intervals that do not overlap is a stricter test: shown
    intervals may touch although the difference is clear.)"""
    return abs(a.mu - b.mu) > a.z * math.hypot(a.sigma, b.sigma)
