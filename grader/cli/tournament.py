"""``grader tournament``: the submissions' searches and the baselines play each other, each
submission in its own sandbox; ratings with intervals, a leaderboard and a page per player."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from .common import (EXIT_BAD_INPUT, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, batch_level,
                     console, load_tasks, raise_interrupt)

NAME = "tournament"

TOURNAMENT_EPILOG = """\
examples:
  grader tournament --tasks courses/spiel/tasks --submissions courses/spiel/submissions \\
      --out turnier --baselines random,greedy,alphabeta:2
  grader tournament ... --schedule swiss --rounds 7     # a large class: Swiss rounds
  grader tournament ... --schedule sampled --rounds 5   # or 5 random opponents each
  grader tournament ... --resume                        # after an interruption: the rest

The task with a match check (or --task ID) gives the game, the depth, the search and the
evaluation function every submission plays with. Each matchup is a pair of games from one
random opening with the seats swapped. OUT gets leaderboard.html, ratings.csv,
players/*.html, tournament.json and games.jsonl (the journal --resume continues).

exit status: 0 every game played; 1 some matchups failed in the grader itself (listed; run
again with --resume); 2 bad input (task files, no playable task, an unknown baseline, a
journal of another tournament, weak sandbox refused); 130 interrupted (continue with
--resume)."""


def register(command) -> None:
    tournament = command(NAME, help="a class tournament: every submission and the "
                         "baselines play each other; ratings with intervals",
                         description="Play a tournament between the submissions' searches "
                         "(with their evaluation functions) and built-in baselines, each "
                         "submission in its own sandbox; rate the games with confidence "
                         "intervals and write a leaderboard and a page per player.",
                         epilog=TOURNAMENT_EPILOG)
    tournament.add_argument("--tasks", default="tasks", help="task file or folder [tasks]")
    tournament.add_argument("--submissions", default="submissions",
                            help="folder with one sub-folder per student [submissions]")
    tournament.add_argument("--out", default="tournament", help="where the leaderboard and "
                            "the pages go [tournament]")
    tournament.add_argument("--task", metavar="ID", help="the task to play [the one with a "
                            "match check]")
    tournament.add_argument("--baselines", default="random,greedy,alphabeta:2",
                            help="comma-separated built-in players: random, greedy, "
                            "alphabeta:D [random,greedy,alphabeta:2]; '' for none")
    # grader.play.schedule.SCHEDULES, spelled out: importing grader.play here would cost every
    # command (grader check too) the players' imports
    tournament.add_argument("--schedule", choices=("round-robin", "swiss", "sampled"),
                            default="round-robin",
                            help="who plays whom: everyone against everyone, Swiss rounds, or "
                            "rounds of random opponents [round-robin]")
    tournament.add_argument("--rounds", type=int, default=0, help="rounds of a swiss or "
                            "sampled schedule")
    tournament.add_argument("--pairs", type=int, default=1, help="pairs of games (seats "
                            "swapped) per matchup [1]")
    tournament.add_argument("--opening", type=int, help="random plies before each pair "
                            "[the match check's, else 2]")
    tournament.add_argument("--seed", type=int, help="seed of the openings [the match "
                            "check's, else 1]")
    tournament.add_argument("--move-seconds", type=float, help="CPU seconds per move [the "
                            "match check's, else the task's call_seconds]")
    tournament.add_argument("--game-seconds", type=float, help="CPU seconds per game and "
                            "player [the match check's, else 30 moves' worth]")
    tournament.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                            help="matchups played at once [number of cores]")
    tournament.add_argument("--cluster", metavar="ADDRESS", help="play on the Dask cluster "
                            "whose scheduler is at ADDRESS, each worker in its own sandbox; "
                            "needs pip install -e '.[cluster]'")
    tournament.add_argument("--resume", action="store_true", help="continue an interrupted "
                            "tournament in OUT: play only the matchups not in its journal")
    tournament.add_argument("--sandbox", choices=("auto", "bubblewrap", "container",
                                                  "process"), default="auto")
    tournament.add_argument("--allow-weak-sandbox", action="store_true",
                            help="play even at the 'process' level, where student code runs "
                            "as you")


def run(args) -> int:
    """A class tournament (``grader.play.tournament``); SIGINT and SIGTERM stop it (exit 130)
    with every finished matchup in the journal.

    Its worker processes (``--jobs``) are started by multiprocessing's spawn as ``python -c
    ...``, which puts the current folder first on their import path before they learn the
    grader's: a student's ``pickle.py`` or ``socket.py`` there would run in them, as you.
    ``PYTHONSAFEPATH`` (Python 3.11 and later) keeps it off; the sandboxed players' own
    environment is built from scratch and never sees it."""
    previous = signal.signal(signal.SIGTERM, raise_interrupt)
    safe_path = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        return _tournament(args)
    except KeyboardInterrupt:
        console(stderr=True).print("Interrupted; continue with --resume.", markup=False)
        return EXIT_INTERRUPTED
    finally:
        signal.signal(signal.SIGTERM, previous)
        if safe_path is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = safe_path


def _tournament(args) -> int:
    import tempfile
    from ..cluster import ClusterError
    from ..play.entrants import TournamentError, playable_task, setup_from_task, stage_entrants
    from ..play.tournament import run_tournament, seated
    from ..report.tournament import write_reports
    from ..report.safe import terminal_text
    from ..submissions.staging import tasks_hash
    err = console(stderr=True)
    course = load_tasks(args.tasks, err)
    if course is None:
        return EXIT_BAD_INPUT
    root = Path(args.submissions)
    if not root.is_dir():
        err.print(f"{root}: no such folder; pass the folder of submissions with --submissions",
                  markup=False)
        return EXIT_BAD_INPUT
    level = batch_level(args, err, "play")
    if level is None:
        return EXIT_BAD_INPUT
    out = Path(args.out)
    baselines = [name.strip() for name in args.baselines.split(",") if name.strip()]
    with tempfile.TemporaryDirectory(prefix="grader-tournament-") as scratch:
        try:
            task = playable_task(course, args.task)
            setup = setup_from_task(course, task, schedule=args.schedule, rounds=args.rounds,
                                    pairs=args.pairs, opening=args.opening, seed=args.seed,
                                    move_seconds=args.move_seconds,
                                    game_seconds=args.game_seconds, level=level)
            modules = tuple(dict.fromkeys(
                [setup.module] + ([setup.evaluation.partition(".")[0]]
                                  if setup.evaluation else [])))
            entrants, left_out = stage_entrants(root, Path(scratch), modules, baselines)
            for entry in left_out:
                err.print(f"Left out {terminal_text(entry['name'])}: "
                          f"{terminal_text(entry['problem'])}", markup=False, highlight=False)
            done = [0, 0]

            def announce(total, already):
                done[:] = [already, total]
                if already:
                    err.print(f"{already} of {total} matchups already played (--resume)",
                              markup=False)

            def played(matchup, outcome):
                done[0] += 1
                if "games" in outcome:
                    scored = [seated(matchup.a, matchup.b, number, replay)
                              for number, replay in enumerate(outcome["games"], 1)]
                    points = sum(p if first == matchup.a else 1 - p
                                 for first, _, p in scored)
                    what = f"{points:g}-{2 - points:g}"
                else:
                    what = "failed in the grader (listed; --resume plays it again)"
                err.print(f"[{done[0]}/{done[1]}] {terminal_text(matchup.a)} - "
                          f"{terminal_text(matchup.b)}: {what}", markup=False,
                          highlight=False)
            from ..play.arena import ClusterPlay
            from ..play.tournament import Progress
            executor = (ClusterPlay(setup, entrants, args.cluster) if args.cluster
                        else None)
            try:
                outcome = run_tournament(setup, entrants, out, jobs=args.jobs,
                                         resume=args.resume,
                                         tasks_hash=tasks_hash(course.source_files),
                                         left_out=left_out,
                                         progress=Progress(announce, played),
                                         executor=executor)
            finally:
                if executor is not None:
                    executor.close()
        except (TournamentError, ClusterError) as error:
            err.print(f"{error}; no game was played.", markup=False, highlight=False)
            return EXIT_BAD_INPUT
    write_reports(out, outcome)
    from ..play.ratings import leaderboard
    for rank, rating in enumerate(leaderboard(outcome.ratings), 1):
        err.print(f"{rank:3d}. {terminal_text(rating.player)}: {rating.mu:.1f} "
                  f"± {rating.z * rating.sigma:.1f} ({rating.wins}-{rating.draws}-"
                  f"{rating.losses})", markup=False, highlight=False)
    err.print(f"{len(outcome.record['games'])} games in "
              f"{outcome.record['wall_seconds']:g} s. Leaderboard: {out / 'leaderboard.html'}",
              markup=False, highlight=False)
    return EXIT_FAILED if outcome.errors else EXIT_OK
