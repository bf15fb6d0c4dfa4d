"""The leaderboard's rating model (openskill's Plackett-Luce, ``grader.play.ratings``) against a
Bradley-Terry fit of the same games: how many pairs of players each tells apart.

    pip install choix scipy numpy        # not the grader's dependencies: this bench only
    python bench/rating_models.py turnier/tournament.json [--alpha 0.1]

Reads a tournament's record (``grader tournament`` writes ``OUT/tournament.json``) and rates
its games twice:

* **openskill** as the leaderboard does (game by game in the schedule's order, no drift),
  a pair told apart by ``ratings.separated``;
* **Bradley-Terry**, the maximum a posteriori fit of all games at once by ``choix.opt_pairwise``
  (an L2 penalty ``alpha``, which keeps the strengths of players who lost every game finite;
  draws are left out, as choix's pairwise data has no draws), with intervals from the inverse
  of the penalised log-likelihood's Hessian; a pair told apart when the difference of the two
  strengths is more than 1.96 standard deviations of that difference (with their covariance).

It prints both leaderboards side by side and how many of the pairs each separates.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.play.ratings import leaderboard, rate, separated  # noqa: E402
from grader.play.tournament import rated_game  # noqa: E402

Z = 1.96


def bradley_terry(games: list, players: list, alpha: float):
    """``(strength, covariance)`` of the penalised fit (module docstring)."""
    import choix
    import numpy
    index = {player: number for number, player in enumerate(players)}
    data = [(index[first], index[second]) if points == 1 else (index[second], index[first])
            for first, second, points in games if points != 0.5]
    strength = choix.opt_pairwise(len(players), data, alpha=alpha)
    hessian = numpy.eye(len(players)) * alpha
    for winner, loser in data:
        p = 1 / (1 + math.exp(strength[loser] - strength[winner]))
        weight = p * (1 - p)
        hessian[winner, winner] += weight
        hessian[loser, loser] += weight
        hessian[winner, loser] -= weight
        hessian[loser, winner] -= weight
    return strength, numpy.linalg.inv(hessian)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record", type=Path)
    parser.add_argument("--alpha", type=float, default=0.1)
    args = parser.parse_args()
    record = json.loads(args.record.read_text(encoding="utf-8"))
    games = [rated_game(game) for game in record["games"]]
    players = [player["id"] for player in record["players"]]
    ratings = rate(games, players=players)
    strength, covariance = bradley_terry(games, players, args.alpha)
    index = {player: number for number, player in enumerate(players)}

    def apart(a: str, b: str) -> bool:
        i, j = index[a], index[b]
        spread = covariance[i, i] + covariance[j, j] - 2 * covariance[i, j]
        return abs(strength[i] - strength[j]) > Z * math.sqrt(spread)
    by_strength = sorted(players, key=lambda p: -strength[index[p]])
    print(f"{'openskill (mu ± 1.96 sigma)':38s}  Bradley-Terry (strength ± 1.96 sd)")
    for rating, player in zip(leaderboard(ratings), by_strength):
        sd = math.sqrt(covariance[index[player], index[player]])
        print(f"{rating.player:14s} {rating.mu:6.1f} ± {rating.z * rating.sigma:4.1f}"
              f"{'':12s}  {player:14s} {strength[index[player]]:6.2f} ± {Z * sd:4.2f}")
    pairs = [(a, b) for number, a in enumerate(players) for b in players[number + 1:]]
    told = sum(separated(ratings[a], ratings[b]) for a, b in pairs)
    told_bt = sum(apart(a, b) for a, b in pairs)
    print(f"pairs told apart: openskill {told} of {len(pairs)}, Bradley-Terry {told_bt} of "
          f"{len(pairs)} ({len(games)} games, alpha {args.alpha})")


if __name__ == "__main__":
    main()
