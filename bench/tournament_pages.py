"""How large are a class tournament's pages, and how long does writing them take?

Plays a round robin of Connect Four between ``--players`` in-process baselines (random,
greedy, alpha-beta at depths 1 and 2, each several times under names of their own), one pair
of games per meeting from two random opening plies, so that each player has
``2 * (players - 1)`` games; then makes the reports (``grader.report.tournament``) ``--runs``
times and prints, as medians:

* the plies of a game, the size of the leaderboard and of a player's page (median and
  largest), and of all files together;
* what a player's page would weigh with every position drawn as markup (the board of the
  final position, as the page draws it, times the positions of each game) instead of the
  stepper's JSON frames: the reason the pages step through a game with a script;
* the seconds ``tournament_files`` takes (wall clock, this machine).

    python bench/tournament_pages.py                 # 16 players: 30 games each
    python bench/tournament_pages.py --players 8 --runs 5
    python bench/tournament_pages.py --kinds alphabeta:2,alphabeta:3   # longer games
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader.play import baseline, play_pair  # noqa: E402
from grader.play.ratings import rate  # noqa: E402
from grader.report.tournament import RECORD_FORMAT, tournament_files  # noqa: E402

KINDS = ("random", "greedy", "alphabeta:1", "alphabeta:2")


class Named:
    """A baseline under a name of its own, so that a round robin can hold several."""

    def __init__(self, kind: str, name: str):
        self.player, self.name = baseline(kind), name

    def describe(self) -> dict:
        return {**self.player.describe(), "name": self.name}

    def start_game(self, seed, seat):
        self.player.start_game(seed, seat)

    def choose(self, spec, moves, state, limit):
        return self.player.choose(spec, moves, state, limit)


def record_of(count: int, kinds: list[str]) -> tuple[dict, dict]:
    spec = {"kind": "connect4", "columns": 7, "rows": 6, "connect": 4}
    players = [Named(kinds[i % len(kinds)], f"{kinds[i % len(kinds)]}-{i:02d}")
               for i in range(count)]
    games, results = [], []
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            pair = play_pair(spec, a, b, f"bench/{a.name}/{b.name}", opening=2)
            for number, game in enumerate(pair.games, 1):
                games.append({"round": 1, "a": a.name, "b": b.name, "pair": 1,
                              "game": number, "replay": game.replay})
                first, second = (a.name, b.name) if number == 1 else (b.name, a.name)
                results.append((first, second, game.points))
    record = {"format": RECORD_FORMAT, "title": "Bench", "language": "en", "task": "bench",
              "game": spec, "schedule": {"kind": "round-robin", "pairs": 1, "opening": 2,
                                         "seed": 1, "rounds": 1},
              "limits": {"move_seconds": 5.0, "game_seconds": 60.0},
              "players": [{"id": p.name, "name": p.name, "kind": "submission",
                           "search": "minimax.alphabeta", "depth": 2, "evaluation": None}
                          for p in players],
              "games": games, "complete": True, "wall_seconds": 0.0}
    return record, rate(results, [p.name for p in players])


def drawn_size(page: str) -> int:
    """The page with each game's frames replaced by that many copies of its drawn board."""
    size = len(page.encode())
    for board, frames in re.findall(r'(<span class="c4board".*?</span></span>).*?'
                                    r'class="frames">(.*?)</script>', page, re.S):
        positions = frames.count('"c":')
        size += positions * len(board.encode()) - len(frames.encode())
    return size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help="the baselines, comma-separated, taken in turn (default: %(default)s)")
    options = parser.parse_args()
    record, ratings = record_of(options.players, options.kinds.split(","))
    seconds = []
    for _ in range(options.runs):
        started = time.perf_counter()
        files = tournament_files(record, ratings)
        seconds.append(time.perf_counter() - started)
    pages = [text for name, text in files.items() if name.startswith("players/")]
    sizes = [len(text.encode()) for text in pages]
    plies = [len(game["replay"]["moves"]) for game in record["games"]]
    drawn = [drawn_size(text) for text in pages]
    kib = 1024
    print(f"{options.players} players, {len(record['games'])} games, "
          f"{2 * (options.players - 1)} per player; plies per game: median "
          f"{statistics.median(plies):g}, largest {max(plies)}")
    print(f"leaderboard.html: {len(files['leaderboard.html'].encode()) / kib:.1f} KiB; "
          f"ratings.csv: {len(files['ratings.csv'].encode()) / kib:.1f} KiB")
    total = sum(len(text.encode()) for text in files.values())
    print(f"a player's page: median {statistics.median(sizes) / kib:.0f} KiB, largest "
          f"{max(sizes) / kib:.0f} KiB; all files {total / kib:.0f} KiB")
    print(f"with every position drawn as markup: median {statistics.median(drawn) / kib:.0f} "
          f"KiB a page ({statistics.median(drawn) / statistics.median(sizes):.1f} times)")
    print(f"tournament_files: median {statistics.median(seconds):.2f} s of {options.runs}")


if __name__ == "__main__":
    main()
