"""Games per second of Connect Four (7x6) between two depth-4 alpha-beta players, each in its
own sandboxed child, against the same two searches in one plain process with no sandbox.

    python bench/match_speed.py [--runs 5] [--games 6] [--depth 4] [--opening 2]

Both players are the bundled correct student's ``alphabeta`` (``submissions/korrekt``).
(a) ``sandboxed``: two ``SandboxedPlayer``s at the strongest isolation level this machine has
(one child each, started once per run and kept for its games), asked by the referee move by
move; (b) ``in-process``: the same module imported into this process and called through the
very same ``play`` convention code (``grader.conventions.play.call``: the game built from the
spec, the moves so far replayed, the search fitted and called), by the same referee.

Every run plays the same seeds both ways, the two ways taking turns to go first, and checks
that both played the same games (the players are deterministic).  The in-process way starts
each run with the game module's cache of won boards emptied, as the fresh children start
(within a run its two players share that cache, as two searches in one process do).

It prints the median games per second of the runs side by side and their ratio; the CPU
seconds per game of each way (this process's, plus the children's as the referee measured
them move by move), which a busy machine disturbs less than the wall clock; and the median
overhead per move (the difference of the two ways' wall times over the moves the players
were asked for; the sandboxed way's includes starting its two children once per run).
Last, the wall time of one depth-1 move asked one by one, sandboxed and in-process: the cost
of a move beyond its search (the request, the reply validated at the boundary, the position
rebuilt in the child), which the games' figures bury in the noise of a busy machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.conventions import play as play_convention  # noqa: E402
from grader.games import connect4  # noqa: E402
from grader.play import Limits, Move, SandboxedPlayer, play_game  # noqa: E402
from grader.sandbox.levels import best_level  # noqa: E402
from grader.sandbox.staging import stage_runner  # noqa: E402

KORREKT = ROOT / "submissions" / "korrekt"
SPEC = {"kind": "connect4", "columns": 7, "rows": 6, "connect": 4}
LIMITS = Limits(move_seconds=60.0, game_seconds=600.0)


class InProcessPlayer:
    """The student's search imported into this process (no sandbox: for measuring only),
    called as the child would call it."""

    def __init__(self, folder: Path, depth: int):
        location = importlib.util.spec_from_file_location(f"bench_{folder.name}_minimax",
                                                          folder / "minimax.py")
        self.module = importlib.util.module_from_spec(location)
        location.loader.exec_module(self.module)
        self.depth = depth

    def describe(self) -> dict:
        return {"kind": "in-process", "name": "korrekt", "depth": self.depth}

    def start_game(self, seed, seat) -> None:
        pass

    def choose(self, spec, moves, state, limit) -> Move:
        started = time.process_time()
        item = {"game": spec, "moves": list(moves), "evaluation": None}
        action, _ = play_convention.call(self.module, "alphabeta", item, (self.depth,))
        return Move(action, time.process_time() - started)


def play_games(players, seeds, opening) -> tuple[float, float, list]:
    """Wall seconds, CPU seconds (this process's, and the children's as the referee measured
    them move by move) and the replays of one game per seed."""
    started, cpu_started = time.perf_counter(), time.process_time()
    replays = [play_game(SPEC, players, seed, opening=opening, limits=LIMITS).replay
               for seed in seeds]
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    if any(isinstance(player, SandboxedPlayer) for player in players):
        cpu += sum(move.get("seconds", 0.0) for replay in replays for move in replay["moves"])
    return wall, cpu, replays


def round_trips(script: Path, level: str, count: int) -> tuple[float, float]:
    """Median wall seconds of one depth-1 move at Connect Four's empty board, asked of a
    sandboxed child and of the in-process player: what a move costs beyond the search."""
    state = None  # the players rebuild the position from the spec and the moves
    with SandboxedPlayer(KORREKT, script, depth=1, level=level) as boxed:
        boxed.choose(SPEC, [], state, 10.0)           # start the child, import the module
        sandboxed = []
        for _ in range(count):
            started = time.perf_counter()
            boxed.choose(SPEC, [], state, 10.0)
            sandboxed.append(time.perf_counter() - started)
    local, in_process = InProcessPlayer(KORREKT, 1), []
    for _ in range(count):
        started = time.perf_counter()
        local.choose(SPEC, [], state, 10.0)
        in_process.append(time.perf_counter() - started)
    return statistics.median(sandboxed), statistics.median(in_process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=6, help="games per run and way")
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--opening", type=int, default=2,
                        help="random opening plies (so that the games differ)")
    parser.add_argument("--round-trips", type=int, default=200,
                        help="depth-1 moves timed one by one for the cost of a move")
    args = parser.parse_args()
    level = best_level()
    script = stage_runner(Path(tempfile.mkdtemp(prefix="match-speed-")))
    rates = {"sandboxed": [], "in-process": []}
    cpu = {"sandboxed": [], "in-process": []}
    plies = []
    overheads = []
    for run in range(args.runs):
        seeds = [run * args.games + game for game in range(args.games)]
        # alternately first and second, so that a change of the machine's load between the
        # two halves of a run does not always favour the same way
        order = ("sandboxed", "in-process") if run % 2 == 0 else ("in-process", "sandboxed")
        played = {}
        for way in order:
            if way == "sandboxed":
                with SandboxedPlayer(KORREKT, script, depth=args.depth, level=level,
                                     name="korrekt-1") as first, \
                        SandboxedPlayer(KORREKT, script, depth=args.depth, level=level,
                                        name="korrekt-2") as second:
                    played[way] = play_games((first, second), seeds, args.opening)
            else:
                # Start as cold as the fresh children do: Connect Four's cache of won boards
                # lives in the module, and this process keeps it between runs.
                connect4._winners.cache_clear()
                local = (InProcessPlayer(KORREKT, args.depth),
                         InProcessPlayer(KORREKT, args.depth))
                played[way] = play_games(local, seeds, args.opening)
        boxed_seconds, boxed_cpu, boxed = played["sandboxed"]
        local_seconds, local_cpu, plain = played["in-process"]
        for sandboxed_game, plain_game in zip(boxed, plain):
            if (sandboxed_game["reason"] != "end"
                    or sandboxed_game["final"] != plain_game["final"]):
                sys.exit(f"run {run + 1}: the sandboxed game differs from the plain one "
                         f"({sandboxed_game['reason']}, {sandboxed_game['forfeit']})")
        plies += [len(game["moves"]) for game in boxed]
        asked = sum(1 for game in boxed for move in game["moves"] if not move.get("opening"))
        overheads.append((boxed_seconds - local_seconds) / asked)
        rates["sandboxed"].append(args.games / boxed_seconds)
        rates["in-process"].append(args.games / local_seconds)
        cpu["sandboxed"].append(boxed_cpu / args.games)
        cpu["in-process"].append(local_cpu / args.games)
        print(f"run {run + 1}: sandboxed {boxed_seconds:6.2f} s, in-process "
              f"{local_seconds:6.2f} s for {args.games} games", flush=True)
    boxed, local = (statistics.median(rates[way]) for way in ("sandboxed", "in-process"))
    print(f"Connect Four 7x6, two depth-{args.depth} alpha-beta players "
          f"(submissions/korrekt), {args.opening} random opening plies, "
          f"{statistics.median(plies):.0f} plies per game (median)")
    print(f"games per second  sandboxed ({level}) {boxed:.3f}   in one plain process "
          f"{local:.3f}   ratio {boxed / local:.2f} (median of {args.runs} runs of "
          f"{args.games} games)")
    boxed_cpu, local_cpu = (statistics.median(cpu[way]) for way in ("sandboxed", "in-process"))
    print(f"CPU seconds per game  sandboxed {boxed_cpu:.3f}   in one plain process "
          f"{local_cpu:.3f}   ratio {boxed_cpu / local_cpu:.2f} (the players' and the "
          f"referee's; less sensitive to a busy machine than the wall clock)")
    if args.round_trips:
        boxed_move, local_move = round_trips(script, level, args.round_trips)
        print(f"one depth-1 move (median of {args.round_trips})  sandboxed "
              f"{1000 * boxed_move:.2f} ms   in-process {1000 * local_move:.2f} ms   "
              f"round trip {1000 * (boxed_move - local_move):+.2f} ms")
    print(f"overhead per move (the children's start included) "
          f"{1000 * statistics.median(overheads):.1f} ms (median)")


if __name__ == "__main__":
    main()
