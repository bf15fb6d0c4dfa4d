"""Who plays whom in a class tournament: a full round robin, or Swiss rounds where a round
robin is too large.

A schedule is a list of ``Matchup``s: two players and the number of the *pair* they play
(a pair is two games from one random opening with the seats swapped, ``grader.play.referee``).
Every matchup with pair number ``k`` starts from the same opening (seeded by the tournament's
seed and ``k``), so all players meet the same openings: a shared opening favours no one.

* **Round robin** (the circle method): every player meets every other one in ``pairs``
  pairs; ``n - 1`` rounds of ``n / 2`` matchups (an odd field gets a bye per round).
  Rounds only order the games; the result does not depend on them.  ``n (n - 1) / 2``
  matchups: 120 for 16 players, 4,950 for 100.
* **Swiss**: a fixed number of rounds; each round pairs players with equal or close scores
  (by points so far, ties broken by a seeded shuffle, so the same results give the same
  pairings) who have not met yet, from the top down; in an odd field the lowest-placed player
  who has not had a bye sits out (a bye scores nothing: ratings count games only).  About
  ``log2(n)`` more rounds than needed to find a winner rank the field well enough for a
  leaderboard with intervals at ``rounds * n / 2`` matchups instead of ``n (n - 1) / 2``.
* **Sampled**: a fixed number of rounds of random pairings (seeded), without rematches while
  there are players not met yet: each player meets ``rounds`` others drawn at random, whatever
  the results (Swiss rounds without the scores).  Fewer games than a round robin, and unlike
  Swiss no player's opponents depend on how it did.

Pure functions of their arguments: a resumed tournament computes the same schedule again from
the same finished games.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

SCHEDULES = ("round-robin", "swiss", "sampled")
ROUNDED = ("swiss", "sampled")          # schedules played in a given number of rounds


@dataclass(frozen=True)
class Matchup:
    """``a`` and ``b`` play pair ``pair`` (from 1) in round ``round`` (from 1); in the pair's
    first game ``a`` moves first."""

    round: int
    a: str
    b: str
    pair: int

    @property
    def key(self) -> str:
        """What the journal knows this matchup by (player ids may hold any character)."""
        return json.dumps([self.round, self.a, self.b, self.pair])


def round_robin(players: list[str], pairs: int = 1) -> list[Matchup]:
    """Every player against every other one, ``pairs`` pairs each, round by round."""
    field = list(players)
    if len(set(field)) != len(field):
        raise ValueError("a player appears twice in the tournament")
    if len(field) % 2:
        field.append(None)               # a bye
    count = len(field)
    schedule = []
    for round_number in range(1, count):
        for i in range(count // 2):
            a, b = field[i], field[count - 1 - i]
            if a is None or b is None:
                continue
            if round_number % 2 == 0 and i == 0:
                a, b = b, a              # the fixed player does not always move first
            schedule.extend(Matchup(round_number, a, b, pair)
                            for pair in range(1, pairs + 1))
        # the circle method: the first player stays, the others turn one place
        field = [field[0], field[-1], *field[1:-1]]
    return schedule


def swiss_round(players: list[str], round_number: int, pairs: int, seed,
                scores: dict[str, float], met: set[frozenset], byes: set[str]) -> list[Matchup]:
    """The pairings of Swiss round ``round_number``: ``scores`` are the points so far,
    ``met`` the pairs of players that have played, ``byes`` who sat out before."""
    shuffled = list(players)
    random.Random(f"swiss/{seed}/{round_number}").shuffle(shuffled)
    order = sorted(shuffled, key=lambda player: -scores.get(player, 0.0))
    if len(order) % 2:
        sitting = next((p for p in reversed(order) if p not in byes), order[-1])
        order.remove(sitting)
    schedule = []
    waiting = order
    while waiting:
        first, rest = waiting[0], waiting[1:]
        # the best-placed opponent not met yet; everyone met: the best-placed one
        opponent = next((p for p in rest if frozenset((first, p)) not in met), rest[0])
        rest.remove(opponent)
        schedule.extend(Matchup(round_number, first, opponent, pair)
                        for pair in range(1, pairs + 1))
        waiting = rest
    return schedule


def swiss_sitting_out(players: list[str], schedule: list[Matchup]) -> set[str]:
    """Who has no game in ``schedule`` (a round's bye)."""
    playing = {m.a for m in schedule} | {m.b for m in schedule}
    return set(players) - playing
