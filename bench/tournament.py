"""Wall time of the bundled class tournament (``courses/turnier``: ten submissions and six
baselines, 16 players, a round robin), with one arena and with ``--jobs`` arenas, side by side.

    python bench/tournament.py [--pairs 2] [--jobs 2] [--runs 1]
    python bench/tournament.py --only-jobs --tasks tests/data/tournament/turnier-tiefe-2.yaml \
        --players fenster,null,zufall,verkehrt,absturz,endlos,text \
        --baselines random,alphabeta:1,alphabeta:2,alphabeta:4 --move-seconds 0.3

The second form plays with ``--jobs`` arenas only, here as tests/test_tournament.py does
(``--tasks`` another task file, ``--players`` some of the course's submissions,
``--move-seconds`` another limit); give two settings to compare as alternate calls.

Where the time goes: after each run, per player, its moves, the CPU time a move took on
average (a student's in its sandboxed child, a baseline's in the arena's own process), its
forfeits and the CPU time of the moves it forfeited with, and the sum of all of them.

Each run plays the whole tournament afresh (no --resume) into a temporary folder, once with
``jobs=1`` and once with ``--jobs``, the two taking turns to go first; it prints per run the
games, the wall time, games per second and the CPU seconds the students' children spent
thinking (the moves' own measurement), then the medians and the ratio.  It also says whether
both ways played the same games (the players are deterministic; only timeouts could differ on
a machine so busy that a move's CPU time crosses its limit).
"""

from __future__ import annotations

import argparse
import shutil
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


def costs(games: list) -> str:
    """Per player: moves, CPU milliseconds a move, forfeits and their CPU; the total."""
    moves, thought, forfeits, forfeited = {}, {}, {}, {}
    for game in games:
        replay = game["replay"]
        for move in replay["moves"]:
            if move.get("opening"):
                continue
            name = replay["players"][move["player"]]["name"]
            moves[name] = moves.get(name, 0) + 1
            thought[name] = (thought.get(name, 0.0) + move.get("seconds", 0.0)
                             + move.get("between", 0.0))
        if replay["forfeit"]:
            name = replay["players"][replay["forfeit"]["player"]]["name"]
            forfeits[name] = forfeits.get(name, 0) + 1
            forfeited[name] = forfeited.get(name, 0.0) + replay["forfeit"].get("seconds", 0.0)
    names = sorted(set(thought) | set(forfeited),
                   key=lambda n: -(thought.get(n, 0.0) + forfeited.get(n, 0.0)))
    lines = [f"  {name:14s} {moves.get(name, 0):5d} moves, "
             f"{1000 * thought.get(name, 0.0) / max(1, moves.get(name, 0)):6.1f} ms a move; "
             f"{forfeits.get(name, 0):3d} forfeits, {forfeited.get(name, 0.0):5.1f} s"
             for name in names]
    total = sum(thought.values()) + sum(forfeited.values())
    return "\n".join(lines + [f"  all moves and forfeits: {total:.1f} CPU s"])


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
    print(costs(games), flush=True)
    return len(games), wall, thinking, shape


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--only-jobs", action="store_true",
                        help="play with --jobs arenas only, not also with one")
    parser.add_argument("--tasks", type=Path, default=TURNIER / "tasks",
                        help="the task file or folder whose game is played")
    parser.add_argument("--players", help="the course's submissions to play (names, comma "
                                          "separated; default all)")
    parser.add_argument("--baselines", default=",".join(BASELINES))
    parser.add_argument("--move-seconds", type=float, help="instead of the task file's")
    args = parser.parse_args()
    course = load_course(args.tasks)
    setup = setup_from_task(course, playable_task(course), pairs=args.pairs,
                            move_seconds=args.move_seconds, level=best_level())
    walls = {1: [], args.jobs: []}
    same = True
    with tempfile.TemporaryDirectory() as scratch:
        submissions = TURNIER / "submissions"
        if args.players:
            submissions = Path(scratch) / "players"
            for name in args.players.split(","):
                shutil.copytree(TURNIER / "submissions" / name, submissions / name)
        entrants, _ = stage_entrants(submissions, Path(scratch) / "staged",
                                     ("minimax", "evaluation"), args.baselines.split(","))
        if args.only_jobs:
            for run in range(1, args.runs + 1):
                games, wall, thinking, _ = play(setup, entrants, args.jobs)
                walls[args.jobs].append(wall)
                print(f"run {run}, jobs {args.jobs}: {games} games in {wall:.1f} s "
                      f"({games / wall:.2f} games/s)", flush=True)
            print(f"{len(entrants)} players, {games} games, {setup.level}, depth "
                  f"{setup.depth}, {setup.move_seconds} s a move: jobs {args.jobs} "
                  f"{statistics.median(walls[args.jobs]):.1f} s (median of {args.runs})")
            return
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
    print(f"{len(entrants)} players, {games} games, {setup.level}: jobs 1 {one:.1f} s, "
          f"jobs {args.jobs} {many:.1f} s (medians of {args.runs}), speed-up {one / many:.2f}x; "
          f"same games both ways: {'yes' if same else 'no'}")


if __name__ == "__main__":
    main()
