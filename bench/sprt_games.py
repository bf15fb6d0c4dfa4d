"""How many games does a match's early stopping (``stop_early``, ``grader.play.sprt``) save,
and how often does it end with other points than the full series would have?

Simulates series of seat-swapped pairs between a student of a known true share of the points
and a baseline: each game is won with probability ``share - draws/2``, drawn with
``draws`` and otherwise lost (so the expected share is ``share``).  The stopping rule is the
grading's own: ``grader.play.sprt.settled`` after each pair on the pairs' shares, with the
match's thresholds and margin.  For each true share it prints, over ``--runs`` seeded series:

* the mean games played with ``stop_early`` (without: always ``--games``);
* how often the points differ from those of the full series of the same games (the stopped
  series is a prefix of it), and how often they differ from the points the true share
  deserves (the highest threshold at or below it), with and without stopping.

    python bench/sprt_games.py                       # the spiel course's thresholds, 20 games
    python bench/sprt_games.py --games 40 --margin 0.1 --draws 0.2

Nothing here is timed; the figures depend only on the seeds.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader.play import sprt  # noqa: E402


def pair_shares(share: float, draws: float, pairs: int, rng: random.Random) -> list[float]:
    """The shares of ``pairs`` pairs of two independent games each."""
    win = share - draws / 2
    if win < 0 or win + draws > 1:
        raise ValueError(f"a share of {share} cannot come with {draws} draws")
    shares = []
    for _ in range(pairs):
        points = 0.0
        for _ in range(2):
            roll = rng.random()
            points += 1.0 if roll < win else 0.5 if roll < win + draws else 0.0
        shares.append(points / 2)
    return shares


def points(shares: list[float], thresholds: list[tuple[float, float]]) -> float:
    """The match's rule: the highest threshold the observed share reaches."""
    total = sum(shares)
    reached = [worth for threshold, worth in thresholds
               if total >= threshold * len(shares) - 1e-9]
    return reached[-1] if reached else 0.0


def stopped(shares: list[float], thresholds: list[float], test: sprt.Test) -> list[float]:
    """The pairs a series with ``stop_early`` plays of ``shares`` (play_series's rule)."""
    for played in range(1, len(shares) + 1):
        if sprt.settled(shares[:played], thresholds, test):
            return shares[:played]
    return shares


def row(share: float, args, test: sprt.Test, thresholds) -> dict:
    rng = random.Random(f"sprt-bench/{share}/{args.seed}")
    deserved = points([share], thresholds)
    games = differs = wrong_full = wrong_early = 0
    for _ in range(args.runs):
        full = pair_shares(share, args.draws, args.games // 2, rng)
        early = stopped(full, [t for t, _ in thresholds], test)
        games += 2 * len(early)
        differs += points(early, thresholds) != points(full, thresholds)
        wrong_full += points(full, thresholds) != deserved
        wrong_early += points(early, thresholds) != deserved
    return {"share": share, "games": games / args.runs, "differs": differs / args.runs,
            "wrong_full": wrong_full / args.runs, "wrong_early": wrong_early / args.runs}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games planned (even)")
    parser.add_argument("--thresholds", default="0.1:1,0.3:2,0.45:3",
                        help="share:points,... (default: the spiel course's)")
    parser.add_argument("--shares", default="0,0.05,0.2,0.3,0.4,0.45,0.5,0.6,0.8,1",
                        help="the students' true shares of the points")
    parser.add_argument("--margin", type=float, default=sprt.DEFAULT_MARGIN)
    parser.add_argument("--draws", type=float, default=0.0, help="share of drawn games")
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    thresholds = [tuple(float(v) for v in part.split(":"))
                  for part in args.thresholds.split(",")]
    test = sprt.Test(margin=args.margin)
    print(f"{args.games} games planned, thresholds {args.thresholds}, margin {args.margin}, "
          f"draws {args.draws}, {args.runs} runs per share")
    print("| true share | mean games with stop_early | points differ from the full series "
          "| points not the deserved ones: full / stop_early |")
    print("|---|---|---|---|")
    for share in (float(v) for v in args.shares.split(",")):
        if share - args.draws / 2 < 0 or share + args.draws / 2 > 1:
            continue
        found = row(share, args, test, thresholds)
        print(f"| {share:.2f} | {found['games']:.1f} of {args.games} | "
              f"{100 * found['differs']:.1f} % | {100 * found['wrong_full']:.1f} % / "
              f"{100 * found['wrong_early']:.1f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
