"""``rating``: a student's search (with the task's evaluation function, where it names one)
graded by its rating among the baselines, from its games against each of them.

In a task file::

    - {kind: rating, opponents: [random, greedy, "alphabeta:1", "alphabeta:2"], games: 4,
       opening: 2, seed: 7, move_seconds: 1,
       ladder: [[greedy, 1], ["alphabeta:1", 2], ["alphabeta:2", 3]]}

Options: ``opponents`` (two or more different baselines of ``grader.play.baseline``),
``games`` (even: pairs with the seats swapped, against *each* opponent; default 4),
``opening``, ``seed``, ``move_seconds``, ``game_seconds`` (as in ``match``; the default
per game shares the task's ``submission_seconds`` among all the games), ``ladder``
(required: ``[baseline, points]`` rungs, each baseline one of the opponents, the points
increasing).

**Why a rating.** A share of points against one baseline (``match``) says little when that
baseline is much stronger or much weaker than the student.  Against several baselines of
graded strength the games place the student on a scale: the ratings of
``grader.play.ratings`` (openskill's Plackett-Luce model) give every player ``mu ± 1.96
sigma``, and the student earns the points of the highest rung of the ladder whose baseline's
``mu`` its own ``mu`` is above (the highest rung reached counts, not their sum; the check is
worth its last rung's points, and passes with full marks only).

**The reference answer.** For the baselines' ratings to mean something they must play each
other too: a round robin among the opponents with the same games, openings and seeds
(``grader.play.series.RoundRobin``).  No student is involved, so it is a reference answer:
``reference_games(task, check)`` declares it, ``grader.answers.compute`` plays it once per task in
the parent (the baselines are trusted code) and the answer cache keeps it; ``judge`` receives
it after the answers of its (no) calls.  The student's games are played as ``match``'s are:
``series(task, check)`` declares one ``Series`` per opponent, played in the submission's own
sandboxed run.

``judge`` is pure: it rates the games in a fixed order, the round robin first, then the
student's series in the order of ``opponents``, each game in its order, so the same games
always give the same ratings.  It shows the student's rating and interval, each baseline's,
the record against each opponent (won, drawn, lost), which differences the games tell apart
(``ratings.separated``), and every game with its result and, for a forfeit, the reason.  The
replays of the student's games are kept in the facts (``replays``), and the report writer puts
those of a visible check beside the report, as ``match``'s.

As ``match``, a self-check kit leaves rating checks out (``JUDGED_WITH_REFERENCE``: the
baselines and their round robin belong to the reference).
"""

from __future__ import annotations

from .verdict import Verdict
from .common import run_failure
# which functions it checks (applies_to) and how a series is read and shown: as match's
from .match import (PLAY_OPTIONS, applies_to, game_facts, game_problem,  # noqa: F401
                    play_options, seconds_of, summary, whole)

KIND = "rating"
JUDGED_WITH_REFERENCE = True
MAX_OPPONENTS = 8
# The student's name among the players rated: never a baseline's (random, greedy,
# alphabeta:D), whatever the student's folder is called.
STUDENT = "student"
LADDER_EXAMPLE = 'e.g. ladder: [[greedy, 1], ["alphabeta:1", 2], ["alphabeta:2", 3]]'
NEEDS_OPPONENTS = (f"a rating check needs opponents: a list of 2 to {MAX_OPPONENTS} baselines "
                   '(random, greedy, alphabeta:D), e.g. opponents: [random, greedy, "alphabeta:2"]')
NEEDS_LADDER = ("a rating check needs a ladder: rungs [baseline, points], the highest whose "
                f"baseline the student's rating is above counts, {LADDER_EXAMPLE}")
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {
    "opponents": {"type": "array", "minItems": 2, "maxItems": MAX_OPPONENTS,
                  "items": {"type": "string"}, "x-required": True,
                  "x-hint": NEEDS_OPPONENTS,
                  "description": f"the baselines the student is rated among, 2 to "
                                 f"{MAX_OPPONENTS}, each once: random, greedy, alphabeta:D"},
    "games": {**PLAY_OPTIONS["games"], "default": 4},
    **{key: PLAY_OPTIONS[key] for key in ("opening", "seed")},
    "ladder": {"type": "array", "minItems": 1,
               "items": {"type": "array", "minItems": 2, "maxItems": 2},
               "x-words": "a list of rungs [baseline, points], e.g. [[greedy, 1], "
                          "[\"alphabeta:1\", 2]]",
               "x-required": True, "x-missing": NEEDS_LADDER,
               "description": "rungs [baseline, points], points increasing; the highest rung "
                              "whose baseline the student's rating is above counts"},
    **{key: PLAY_OPTIONS[key] for key in ("move_seconds", "game_seconds")},
}


def _opponents(item, context, line) -> tuple:
    raw = item.get("opponents")
    where = item.line_of("opponents") if "opponents" in item else line
    if not (isinstance(raw, list) and all(isinstance(name, str) for name in raw)
            and 2 <= len(raw) <= MAX_OPPONENTS):
        context.problem(where, NEEDS_OPPONENTS)
        return ()
    from ..play import baseline
    for name in raw:
        try:
            baseline(name)
        except ValueError as error:
            context.problem(where, str(error))
            return ()
    if len(set(raw)) != len(raw):
        context.problem(where, "each opponent may be named once: the ratings tell players "
                        "apart by name")
        return ()
    return tuple(raw)


def _ladder(item, context, line, opponents: tuple) -> tuple:
    raw = item.get("ladder")
    where = item.line_of("ladder") if "ladder" in item else line
    if not isinstance(raw, list) or not raw:
        context.problem(where, NEEDS_LADDER)
        return ()
    rungs = []
    for rung in raw:
        if not (isinstance(rung, list) and len(rung) == 2 and isinstance(rung[0], str)
                and isinstance(rung[1], (int, float)) and not isinstance(rung[1], bool)
                and rung[1] > 0):
            context.problem(where, f"each rung is a pair [baseline, points] with points > 0, "
                            f"{LADDER_EXAMPLE}; not {rung!r}")
            return ()
        if opponents and rung[0] not in opponents:
            context.problem(where, f"the rung {rung[0]!r} is not one of the opponents "
                            f"({', '.join(opponents)}): the student is rated against those")
            return ()
        rungs.append((rung[0], float(rung[1])))
    if any(a[1] >= b[1] for a, b in zip(rungs, rungs[1:])):
        context.problem(where, "the ladder goes up: each rung needs more points than the one "
                        f"before (the highest reached counts), {LADDER_EXAMPLE}")
        return ()
    if len({name for name, _ in rungs}) != len(rungs):
        context.problem(where, "each baseline may be a rung once")
        return ()
    return tuple(rungs)


def parse_options(item, context, line):
    opponents = _opponents(item, context, line)
    options = play_options(item, context, default_games=4)
    ladder = _ladder(item, context, line, opponents)
    if ladder and "points" in item and item["points"] != ladder[-1][1]:
        context.problem(item.line_of("points"), f"a rating check is worth its last rung's "
                        f"points ({ladder[-1][1]:g}); leave points out or make them equal")
    game_problem(context, line, KIND)
    return {"opponents": opponents, **options, "ladder": ladder}


def points_of(options) -> float:
    """The check's points: its last rung's (module docstring)."""
    ladder = options.get("ladder") or ()
    return ladder[-1][1] if ladder else 0.0


def calls(task, check):
    return []


def series(task, check):
    """The student's games, one ``Series`` per opponent in the order named."""
    from ..play.series import Series
    opponents = check.option("opponents")
    move_seconds, game_seconds = seconds_of(task, check, len(opponents))
    return [Series(spec=task.game_spec, module=task.module_of(check.function),
                   function=check.function, depth=task.depth,
                   evaluation=getattr(task, "evaluation", None), opponent=opponent,
                   games=check.option("games"), opening=check.option("opening"),
                   seed=check.option("seed"), move_seconds=move_seconds,
                   game_seconds=game_seconds)
            for opponent in opponents]


def reference_games(task, check):
    """The baselines' round robin this check is judged with (module docstring)."""
    from ..play.series import RoundRobin
    return [RoundRobin(spec=task.game_spec, opponents=tuple(check.option("opponents")),
                       games=check.option("games"), opening=check.option("opening"),
                       seed=check.option("seed"))]


def baseline_games(record: dict) -> list[tuple[str, str, float]]:
    """The round robin's games as ``ratings.rate`` takes them: (first, second, the first
    player's points), the first being the player in the game's first seat."""
    from ..games import make_rules
    from ..play.referee import POINTS
    games = []
    for replay in record["games"]:
        first_seat = make_rules(replay["game"]).players[0]
        names = {seat: player["name"] for seat, player in replay["players"].items()}
        second = next(name for seat, name in names.items() if seat != first_seat)
        games.append((names[first_seat], second, POINTS[replay["result"]]))
    return games


def judge(check, observations, answers):
    records = observations
    unplayed = next((record for record in records if not isinstance(record, dict)), None)
    if unplayed is not None:     # not played: an empty submission's observation
        return run_failure(check, unplayed)
    from ..play.ratings import rate, separated
    from ..play.referee import POINTS
    round_robin = answers[-1][0]
    rated = baseline_games(round_robin)
    against, replays = [], []
    for record in records:
        games = [game_facts(number, replay) for number, replay in enumerate(record["games"], 1)]
        rated.extend((STUDENT, record["opponent"], POINTS[g["result"]]) for g in games)
        against.append((record["opponent"], games))
        replays.extend(record["games"])
    opponents = [name for name, _ in against]
    ratings = rate(rated, players=[STUDENT, *opponents])
    student = ratings[STUDENT]
    ladder = [list(rung) for rung in check.option("ladder")]
    reached = [rung for rung in ladder if student.mu > ratings[rung[0]].mu]
    earned = min(reached[-1][1] if reached else 0.0, check.points)
    facts = {"rating": shown(student), "games": sum(len(games) for _, games in against),
             "opponents": [opponent_facts(name, games, ratings[name], student, separated)
                           for name, games in against],
             "ladder": [[name, whole(worth), name in {r[0] for r in reached}]
                        for name, worth in ladder],
             "reached": [reached[-1][0], whole(reached[-1][1])] if reached else None,
             "earned": whole(earned), "full": whole(check.points),
             "forfeits": sum(g["by"] == "student" for _, games in against for g in games),
             "replays": replays}
    traceback = next((g["detail"].get("traceback") for _, games in against for g in games
                      if g["by"] == "student" and g["detail"].get("traceback")), None)
    if traceback:
        facts["traceback"] = traceback
    full = earned >= check.points
    return Verdict(check, full, check.points if full else earned,
                   "ok" if full else "rating.points", facts)


def shown(rating) -> dict:
    """A rating as the feedback shows it: ``mu`` and the interval's half-width, rounded."""
    return {"mu": round(rating.mu, 1), "plus_minus": round(rating.z * rating.sigma, 1),
            "low": round(rating.low, 1), "high": round(rating.high, 1)}


def opponent_facts(name: str, games: list, rating, student, separated) -> dict:
    """One opponent: its rating, the student's record against it, and whether the ratings
    tell the two apart."""
    won = sum(g["result"] == "win" for g in games)
    drawn = sum(g["result"] == "draw" for g in games)
    return {"name": name, "rating": shown(rating), "won": won, "drawn": drawn,
            "lost": len(games) - won - drawn, "games": len(games),
            "above": student.mu > rating.mu, "separated": separated(student, rating),
            "game_list": [summary(g) for g in games]}
