"""Issue 23's tournament ("a move is a move"): its wall time, the CPU time its children used,
and per player the CPU charged against the CPU its processes used.

    python bench/moves.py [--runs 3] [--jobs 2] [--trees /tmp/before,.]

Ten players play Connect Four with the bundled tournament's task (``courses/turnier``: depth
3, each player's own evaluation function, 1 s of CPU time per move): seven correct
submissions of that course, the random baseline, a player whose first two moves of each
game sleep 5.5 s (``bench/players/schlaefer``) and one whose helper process spins from its
first move on (``bench/players/hilfsprozess``); a round robin of one pair per matchup, 90
games, in ``--jobs`` arenas (worker processes, as ``grader tournament --jobs``).

``--trees``: the grader trees to compare, e.g. a worktree of the commit before
(``git worktree add /tmp/before be2fd28``) and this one (``.``); each run plays the
tournament once per tree, each in a fresh process that imports that tree's grader, the trees
taking turns to go first.  Measured per run:

* **wall**: the tournament's wall-clock time (``run_tournament``);
* **CPU**: the arenas' own CPU time (referee, baselines, the grader: each worker's, read
  when it ends, and the tournament process's) plus every sandboxed child's CPU time by its
  cgroup, read just before the cgroup is removed (``Child._release``, wrapped here in each
  arena): what the tournament and its children used on the machine;
* per player **charged** (its moves' ``seconds``, and ``between`` where the replay has it,
  the forfeited move included) and **used** (its children's cgroups).

It prints each run, then the medians per tree.  Needs root (cgroups) and the sandbox.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TURNIER = ROOT / "courses" / "turnier"
PLAYERS = Path(__file__).resolve().parent / "players"
CORRECT = ["fenster", "fenster-drei", "mitte", "mittelfeld", "null", "zufall", "verkehrt"]
WATCHED = ("schlaefer", "hilfsprozess")


LOG = "BENCH_MOVES_LOG"      # where each arena writes what it measured (JSON lines)


def _log(entry: dict) -> None:
    with open(os.environ[LOG], "a", encoding="utf-8") as log:
        log.write(json.dumps(entry) + "\n")


def _measure_children() -> None:
    """Every sandboxed child's cgroup CPU time goes to the log before the cgroup goes."""
    from grader.sandbox import launcher
    release = launcher.Child._release

    def measured_release(child):
        if child.cgroup is not None:
            seconds = child.cgroup.cpu_seconds()
            if seconds is not None:
                _log({"folder": str(Path(child.submission).resolve()), "seconds": seconds})
        release(child)
    launcher.Child._release = measured_release


def _measured_arena(setup: dict, entrants: list) -> None:
    """A worker's initializer: the tree's own (``_start_arena``), with its children measured
    and its own CPU time logged when it ends (after its arena closed)."""
    import multiprocessing.util
    import resource
    from grader.play import arena
    _measure_children()

    def own_cpu():
        usage = resource.getrusage(resource.RUSAGE_SELF)
        _log({"arena_cpu": usage.ru_utime + usage.ru_stime})
    multiprocessing.util.Finalize(None, own_cpu, exitpriority=1)
    arena._start_arena(setup, entrants)


def one_run(tree: Path, jobs: int) -> dict:
    """Plays the tournament with the grader of ``tree`` (in this process and ``jobs`` worker
    processes) and measures it."""
    sys.path.insert(0, str(tree))
    import multiprocessing
    import resource
    from concurrent.futures import ProcessPoolExecutor
    from dataclasses import asdict
    from grader.play import arena
    from grader.play.entrants import playable_task, setup_from_task, stage_entrants
    from grader.play.tournament import run_tournament
    from grader.sandbox import launcher
    from grader.sandbox.levels import best_level
    from grader.tasks import load_course
    assert Path(launcher.__file__).resolve().is_relative_to(tree.resolve()), launcher.__file__
    _measure_children()

    def measured_pool(play):
        return ProcessPoolExecutor(
            max_workers=play.jobs, mp_context=multiprocessing.get_context("spawn"),
            initializer=_measured_arena,
            initargs=(asdict(play.setup), [asdict(e) for e in play.entrants]))
    arena.LocalPlay._make_pool = measured_pool

    course = load_course(TURNIER / "tasks")
    setup = setup_from_task(course, playable_task(course), pairs=1, level=best_level())
    with tempfile.TemporaryDirectory(prefix="bench-moves-") as scratch:
        scratch = Path(scratch)
        for name in CORRECT:
            shutil.copytree(TURNIER / "submissions" / name, scratch / "abgaben" / name)
        for name in WATCHED:
            shutil.copytree(PLAYERS / name, scratch / "abgaben" / name)
        entrants, left_out = stage_entrants(scratch / "abgaben", scratch / "staged",
                                            ("minimax", "evaluation"), ["random"])
        assert not left_out, left_out
        os.environ[LOG] = str(scratch / "measured.jsonl")
        own_before = resource.getrusage(resource.RUSAGE_SELF)
        started = time.perf_counter()
        outcome = run_tournament(setup, entrants, scratch / "out", jobs=jobs)
        wall = time.perf_counter() - started
        own_after = resource.getrusage(resource.RUSAGE_SELF)
        measured = [json.loads(line) for line in
                    (scratch / "measured.jsonl").read_text().splitlines()]
    arena_cpu = ((own_after.ru_utime + own_after.ru_stime)
                 - (own_before.ru_utime + own_before.ru_stime))
    workers = [entry["arena_cpu"] for entry in measured if "arena_cpu" in entry]
    assert len(workers) == (jobs if jobs > 1 else 0), workers     # every worker was measured
    arena_cpu += sum(workers)
    name_of = {str(Path(e.folder).resolve()): e.id for e in entrants if e.folder}
    used: dict[str, float] = {}
    for entry in measured:
        if "folder" in entry:
            name = name_of.get(entry["folder"], entry["folder"])
            used[name] = used.get(name, 0.0) + entry["seconds"]
    charged: dict[str, float] = {}
    forfeits: dict[str, dict[str, int]] = {}
    for game in outcome.record["games"]:
        replay = game["replay"]
        names = {seat: player["name"] for seat, player in replay["players"].items()}
        for move in replay["moves"]:
            if not move.get("opening"):
                name = names[move["player"]]
                charged[name] = (charged.get(name, 0.0) + move.get("seconds", 0.0)
                                 + move.get("between", 0.0))
        forfeit = replay["forfeit"]
        if forfeit:
            name = names[forfeit["player"]]
            charged[name] = (charged.get(name, 0.0) + forfeit.get("seconds", 0.0)
                             + forfeit.get("between", 0.0))
            reasons = forfeits.setdefault(name, {})
            reasons[forfeit["reason"]] = reasons.get(forfeit["reason"], 0) + 1
    commit = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    return {"tree": str(tree), "commit": commit, "level": setup.level, "jobs": jobs,
            "games": len(outcome.record["games"]), "wall": wall, "arena_cpu": arena_cpu,
            "children_cpu": sum(used.values()), "cpu": arena_cpu + sum(used.values()),
            "charged": charged, "used": used, "forfeits": forfeits}


def show(result: dict) -> str:
    parts = [f"{result['commit'] or result['tree']}: {result['games']} games in "
             f"{result['jobs']} arena(s), wall "
             f"{result['wall']:.1f} s, CPU {result['cpu']:.1f} s (arena {result['arena_cpu']:.1f}"
             f" + children {result['children_cpu']:.1f}), wall/CPU "
             f"{result['wall'] / result['cpu']:.2f}"]
    for name in WATCHED:
        parts.append(f"{name}: charged {result['charged'].get(name, 0):.1f} s of "
                     f"{result['used'].get(name, 0):.1f} s used, forfeits "
                     f"{result['forfeits'].get(name, {})}")
    others = {name: reasons for name, reasons in result["forfeits"].items()
              if name not in WATCHED}
    parts.append(f"other forfeits: {others or 'none'}")
    return "; ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--trees", default=".",
                        help="comma-separated grader trees (e.g. /tmp/before,.)")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_run(Path(args.one), args.jobs)))
        return
    trees = [str(Path(tree).resolve()) for tree in args.trees.split(",")]
    results: dict[str, list] = {tree: [] for tree in trees}
    for run in range(1, args.runs + 1):
        order = trees if run % 2 else trees[::-1]
        for tree in order:
            process = subprocess.run([sys.executable, __file__, "--one", tree,
                                      "--jobs", str(args.jobs)],
                                     capture_output=True, text=True, cwd=ROOT,
                                     env={**os.environ, "PYTHONPATH": tree})
            if process.returncode != 0:
                sys.exit(f"run {run} with {tree} failed:\n{process.stderr[-3000:]}")
            result = json.loads(process.stdout.strip().splitlines()[-1])
            results[tree].append(result)
            print(f"run {run}, {show(result)}", flush=True)
    for tree, runs in results.items():
        def median(key, name=None):
            return statistics.median(r[key] if name is None else r[key].get(name, 0.0)
                                     for r in runs)
        print(f"{runs[0]['commit'] or tree} (medians of {len(runs)}): wall {median('wall'):.1f} s,"
              f" CPU {median('cpu'):.1f} s, wall/CPU "
              f"{statistics.median(r['wall'] / r['cpu'] for r in runs):.2f}; "
              + "; ".join(f"{name} charged {median('charged', name):.1f} s of "
                          f"{median('used', name):.1f} s used" for name in WATCHED))


if __name__ == "__main__":
    main()
