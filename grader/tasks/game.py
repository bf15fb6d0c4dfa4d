"""A task's game and position -> its game spec (canonical JSON): tic-tac-toe, matchsticks,
Kalah, Connect Four, a tree (``grader.tasks.tree``) or a course's own game module; then what
a depth limit adds to it (a heuristic tabulated at the horizon,
``grader.answers.heuristics``) and the quiescence rule (``noisy:``, ``extension:``).

The games themselves (``grader/games/``) judge their positions; these readers quote their
messages at the key's line.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..calls import canonical
from ..games.connect4 import DEFAULT_SIZE, BoardError, read_board, size_problem
from ..games.kalah import PositionError as KalahPositionError
from ..games.kalah import normalise_position as kalah_position
from ..games.tictactoe import normalise_board
from ..yamlsrc import LocatedList
from .model import HEURISTIC_GAMES
from .schema import default
from .sheet import Sheet
from .tree import tree_spec


def game_spec_of(sheet: Sheet, game: str, raw) -> str | None:
    """The spec of one of the grader's games, with the task's position; None for ``none``
    (and where the position has a problem, reported)."""
    if game == "none":
        return None
    if game == "tictactoe":
        board = raw.get("board")
        if not isinstance(board, str):
            if not raw.given("board") or "board" in raw:
                sheet.problem(raw.line_of("board") if "board" in raw else raw.line,
                              "a tictactoe task needs board: \"X.O/.X./..O\" (rows of X, O, .)")
            return None
        try:
            return canonical({"kind": "tictactoe", "board": normalise_board(board)})
        except ValueError as error:
            sheet.problem(raw.line_of("board"), str(error))
            return None
    if game == "kalah":
        return kalah_spec(sheet, raw)
    if game == "connect4":
        return connect4_spec(sheet, raw)
    if game == "nim":
        if "sticks" not in raw:
            if not raw.given("sticks"):
                sheet.problem(raw.line, "a nim task needs sticks: a whole number from 0 to 60")
            return None
        if raw.given("take") and "take" not in raw:
            return None
        return canonical({"kind": "nim", "sticks": raw["sticks"],
                          "max_take": raw.get("take", default("task", "take")),
                          "last_loses": raw.get("last_loses", default("task", "last_loses"))})
    return tree_spec(sheet, raw)


def plugin_spec(sheet: Sheet, path_text: str, raw) -> str | None:
    """The spec of a course's own game module (``game: ./games/race.py``, relative to the
    task file; ``options:`` its options): the module's source travels in the spec (see
    ``grader/games/plugin.py``).  The module is run here once, to check its contract."""
    from ..games.plugin import PluginRules, interface_problems, load_source
    line = raw.line_of("game")
    path = Path(sheet.file).parent / path_text
    name = path.stem
    if not name.isidentifier():
        sheet.problem(line, f"{path_text}: a game module's file name must be a Python "
                      "name (letters, digits, _), e.g. games/race.py")
        return None
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        sheet.problem(line, f"{path_text}: cannot read the game module ({error}); the path "
                      "is relative to this task file")
        return None
    try:
        namespace = load_source(name, source)
    except SyntaxError as error:
        sheet.problem(line, f"{path}:{error.lineno}: {error.msg}")
        return None
    except Exception as error:  # noqa: BLE001 - the module's own code, run at load
        sheet.problem(line, f"{path_text}: running the module raised "
                      f"{type(error).__name__}: {error}")
        return None
    lacking = interface_problems(namespace)
    for problem in lacking:
        sheet.problem(line, f"{path_text}: {problem}")
    if lacking:
        return None
    if raw.given("options") and "options" not in raw:
        return None
    options = raw.get("options", {})
    spec = {"kind": "plugin", "name": name, "source": source, "path": path_text,
            "options": {str(k): v for k, v in options.items()}}
    try:
        rules = PluginRules(json.loads(canonical(spec)))
        root = rules.initial_state()
        if not rules.is_terminal(root):
            actions = rules.actions(root)
            json.dumps(actions)
            rules.to_move(root)
            if actions:
                rules.result(root, actions[0])
    except ValueError as error:
        sheet.problem(raw.line_of("options") if "options" in raw else line,
                      f"{path_text}: {error}")
        return None
    except Exception as error:  # noqa: BLE001 - the module's own code
        sheet.problem(line, f"{path_text}: its rules fail on the first position: "
                      f"{type(error).__name__}: {error}")
        return None
    spec["methods"] = sorted(m for m in ("evaluate", "show")
                             if callable(getattr(rules.rules, m, None)))
    return canonical(spec)


def kalah_spec(sheet: Sheet, raw) -> str | None:
    """``pits`` and ``stones`` (6 and 4 by default), or an explicit position: ``board``,
    the 2n + 2 stone counts counter-clockwise from MAX's first pit; ``to_move`` (MAX by
    default) either way."""
    spec = {key: list(raw[key]) if isinstance(raw[key], LocatedList) else raw[key]
            for key in ("pits", "stones", "board", "to_move") if key in raw}
    if "board" in spec and "stones" in spec:
        sheet.problem(raw.line_of("stones"), "give either stones (every pit alike) or a "
                      "board (an explicit position), not both")
        return None
    try:
        board, to_move = kalah_position(spec)
    except KalahPositionError as error:
        sheet.problem(raw.line_of(error.key) if error.key in raw else raw.line, str(error))
        return None
    if "board" in spec:
        return canonical({"kind": "kalah", "board": list(board), "to_move": to_move})
    return canonical({"kind": "kalah", "pits": len(board) // 2 - 1,
                      "stones": board[0], "to_move": to_move})


def connect4_spec(sheet: Sheet, raw) -> str | None:
    """``game: connect4``: the board size (7x6, connect 4 unless given), who moves first,
    and the position (``board:``, rows from the top; an empty board when left out)."""
    size = {key: raw.get(key, default("task", key)) for key in DEFAULT_SIZE}
    problem = size_problem(**size)
    if problem:
        wrong = next((key for key in DEFAULT_SIZE if key in raw and key in problem), None)
        sheet.problem(raw.line_of(wrong) if wrong else raw.line, problem)
        return None
    first = raw.get("first", default("task", "first"))
    board = raw.get("board")
    if board is None:
        board = "/".join(["." * size["columns"]] * size["rows"])
    elif not isinstance(board, str):
        sheet.problem(raw.line_of("board"), "a connect4 board is text: the rows from the "
                      "top, one a line, e.g. board: |\n  .......\n  ...X...")
        return None
    try:
        state = read_board(board, first=first, **size)
    except BoardError as error:
        line = raw.line_of("board")
        if error.line is not None and "\n" in board:
            line += 1 + error.line          # a block scalar starts below its key
        sheet.problem(line, str(error))
        return None
    spec = {"kind": "connect4", **size, "board": state}
    if first != "X":
        spec["first"] = first
    return canonical(spec)


def quiet_rule(sheet: Sheet, raw, game, game_spec, depth, references) -> str | None:
    """The game spec with the task's quiescence rule: ``noisy:`` (which positions are
    noisy, a rule the game defines: ``grader/games/quiet.py``) and ``extension:`` (how
    many plies beyond the horizon a noisy position is searched on, 2 unless given)."""
    from ..games import RULES
    quiescent = [f for f, r in references.items() if r == "quiescence"]
    if raw.given("noisy") and "noisy" not in raw:
        return None
    if "noisy" not in raw:
        if "extension" in raw:
            sheet.problem(raw.line_of("extension"), "extension: is how far a noisy "
                          "position extends the horizon; it needs the task's noisy: rule")
        if quiescent:
            sheet.problem(raw.line_of("functions") if "functions" in raw else raw.line,
                          f"{', '.join(quiescent)}: a quiescence search needs the task to "
                          "say which positions are noisy, e.g. noisy: captures")
        return game_spec
    rule, line = raw["noisy"], raw.line_of("noisy")
    known = getattr(RULES.get(game), "noisy_rules", ())
    if not known:
        games = ", ".join(f"{name} ({', '.join(rules.noisy_rules)})"
                          for name, rules in RULES.items()
                          if getattr(rules, "noisy_rules", ()))
        sheet.problem(line, f"noisy: needs a game that defines noisy positions; {game} "
                      f"does not (games that do, with their rules: {games})")
        return None
    if rule not in known:
        sheet.problem(line, f"unknown noisy rule {rule!r} for {game}; use one of "
                      f"{', '.join(known)}")
        return None
    if raw.given("extension") and "extension" not in raw:
        return None
    extension = raw.get("extension", default("task", "extension"))
    if depth is None:
        if not raw.given("depth"):
            sheet.problem(line, "a quiescence search extends the horizon of a "
                          "depth-limited search: give the task a depth (depth: 2)")
        return None
    if game_spec is None:
        return None
    return canonical({**json.loads(game_spec), "noisy": rule, "extension": extension})


def read_heuristic(sheet: Sheet, raw, game, depth) -> str | None:
    """The task's ``heuristic:``, a name in ``reference.evaluation.EVALUATIONS``, or None."""
    if "heuristic" not in raw:
        return None
    from reference.evaluation import EVALUATIONS
    name, line = raw["heuristic"], raw.line_of("heuristic")
    if game not in HEURISTIC_GAMES:
        sheet.problem(line, f"heuristic: is for games without heuristic values of their "
                      f"own ({', '.join(HEURISTIC_GAMES)}); "
                      + ("a tree's heuristic values are written into it, e.g. \"C (4)\""
                        if game == "tree" else f"{game} cannot look one up"))
        return None
    if name not in EVALUATIONS:
        sheet.problem(line, f"unknown heuristic {name!r}; known: "
                      f"{', '.join(sorted(EVALUATIONS))}")
        return None
    if depth is None:
        if raw.given("depth"):    # an invalid depth, reported already
            return None
        sheet.problem(line, "a heuristic is evaluated at the horizon of a depth-limited "
                      "search: give the task a depth (depth: 2) or leave heuristic out")
        return None
    return name


def heuristic_spec(sheet: Sheet, game_spec, depth, heuristic, line) -> str | None:
    """The game spec with the heuristic's values at the task's positions
    (``grader.answers.heuristics``): the child gets values, never the evaluation's code."""
    from reference.evaluation import EVALUATIONS
    from ..answers.heuristics import MAX_TREE_NODES, TableTooLarge, heuristic_table
    spec = json.loads(game_spec)
    try:
        table = heuristic_table(spec, depth, EVALUATIONS[heuristic])
    except TableTooLarge as error:
        sheet.problem(line, f"depth {depth} is too deep for heuristic {heuristic}: the game "
                      f"tree within the horizon has more than {MAX_TREE_NODES:,} nodes, "
                      "and every search of every student visits them all; use depth "
                      f"{error.largest_depth} or less, or a position with fewer free moves")
        return None
    except Exception as error:  # an evaluation written for another game
        sheet.problem(line, f"heuristic {heuristic} cannot evaluate the positions of this "
                      f"game ({type(error).__name__}: {error})")
        return None
    return canonical({**spec, "heuristic": heuristic, "heuristic_values": table})


def check_horizon(sheet: Sheet, game_spec, depth, line, rounds: bool = False) -> None:
    """Every non-terminal node at the horizon needs a heuristic value (``rounds``: the
    depth counts rounds of all players, as agents of the multi-agent convention do)."""
    spec = json.loads(game_spec)
    if rounds:
        depth *= len(spec.get("players") or ("MAX", "MIN"))
    nodes = spec["nodes"]
    frontier = [spec["root"]]
    for _ in range(depth):
        frontier = [c for name in frontier for c in nodes[name].get("children", [])]
    missing = [n for n in frontier if nodes[n].get("children") and nodes[n].get("eval") is None]
    if missing:
        sheet.problem(line, f"depth {depth} evaluates the nodes {', '.join(missing)} at the "
                      "horizon, but they have no heuristic value; write them as "
                      "\"NAME (value)\"")
