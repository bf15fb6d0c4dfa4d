"""``match``: a student's search, playing with the task's depth (and, where the task names
one, the student's own evaluation function), graded by its games against a baseline.

In a task file::

    - id: c4-spiel
      game: connect4
      depth: 3
      functions: [alphabeta]
      evaluation: evaluation.evaluate     # the game's heuristic is the student's function
      checks:
        - {kind: match, opponent: "alphabeta:2", games: 8, opening: 2, seed: 7,
           thresholds: [[0.2, 1], [0.35, 2], [0.45, 3]]}

Options: ``opponent`` (a baseline of ``grader.play.baseline``: ``random``, ``greedy``,
``alphabeta:D``), ``games`` (even: pairs with the seats swapped; default 10), ``opening``
(random plies before each pair, default 2), ``seed`` (default 1), ``thresholds`` (required:
``[share, points]`` pairs, both increasing), ``move_seconds`` and ``game_seconds`` (CPU
seconds per move and per game; defaults: the task's ``call_seconds``, and its
``submission_seconds`` divided by the games), ``stop_early`` (default false) and ``margin``
(default 0.05; see *Early stopping*).

**Points.** The student's share of the points of all games (a win 1, a draw 1/2, a loss 0,
divided by the games) is compared with the thresholds, and *the highest threshold reached
counts*: ``[[0.2, 1], [0.35, 2], [0.45, 3]]`` gives 2 points for a share of 0.4, not 1 + 2.
The check is worth the last threshold's points (a ``points:`` of the check, if given, must
say the same), and passes with full marks only; a share below the first threshold earns 0.

**Early stopping.** With ``stop_early: true`` the series stops after a pair once the
sequential test of ``grader.play.sprt`` has decided every threshold (the pairs' mean share
clearly above ``share + margin`` or below ``share - margin``, at error rates of 5 %; not
before two pairs).  The points are still the highest threshold the observed share reaches:
a decision never contradicts the share of the pairs played (``grader.play.sprt``), so a
stopped series earns what its decisions say, and one that runs out of games before every
threshold is decided earns what its share gives, as without the option.  The feedback says
after how many of the games it stopped and which thresholds were clear.

**How it runs.** A match does not fit the calls a child answers and a pure judge reads: the
referee in the parent talks to the student's child move by move.  So ``calls`` asks for no
ordinary call, and ``series(task, check)`` declares the games instead (a
``grader.play.series.Series``: plain data, the same for every submission).  The grading plays
each declared series in the submission's own sandboxed run (``grader.grading``: visible
checks' series with the visible calls, hidden ones after them, so what the student's code
prints during a hidden match is kept for the instructor, as for any hidden call), and the
series' record of games is this check's observation.  ``judge`` is a pure function of that
record and the thresholds.  All the games spend from the submission's CPU budget; moves
asked after it is used up forfeit with the reason ``budget``.

A game the student loses by an illegal move, an exception, a crash or a timeout is a loss
like any other, and the feedback names the reason; the replays (``grader.play.referee``'s
format) are kept in the verdict's facts, and the report writer puts those of visible checks
beside the student's report as ``replays/<check>.json``.

The baselines are the reference's trusted code, run in the parent: a self-check kit has no
``reference`` and leaves match checks out, counting them with the checks run only at hand-in
(``JUDGED_WITH_REFERENCE``, although the judge itself needs no model solution).
"""

from __future__ import annotations

import json

from ..calls import canonical
from .verdict import Verdict
from .common import SEARCH_FUNCTIONS, VECTOR_SEARCHES, run_failure

KIND = "match"
# What a series may ask at most: the games run one after another in one child.
MAX_GAMES = 200
MAX_OPENING = 20
# How a series is played, shared with rating (play_options reads them).
PLAY_OPTIONS = {
    "games": {"type": "integer", "minimum": 2, "maximum": MAX_GAMES,
              "description": "games played, in pairs with the seats swapped (an even number; "
                             "rating: against each opponent)"},
    "opening": {"type": "integer", "minimum": 0, "maximum": MAX_OPENING, "default": 2,
                "description": "random plies played before each pair of games"},
    "seed": {"type": "integer", "minimum": 0, "maximum": 2 ** 31, "default": 1,
             "description": "the seed of the openings"},
    "move_seconds": {"type": "number", "exclusiveMinimum": 0,
                     "description": "CPU seconds per move (default: the task's call_seconds)"},
    "game_seconds": {"type": "number", "exclusiveMinimum": 0,
                     "description": "CPU seconds per game (default: the task's "
                                    "submission_seconds shared among the games)"},
}
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {
    "opponent": {"type": "string", "x-required": True,
                 "description": "the baseline played against: random, greedy or alphabeta:D "
                                "(the reference alpha-beta at depth D)"},
    "games": {**PLAY_OPTIONS["games"], "default": 10},
    **{key: PLAY_OPTIONS[key] for key in ("opening", "seed")},
    "thresholds": {"type": "array", "minItems": 1,
                   "items": {"type": "array", "minItems": 2, "maxItems": 2,
                             "items": {"type": "number"}},
                   "x-words": "a list of pairs [share, points], e.g. [[0.5, 1], [0.7, 2]]",
                   "x-required": True,
                   "description": "pairs [share of the points, points earned], both "
                                  "increasing; the highest reached counts"},
    **{key: PLAY_OPTIONS[key] for key in ("move_seconds", "game_seconds")},
    "stop_early": {"type": "boolean", "default": False,
                   "description": "stop the games once every threshold is clearly reached or "
                                  "missed"},
    "margin": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 0.5,
               "default": 0.05,   # grader.play.sprt.DEFAULT_MARGIN (tests/test_schema.py)
               "description": "with stop_early: how far from a threshold the share must "
                              "clearly be"},
}
# Games a match needs a depth for: a search to the end of the game would not finish.
DEPTH_NEEDED = ("connect4", "kalah")
# The games are played against the reference's baselines: not in a self-check kit.
JUDGED_WITH_REFERENCE = True


def applies_to(function):
    return function in SEARCH_FUNCTIONS and function not in VECTOR_SEARCHES


def _whole(item, context, key, default, least, most, what):
    value = item.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        context.problem(item.line_of(key), f"{key} must be a whole number from {least} to "
                        f"{most} ({what})")
        return default
    return value


def _seconds(item, context, key):
    value = item.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                              or value <= 0):
        context.problem(item.line_of(key), f"{key} must be a positive number of CPU seconds")
        return None
    return None if value is None else float(value)


def _thresholds(item, context, line):
    raw = item.get("thresholds")
    example = "e.g. thresholds: [[0.5, 1], [0.7, 2], [0.9, 3]]"
    where = item.line_of("thresholds") if "thresholds" in item else line
    if raw is None:
        context.problem(where, "a match check needs thresholds: pairs [share of the points, "
                        f"points earned], {example}")
        return ()
    pairs = []
    for pair in raw if isinstance(raw, list) else [raw]:
        if not (isinstance(pair, list) and len(pair) == 2
                and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                        for v in pair)
                and 0 < pair[0] <= 1 and pair[1] > 0):
            context.problem(where, f"each threshold is a pair [share, points] with 0 < share "
                            f"<= 1 and points > 0, {example}; not {pair!r}")
            return ()
        pairs.append((float(pair[0]), float(pair[1])))
    if not pairs:
        context.problem(where, f"thresholds must not be empty, {example}")
        return ()
    if any(a[0] >= b[0] or a[1] >= b[1] for a, b in zip(pairs, pairs[1:])):
        context.problem(where, "thresholds go up: each pair needs a higher share and more "
                        f"points than the one before (the highest reached counts), {example}")
        return ()
    return tuple(pairs)


def parse_options(item, context, line):
    opponent = item.get("opponent")
    if not isinstance(opponent, str):
        context.problem(item.line_of("opponent") if "opponent" in item else line,
                        "a match check needs an opponent: random, greedy or alphabeta:D "
                        "(the reference alpha-beta at depth D), e.g. opponent: \"alphabeta:2\"")
        opponent = None
    else:
        from ..play import baseline
        try:
            baseline(opponent)
        except ValueError as error:
            context.problem(item.line_of("opponent"), str(error))
            opponent = None
    options = play_options(item, context, default_games=10)
    thresholds = _thresholds(item, context, line)
    if thresholds and "points" in item and item["points"] != thresholds[-1][1]:
        context.problem(item.line_of("points"), f"a match check is worth its last threshold's "
                        f"points ({thresholds[-1][1]:g}); leave points out or make them equal")
    stop_early = item.get("stop_early", False)
    if not isinstance(stop_early, bool):
        context.problem(item.line_of("stop_early"), "stop_early is true or false (stop the "
                        "games once every threshold is clearly reached or missed)")
        stop_early = False
    margin = _margin(item, context)
    game_problem(context, line, KIND)
    return {"opponent": opponent, **options, "thresholds": thresholds,
            "stop_early": stop_early, "margin": margin}


def play_options(item, context, default_games: int) -> dict:
    """The options of how a series is played, shared by the kinds that grade by play
    (``match``, ``rating``): ``games``, ``opening``, ``seed``, ``move_seconds`` and
    ``game_seconds``."""
    games = _whole(item, context, "games", default_games, 2, MAX_GAMES, "pairs of games, the "
                   "seats swapped: an even number")
    if games % 2:
        context.problem(item.line_of("games"), f"games must be even (pairs with the seats "
                        f"swapped), not {games}")
    opening = _whole(item, context, "opening", 2, 0, MAX_OPENING, "random plies before each "
                     "pair")
    seed = _whole(item, context, "seed", 1, 0, 2 ** 31, "the seed of the openings")
    move_seconds = _seconds(item, context, "move_seconds")
    game_seconds = _seconds(item, context, "game_seconds")
    if move_seconds and game_seconds and move_seconds > game_seconds:
        context.problem(item.line_of("move_seconds"), "move_seconds must not be more than "
                        "game_seconds (a move is part of a game)")
    return {"games": games, "opening": opening, "seed": seed, "move_seconds": move_seconds,
            "game_seconds": game_seconds}


def _margin(item, context) -> float:
    from ..play.sprt import DEFAULT_MARGIN
    value = item.get("margin", DEFAULT_MARGIN)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 0.5:
        context.problem(item.line_of("margin"), "margin must be a share between 0 and 0.5 "
                        "(how far from a threshold the share must clearly be, e.g. 0.05)")
        return DEFAULT_MARGIN
    if "margin" in item and not item.get("stop_early", False):
        context.problem(item.line_of("margin"), "margin only counts with stop_early: true; "
                        "add it or leave margin out")
    return float(value)


def game_problem(context, line, kind: str = KIND) -> None:
    """What keeps the task's game from being played by the referee, as a problem (``kind``:
    the check kind that wants it played)."""
    if context.convention != "game":
        context.problem(line, f"a {kind} check plays the game convention's search "
                        "name(game, state, depth): leave the task's convention at game")
    if context.game in ("tree", "none") or context.game_spec is None:
        context.problem(line, f"a {kind} check needs a game two players play: tictactoe, "
                        "connect4, kalah or a course's own game module")
        return
    from ..games import make_rules
    from ..play.referee import two_players
    try:
        two_players(make_rules(json.loads(context.game_spec)), {"kind": context.game})
    except ValueError as error:
        context.problem(line, str(error))
        return
    if context.game in DEPTH_NEEDED and context.depth is None:
        context.problem(line, f"a {kind} check on {context.game} needs the task's depth: a "
                        "search to the end of the game does not finish a move")


def points_of(options) -> float:
    """The check's points: its last threshold's (module docstring)."""
    thresholds = options.get("thresholds") or ()
    return thresholds[-1][1] if thresholds else 0.0


def calls(task, check):
    return []


def seconds_of(task, check, series_count: int = 1) -> tuple[float, float]:
    """CPU seconds per move and per game: the check's, else the task's ``call_seconds`` and
    its ``submission_seconds`` shared by all the games of the check's ``series_count``
    series."""
    games = check.option("games") * series_count
    move_seconds = check.option("move_seconds") or task.limits.call_seconds
    game_seconds = check.option("game_seconds") or max(move_seconds,
                                                       task.limits.submission_seconds / games)
    return move_seconds, game_seconds


def series(task, check):
    """The games this check needs played (``grader.play.series``)."""
    from ..play.series import Series
    games = check.option("games")
    move_seconds, game_seconds = seconds_of(task, check)
    stop_early = bool(check.option("stop_early"))
    # without early stopping the thresholds stay out of the series: checks that differ in
    # their thresholds only share one series of games
    stopping = {"stop_early": True, "margin": check.option("margin"),
                "thresholds": tuple(share for share, _ in check.option("thresholds"))} \
        if stop_early else {}
    return [Series(spec=task.game_spec, module=task.module_of(check.function),
                   function=check.function, depth=task.depth,
                   evaluation=getattr(task, "evaluation", None),
                   opponent=check.option("opponent"), games=games,
                   opening=check.option("opening"), seed=check.option("seed"),
                   move_seconds=move_seconds, game_seconds=game_seconds, **stopping)]


def game_facts(number: int, record: dict) -> dict:
    """One game from the student's view: ``number`` from 1; the student moves first in the
    games of odd number (``grader.play.series``)."""
    players = record["players"]
    seat = next(s for s, p in players.items() if p.get("kind") == "submission")
    from ..play.referee import FLIPPED    # here: grading without matches imports no players
    first = number % 2 == 1
    result = record["result"]
    if not first:
        result = FLIPPED[result]
    forfeit = record.get("forfeit")
    return {"number": number, "seat": seat, "first": first, "result": result,
            "reason": record["reason"],
            "by": None if forfeit is None else
            ("student" if forfeit["player"] == seat else "opponent"),
            "detail": (forfeit or {}).get("detail") or {},
            "seed": record["seed"],
            "moves": sum(1 for m in record["moves"] if not m.get("opening"))}


def judge(check, observations, answers):
    record = observations[0]
    if not isinstance(record, dict):        # not played: an empty submission's observation
        return run_failure(check, record)
    games = [game_facts(number, replay)
             for number, replay in enumerate(record["games"], 1)]
    won = sum(g["result"] == "win" for g in games)
    drawn = sum(g["result"] == "draw" for g in games)
    points = won + drawn / 2
    share = points / len(games)
    thresholds = [list(pair) for pair in check.option("thresholds")]
    # the shares are multiples of 1/(2 games): compared in points, exactly
    reached = [pair for pair in thresholds if points >= pair[0] * len(games) - 1e-9]
    earned = reached[-1][1] if reached else 0.0
    earned = min(earned, check.points)
    traceback = next((g["detail"].get("traceback") for g in games
                      if g["by"] == "student" and g["detail"].get("traceback")), None)
    facts = {"opponent": record["opponent"], "games": len(games), "won": won,
             "drawn": drawn, "lost": len(games) - won - drawn, "points": whole(points),
             "percent": round(100 * share), "share": share,
             "thresholds": [[share, whole(worth)] for share, worth in thresholds],
             "reached": reached[-1] if reached else None, "earned": whole(earned),
             "full": whole(check.points), "game_list": [summary(g) for g in games],
             "forfeits": sum(g["by"] == "student" for g in games),
             "replays": record["games"]}
    if "planned" in record:
        facts["stopped"] = stopping_facts(record, thresholds, len(games))
    if traceback:
        facts["traceback"] = traceback
    full = earned >= check.points
    return Verdict(check, full, check.points if full else earned,
                   "ok" if full else "match.points", facts)


def stopping_facts(record: dict, thresholds: list, played: int) -> dict:
    """What early stopping did: the games played of those planned, and each threshold's
    decision by the sequential test after the last pair played."""
    decisions = [[share, decision] for (share, _), decision
                 in zip(thresholds, record["decisions"])]
    return {"played": played, "planned": record["planned"],
            "early": played < record["planned"], "decisions": decisions,
            **{side: [share for share, decision in decisions if decision == side]
               for side in ("above", "below", "open")}}


def whole(number: float):
    """A number of points as it reads: 3, not 3.0."""
    return int(number) if float(number).is_integer() else number


def summary(game: dict) -> dict:
    """A game as the feedback lists it: the detail cut to what a sentence names."""
    detail = game["detail"]
    kept = {key: detail[key] for key in ("type", "message", "file", "line", "seconds",
                                         "detail", "module", "function", "action", "legal",
                                         "wall", "wall_seconds", "observed_type",
                                         "expected_type")
            if key in detail}
    if "action" in kept:    # as JSON, so that the column "3" (a string) does not read as 3
        kept["action"] = canonical(kept["action"])
    # a move idle too long, and CPU used between moves charged to a move (issue 23)
    kept.update({key: detail[key] for key in ("idle_seconds", "between_seconds")
                 if key in detail})
    return {**{k: v for k, v in game.items() if k != "detail"}, **kept}
