"""Wall time of the bundled class tournament (``courses/turnier``: ten submissions and six
baselines, 16 players, a round robin), with one arena and with ``--jobs`` arenas, side by side.

    python bench/tournament.py [--pairs 2] [--jobs 2] [--runs 1]

Each run plays the whole tournament afresh (no --resume) into a temporary folder, once with
``jobs=1`` and once with ``--jobs``, the two taking turns to go first; it prints per run the
games, the wall time, games per second and the CPU seconds the students' children spent
thinking (the moves' own measurement), then the medians and the ratio.  It also says whether
both ways played the same games (the players are deterministic; only timeouts could differ on
a machine so busy that a move's CPU time crosses its limit).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.play.entrants import playable_task, setup_from_task, stage_entrants
from grader.play.tournament import run_tournament
from grader.sandbox.levels import best_level  # noqa: E402
from grader.tasks import load_course  # noqa: E402

TURNIER = ROOT / "courses" / "turnier"
BASELINES = ["random", "greedy", "alphabeta:1", "alphabeta:2", "alphabeta:3", "alphabeta:4"]


def play(setup, entrants, jobs: int) -> tuple:
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        outcome = run_tournament(setup, entrants, Path(out), jobs=jobs)
        wall = time.perf_counter() - started
    games = outcome.record["games"]
    thinking = sum(move.get("seconds", 0.0) for game in games
                   for move in game["replay"]["moves"])
    shape = [(g["a"], g["b"], g["game"], [m["action"] for m in g["replay"]["moves"]])
             for g in games]
    return len(games), wall, thinking, shape


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    course = load_course(TURNIER / "tasks")
    setup = setup_from_task(course, playable_task(course), pairs=args.pairs,
                            level=best_level())
    walls = {1: [], args.jobs: []}
    same = True
    with tempfile.TemporaryDirectory() as scratch:
        entrants, _ = stage_entrants(TURNIER / "submissions", Path(scratch),
                                     ("minimax", "evaluation"), BASELINES)
        for run in range(1, args.runs + 1):
            order = [1, args.jobs] if run % 2 else [args.jobs, 1]
            shapes = {}
            for jobs in order:
                games, wall, thinking, shapes[jobs] = play(setup, entrants, jobs)
                walls[jobs].append(wall)
                print(f"run {run}, jobs {jobs}: {games} games in {wall:.1f} s "
                      f"({games / wall:.2f} games/s); moves thought {thinking:.1f} CPU s",
                      flush=True)
            same &= shapes[1] == shapes[args.jobs]
    one, many = statistics.median(walls[1]), statistics.median(walls[args.jobs])
    print(f"16 players, {games} games, {setup.level}: jobs 1 {one:.1f} s, jobs {args.jobs} "
          f"{many:.1f} s (medians of {args.runs}), speed-up {one / many:.2f}x; "
          f"same games both ways: {'yes' if same else 'no'}")


if __name__ == "__main__":
    main()
