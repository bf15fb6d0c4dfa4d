"""One task of a task file -> a ``Task``: its id, functions and their modules and model
solutions, its game and position (``grader.tasks.game``), its checks and pins
(``grader.tasks.check_items``), and a hand exercise's answer file (``grader/hand/taskfile.py``).

The schema has checked the task's keys and their types first (``Sheet.section``); a key whose
value it refused is missing here, and ``raw.given(key)`` tells a reader that its problem is
reported already.
"""

from __future__ import annotations

import json

from .. import checks as check_kinds
from ..hand.taskfile import module_of as hand_module
from ..hand.taskfile import read_task as read_hand_task
from .check_items import read_checks, read_pins
from .game import (check_horizon, game_spec_of, heuristic_spec, plugin_spec, quiet_rule,
                   read_heuristic)
from .header import Header, read_limits
from .model import DEFAULT_REFERENCES, HEURISTIC_GAMES, PLAYERS, Task
from .schema import default
from .sheet import Sheet
from .tree import n_player_rules


def read_task(sheet: Sheet, item, line: int, header: Header) -> Task | None:
    """The task ``item`` (written at ``line``), or None when it has a problem."""
    before = len(sheet.problems)
    raw = sheet.section("task", item, line)
    if raw is None:
        return None
    task_id = raw.get("id", f"<task at line {raw.line}>")
    title = str(raw.get("title", task_id))
    convention = raw.get("convention", default("task", "convention"))
    game = raw.get("game", default("task", "game"))
    if game.endswith(".py"):
        game_spec = plugin_spec(sheet, game, raw)
        game = "plugin"
    else:
        game_spec = game_spec_of(sheet, game, raw)
    modules = dict(header.modules)
    functions = read_functions(sheet, raw, modules)
    depth = raw.get("depth")
    if depth is not None and game_spec is not None and game == "tree":
        check_horizon(sheet, game_spec, depth, raw.line_of("depth"),
                      rounds=convention == "multi-agent")
    if depth is not None and game == "plugin" and game_spec is not None \
            and "evaluate" not in json.loads(game_spec)["methods"]:
        sheet.problem(raw.line_of("depth"), f"{raw['game']} defines no evaluate(state, "
                      "player): a depth-limited search needs a heuristic at its horizon")
    heuristic = read_heuristic(sheet, raw, game, depth)
    if heuristic is not None and game_spec is not None:
        game_spec = heuristic_spec(sheet, game_spec, depth, heuristic, raw.line_of("depth"))
    elif depth is not None and game in HEURISTIC_GAMES and not raw.given("heuristic"):
        sheet.problem(raw.line_of("depth"), f"{game} has no heuristic of its own to evaluate "
                      "at the horizon; name a reference evaluation, e.g. "
                      "heuristic: tictactoe-lines")
    elif depth is not None and game == "nim":
        sheet.problem(raw.line_of("depth"), f"{game} has no heuristic to evaluate at a "
                      "horizon; use a tree with heuristic values, e.g. \"C (4)\", "
                      "or connect4 (its window count)")
    # Courses in the style of the Pacman projects prune only on strict inequality.
    prune = raw.get("prune_on_equality",
                    False if convention == "multi-agent" else header.prune_on_equality)
    if convention == "multi-agent" and game not in ("tree", "none"):
        sheet.problem(raw.line_of("convention"), "the multi-agent convention needs a tree "
                      "(or no game, for random-trees checks)")
    for key in ("pits", "stones", "to_move"):
        if key in raw and game != "kalah":
            sheet.problem(raw.line_of(key), f"{key!r} belongs to a kalah task (game: kalah)")
    if game == "kalah" and convention in ("helpers", "negamax-sign"):
        sheet.problem(raw.line_of("convention"), f"the {convention} convention gives the "
                      "student no way to ask whose turn it is, and in Kalah a move into "
                      "one's own store gives another turn; use the game convention "
                      "(game.to_move)")
    task_limits = read_limits(raw.get("limits"), header.limits)
    references = read_references(sheet, raw, functions)
    by_reference = {f: references.get(f, f) for f in functions}
    game_spec = quiet_rule(sheet, raw, game, game_spec, depth, by_reference)
    if game_spec is not None and game == "tree":
        n_player_rules(sheet, raw, game_spec, convention, depth, by_reference)
    evaluation = raw.get("evaluation")
    # a hand exercise: an answer file instead of code, maybe a tree per student
    answers, variants = (read_hand_task(sheet, raw, game, game_spec, depth)
                         if "answers" in raw or not raw.given("answers") else (None, None))
    visibility = raw.get("visibility", default("task", "visibility"))
    context = check_kinds.TaskContext(task_id=task_id, game=game, game_spec=game_spec,
                                      functions=tuple(functions), depth=depth,
                                      file=sheet.file, problems=sheet.problems,
                                      convention=convention, evaluation=evaluation,
                                      references=by_reference,
                                      players=players_cycle(sheet, raw, game, game_spec),
                                      warnings=sheet.warnings)
    task_checks = read_checks(sheet, raw, context, visibility)
    for check in task_checks:
        if answers is None and check.kind.startswith("hand-") and not raw.given("answers"):
            sheet.problem(check.line, f"a {check.kind} check asks about a hand exercise; "
                          "give the task the name of its answer file (answers: aufgabe1)")
    if variants is not None and any(not c.kind.startswith("hand-") for c in task_checks):
        sheet.problem(raw.line_of("variants"), "a task with variants (a tree per student) "
                      "asks only hand questions (hand-* checks): give code checks a task "
                      "of their own")
    if evaluation is not None and not any(
            hasattr(check_kinds.KINDS[c.kind], "series") for c in task_checks):
        sheet.problem(raw.line_of("evaluation"), "evaluation: is the heuristic the "
                      "student's search plays with; this task has no check that plays "
                      "(kind: match)")
    pins = read_pins(sheet, raw, functions, context.references)
    if len(sheet.problems) > before:
        return None
    return Task(id=task_id, title=title, file=sheet.file, line=raw.line, game=game,
                game_spec=game_spec, functions=tuple(functions), depth=depth,
                prune_on_equality=prune,
                modules=tuple((f, modules[f]) for f in functions),
                references=tuple(sorted(references.items())), limits=task_limits,
                checks=tuple(task_checks), pins=pins, due=sheet.due,
                convention=convention, heuristic=heuristic, evaluation=evaluation,
                answers=answers, variants=variants)


def players_cycle(sheet: Sheet, raw, game, game_spec) -> tuple | None:
    """The task's cycle of players: its tree's, or (a task without a game, for random
    trees) as its ``players:`` names it (MAX, then MIN or CHANCE); None where it names
    none."""
    if game == "tree" and game_spec is not None:
        players = json.loads(game_spec).get("players")
        return tuple(players) if players else None
    players = raw.get("players")
    if game != "none" or players is None:
        return None
    if players[0] != "MAX" or any(p not in PLAYERS[1:] for p in players[1:]):
        sheet.problem(raw.line_of("players"), "players is the cycle of players by depth: "
                      "MAX first, then MIN or CHANCE, e.g. [MAX, MIN, MIN]")
        return None
    return tuple(players)


def read_functions(sheet: Sheet, raw, modules: dict) -> list[str]:
    """The student functions the task calls (``functions:`` or ``function:``), each with a
    module to read it from (``modules`` gains the task's own ``module:``)."""
    key = "functions" if raw.given("functions") else "function"
    value = raw.get(key)
    if value is None:
        if not raw.given(key):
            sheet.problem(raw.line, "name the student function(s) this task calls, e.g. "
                          "functions: [minimax, alphabeta]")
        return []
    if isinstance(value, str):
        value = [value]
    if "module" in raw:  # the task's own module for all of its functions
        modules.update({function: raw["module"] for function in value})
    elif isinstance(raw.get("answers"), str):   # a hand exercise: no code, an answer file
        modules.update({function: hand_module(raw["answers"]) for function in value})
    for function in value:
        if function not in modules:
            sheet.problem(raw.line_of(key), f"no module is known for function "
                          f"{function!r}; add it under course.modules or give the task "
                          "a module: key")
    if len(set(value)) != len(value):
        sheet.problem(raw.line_of(key), "a function is listed twice")
    return [f for f in value if f in modules]


def read_references(sheet: Sheet, raw, functions) -> dict:
    """``reference:``: which model solution each function is compared with, where its name
    does not say."""
    from reference.deepening import TECHNIQUES
    from reference.evaluation import EVALUATIONS
    from reference.search import SEARCHES
    from reference.techniques import MOVE_ORDERINGS
    known = {**{name: "search" for name in SEARCHES},
             **{name: "evaluation" for name in EVALUATIONS},
             **{name: "ordering" for name in MOVE_ORDERINGS}}
    known.update({name: "search" for name in TECHNIQUES})
    value = raw.get("reference", {})
    result = {f: DEFAULT_REFERENCES[f] for f in functions if f in DEFAULT_REFERENCES}
    for function, name in value.items():
        if function not in functions:
            sheet.problem(value.line_of(function), f"{function!r} is not one of this "
                          "task's functions")
        elif name not in known:
            sheet.problem(value.line_of(function), f"unknown reference {name!r}; known: "
                          f"{', '.join(sorted(known))}")
        else:
            result[function] = name
    if raw.given("reference") and "reference" not in raw:
        return result      # refused: which model solution was meant is unknown
    for function in functions:
        if function not in SEARCHES and function not in MOVE_ORDERINGS \
                and function not in TECHNIQUES and function not in result:
            sheet.problem(raw.line_of("functions") if "functions" in raw else raw.line,
                          f"say which model solution {function!r} is compared with, e.g. "
                          f"reference: {{{function}: tictactoe-lines}}")
    return result
