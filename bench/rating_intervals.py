"""How many games does a tournament need before its ratings tell players apart?

Simulates round robins between players of known strength and rates them with
``grader.play.ratings`` (openskill's Plackett-Luce model, intervals mu ± 1.96 sigma).  A
player's strength is an Elo-like number; player i beats player j with probability
1 / (1 + 10 ** ((s_j - s_i) / 400)), and a share ``--draws`` of all games is drawn.  For each
number of games per pair it prints, as medians over ``--runs`` seeded tournaments:

* the interval's half-width (1.96 sigma) of a player, in rating points (mu starts at 25);
* the share of pairs of *neighbouring* players (strengths ``--gap`` apart) that the ratings
  separate (``ratings.separated``: the difference beyond 1.96 of its standard deviation), the
  same for players three or more gaps apart, and the share of all pairs ordered as their
  strengths are;
* whether the whole leaderboard came out in the order of strength.

    python bench/rating_intervals.py                      # 8 players 100 Elo apart
    python bench/rating_intervals.py --players 16 --gap 200 --draws 0.1

Nothing here is timed; the figures depend only on the seeds.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader.play.ratings import leaderboard, rate, separated  # noqa: E402


def tournament(strengths: list[float], per_pair: int, draws: float, seed: int):
    """The games of one round robin, ``per_pair`` games per pair, seats alternating."""
    rng = random.Random(seed)
    names = [f"p{i:02d}" for i in range(len(strengths))]
    games = []
    for _ in range(per_pair // 2 or 1):
        for i, j in itertools.combinations(range(len(names)), 2):
            for first, second in ((i, j), (j, i)) if per_pair > 1 else ((i, j),):
                if rng.random() < draws:
                    result = 0.5
                else:
                    p_first = 1 / (1 + 10 ** ((strengths[second] - strengths[first]) / 400))
                    result = 1 if rng.random() < p_first else 0
                games.append((names[first], names[second], result))
    rng.shuffle(games)          # the schedule's order is not the strength order
    return names, games


def measure(players: int, gap: float, per_pair: int, draws: float, seed: int) -> dict:
    strengths = [gap * (players - 1 - i) for i in range(players)]   # p00 strongest
    names, games = tournament(strengths, per_pair, draws, seed)
    ratings = rate(games)
    neighbours = [separated(ratings[a], ratings[b]) for a, b in zip(names, names[1:])]
    pairs = list(itertools.combinations(names, 2))
    apart = [separated(ratings[names[i]], ratings[names[j]])
             for i, j in itertools.combinations(range(players), 2) if j - i >= 3]
    ordered = [ratings[a].mu > ratings[b].mu for a, b in pairs]
    return {"half_width": statistics.median(r.high - r.mu for r in ratings.values()),
            "separated": sum(neighbours) / len(neighbours),
            "three_apart": sum(apart) / len(apart) if apart else 1.0,
            "ordered": sum(ordered) / len(ordered),
            "exact_order": [r.player for r in leaderboard(ratings)] == names,
            "games": len(games)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--gap", type=float, default=100, help="Elo between neighbours")
    parser.add_argument("--draws", type=float, default=0.0)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--per-pair", type=int, nargs="*", default=[2, 4, 8, 16, 32, 64])
    args = parser.parse_args()
    print(f"{args.players} players, {args.gap:g} Elo apart, {args.draws:.0%} draws, "
          f"medians of {args.runs} seeded round robins")
    print(f"{'games/pair':>10} {'games':>7} {'±1.96σ':>8} {'neighbours apart':>17} "
          f"{'3+ gaps apart':>14} {'pairs in order':>15} {'exact order':>12}")
    for per_pair in args.per_pair:
        runs = [measure(args.players, args.gap, per_pair, args.draws, seed)
                for seed in range(args.runs)]
        print(f"{per_pair:>10} {runs[0]['games']:>7} "
              f"{statistics.median(r['half_width'] for r in runs):>8.2f} "
              f"{statistics.median(r['separated'] for r in runs):>17.0%} "
              f"{statistics.median(r['three_apart'] for r in runs):>14.0%} "
              f"{statistics.median(r['ordered'] for r in runs):>15.0%} "
              f"{sum(r['exact_order'] for r in runs) / len(runs):>12.0%}")


if __name__ == "__main__":
    main()
