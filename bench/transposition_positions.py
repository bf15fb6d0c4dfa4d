"""Where do the catalogue's transposition-table, NegaScout and MTD(f) mistakes change the root?

For positions of tic-tac-toe (every reachable board with a given number of free cells, to the
end of the game), Connect Four on small boards (random positions, to the end) and Kalah
(random positions, to the end or depth-limited), run the reference (``reference/
transposition.py``) and every faulty variant (``reference/transposition_variants.py``) and
report the positions where a variant's root value or action differs from the reference's,
while the reference agrees with plain alpha-beta (so that the value check is fair).  The
course ``courses/transposition`` takes its positions from this script's output.

    python bench/transposition_positions.py --game tictactoe --free 6
    python bench/transposition_positions.py --game kalah --depth 5 --count 300
    python bench/transposition_positions.py --game connect4 --columns 4 --rows 4 --connect 3

Prints one line per position where at least one mistake changes the root, with the visits of
plain alpha-beta, the reference and the least-saving correct table.

Measured (seed 12): tic-tac-toe with 6 free cells, 49 of 252 boards (a bound stored as exact
and swapped flags change the root on 16 each, NegaScout without its re-search on 21, MTD(f)
without flags on 29); Kalah 3x3 at depth 5, 98 of 150 positions (an entry of a shallower
search used: 2); Connect Four 4x4 (three in a row) to the end, 8 of 60, none of them by the
table's mistakes.  On none of them does the reference's value differ from plain alpha-beta's.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.games import make_game, make_rules  # noqa: E402
from reference.minimax import alphabeta  # noqa: E402
from reference.transposition import TRANSPOSITION_SEARCHES, least_saving_visits  # noqa: E402
from reference.transposition_variants import MISTAKES_OF, run  # noqa: E402


def outcome(search, spec, depth, **options):
    game, root = make_game(spec)
    try:
        value, action = search(game, root, depth, **options)
    except (ValueError, RuntimeError) as error:
        return ("error", type(error).__name__, 0)
    return (value, action, len(game.visit_log()["visits"]))


def tictactoe_positions(free: int):
    rules = make_rules({"kind": "tictactoe", "board": "........."})
    level = {rules.initial_state()}
    for _ in range(9 - free):
        level = {rules.result(s, a) for s in level for a in rules.actions(s)}
    for board in sorted(level):
        if not rules.is_terminal(board):
            yield {"kind": "tictactoe", "board": board}


def random_play(spec: dict, plies: int, rng: random.Random):
    rules = make_rules(spec)
    state = rules.initial_state()
    for _ in range(plies):
        if rules.is_terminal(state):
            return None
        state = rules.result(state, rng.choice(rules.actions(state)))
    return None if rules.is_terminal(state) else state


def connect4_positions(columns, rows, connect, count, rng):
    seen = set()
    for _ in range(count * 5):
        base = {"kind": "connect4", "columns": columns, "rows": rows, "connect": connect}
        state = random_play(base, rng.randint(2, columns * rows // 2), rng)
        if state is None or state in seen:
            continue
        seen.add(state)
        yield {**base, "board": str(state)}
        if len(seen) >= count:
            return


def kalah_positions(pits, stones, count, rng):
    seen = set()
    for _ in range(count * 5):
        base = {"kind": "kalah", "pits": pits, "stones": stones}
        state = random_play(base, rng.randint(1, 6), rng)
        if state is None or state in seen:
            continue
        seen.add(state)
        board, to_move = state
        yield {"kind": "kalah", "board": list(board), "to_move": to_move}
        if len(seen) >= count:
            return


def examine(spec, depth, functions):
    plain = outcome(alphabeta, spec, depth)
    found = []
    for function in functions:
        reference = outcome(TRANSPOSITION_SEARCHES[function], spec, depth)
        if reference[0] == "error":
            continue
        if reference[:2] != plain[:2]:
            found.append(f"{function}: reference {reference[:2]} != alphabeta {plain[:2]} (unfair)")
            continue
        for mistake in MISTAKES_OF[function]:
            faulty = outcome(lambda g, s, d: run(mistake, function, g, s, d), spec, depth)
            if faulty[0] == "error":
                continue
            if faulty[0] != reference[0]:
                found.append(f"{mistake}: value {faulty[0]} for {reference[0]}")
            elif faulty[1] != reference[1]:
                found.append(f"{mistake}: action {faulty[1]} for {reference[1]}")
    if found:
        least_game, least_root = make_game(spec)
        least_saving_visits(least_game, least_root, depth)
        tt = outcome(TRANSPOSITION_SEARCHES["alphabeta_tt"], spec, depth)
        print(json.dumps(spec), f"depth={depth}", f"alphabeta={plain[2]}",
              f"tt={tt[2]}", f"least={len(least_game.visit_log()['visits'])}")
        for line in found:
            print("   ", line)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("tictactoe", "connect4", "kalah"), default="tictactoe")
    parser.add_argument("--free", type=int, default=6, help="tic-tac-toe: free cells")
    parser.add_argument("--depth", type=int, default=None)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--columns", type=int, default=4)
    parser.add_argument("--rows", type=int, default=4)
    parser.add_argument("--connect", type=int, default=3)
    parser.add_argument("--pits", type=int, default=3)
    parser.add_argument("--stones", type=int, default=3)
    parser.add_argument("--functions", default="alphabeta_tt,negascout,mtdf")
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    functions = args.functions.split(",")
    if args.game == "tictactoe":
        positions = tictactoe_positions(args.free)
    elif args.game == "connect4":
        positions = connect4_positions(args.columns, args.rows, args.connect, args.count, rng)
    else:
        positions = kalah_positions(args.pits, args.stones, args.count, rng)
    total = changed = 0
    for spec in positions:
        total += 1
        changed += bool(examine(spec, args.depth, functions))
    print(f"{changed} of {total} positions show a mistake at the root")


if __name__ == "__main__":
    main()
