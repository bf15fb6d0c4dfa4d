"""How long Connect Four costs: the course's reference answers, and one student's searches.

    python bench/connect4.py [--repeat 5]

Reports medians over ``--repeat`` runs of

* `grader validate --no-cache courses/connect4/tasks` (every reference answer computed afresh,
  in a fresh process: what a course author waits for);
* each depth-limited search of courses/connect4/submissions/korrekt on the course's 7x6
  positions, in this process without a sandbox, through the recording game a student's
  search receives (what the call limit `call_seconds` must cover);
* the heuristic alone (``evaluate`` on the depth-4 position), per call.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from grader.games import make_game, make_rules  # noqa: E402
from grader.tasks import load_course  # noqa: E402

COURSE = ROOT / "courses" / "connect4"


def median_seconds(action, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    def validate():
        subprocess.run([sys.executable, "-m", "grader.cli", "validate", "--no-cache",
                        str(COURSE / "tasks")], check=True, cwd=ROOT, capture_output=True)
    print(f"grader validate --no-cache: {median_seconds(validate, args.repeat):.2f} s (median)")

    spec_file = COURSE / "submissions" / "korrekt" / "minimax.py"
    loader = importlib.util.spec_from_file_location("korrekt_minimax", spec_file)
    student = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(student)
    for task in load_course(COURSE / "tasks").tasks:
        if task.depth is None:
            continue
        spec = json.loads(task.game_spec)
        for function in task.functions:
            visited = []

            def search():
                game, root = make_game(spec)
                getattr(student, function)(game, root, task.depth)
                visited[:] = game.visit_log()["visits"]
            seconds = median_seconds(search, args.repeat)
            print(f"{task.id} {function} (depth {task.depth}): {len(visited)} nodes, "
                  f"{seconds * 1000:.0f} ms (median)")

    task = load_course(COURSE / "tasks").task("c4-depth4")
    rules = make_rules(json.loads(task.game_spec))
    state = rules.initial_state()
    calls = 2400
    seconds = median_seconds(lambda: [rules.evaluate(state, "X") for _ in range(calls)],
                             args.repeat)
    print(f"evaluate on 7x6: {seconds / calls * 1e6:.1f} µs per call (median)")


if __name__ == "__main__":
    main()
