"""The positions behind the node names of a visit table, for tic-tac-toe, matchsticks and
Kalah and Connect Four, and of a game played move by move (a class tournament's games).

A visit log names a node of a game search by the actions that lead to it from the task's
position, joined by ``-`` (``"4-0-8"``: a mark on cell 4, then on 0, then on 8; in Connect Four ``"3-3-4"``: discs
dropped into columns 3, 3 and 4; ``"root"`` is
the task's position itself).  To show a board or a pile of sticks next to such a name, the
path is replayed with the game's own rules (``grader.games.make_rules`` on the picture's
spec); this module knows no rule of its own and never names a node: ``rules.node_name`` does.
Explicit trees are left alone: their nodes have names of their own, and pictures.

Everything here is data for the templates (``feedback.html.j2``, ``feedback.md.j2``); every
word a reader sees is in the message catalogue.
"""

from __future__ import annotations

from ..games import make_rules

SHOWN_GAMES = ("tictactoe", "nim", "kalah", "connect4", "plugin")
MAX_SHOWN_TEXT = 80       # characters of a course game's show(state) kept in a table cell
MAX_EXAMPLE_STEPS = 3     # moves spelled out in the legend's example path
MAX_DRAWN_STICKS = 40     # larger piles are given as a number only


class PathReplay:
    """Node names of one game's search -> the states they stand for.

    >>> replay = PathReplay({"kind": "nim", "sticks": 5, "max_take": 2})
    >>> replay.state_of("1-2")
    ((2, 'MAX'), [('MAX', 1), ('MIN', 2)])
    """

    def __init__(self, spec: dict):
        self.rules = make_rules(spec)
        self.root = self.rules.initial_state()
        self._known: dict = {"root": (self.root, [])}

    def state_of(self, name):
        """``(state, steps)`` of the node ``name``, steps being ``(player, action)`` from the
        root; None for a name no path of legal moves leads to."""
        if not isinstance(name, str):
            return None
        if name in self._known:
            return self._known[name]
        state, steps, current = self.root, [], "root"
        while current != name:
            for action in self.rules.actions(state):
                child = self.rules.result(state, action)
                child_name = self.rules.node_name(current, action, child)
                # The child lies on the path if its name is the whole name or a prefix of it
                # that ends where the next action's separator begins.
                if name == child_name or (name.startswith(child_name)
                                          and not name[len(child_name)].isalnum()):
                    steps = steps + [(self.rules.to_move(state), action)]
                    state, current = child, child_name
                    self._known.setdefault(current, (state, steps))
                    break
            else:
                return None
        return state, steps


def game_of(spec) -> str | None:
    kind = spec.get("kind") if isinstance(spec, dict) else None
    if kind == "plugin" and "show" not in spec.get("methods", ()):
        return None       # a course's own game without show(state): names only
    return kind if kind in SHOWN_GAMES else None


def table_positions(spec, rows: list[dict]) -> dict | None:
    """Add each row's positions (``expected_position``, ``observed_position``) and return the
    legend's facts; None (rows untouched) for a game whose nodes keep their names, or a spec
    an older report kept without its game."""
    game = game_of(spec)
    if game is None:
        return None
    try:
        replay = PathReplay(spec)
    except (KeyError, TypeError, ValueError):
        return None
    describe = DESCRIBERS[game]
    for row in rows:
        for side in ("expected", "observed"):
            found = replay.state_of(row[side])
            row[f"{side}_position"] = describe(replay.rules, *found) if found else None
    return _legend(game, spec, replay, rows)


def line_positions(spec, steps: list) -> list | None:
    """The positions of a game played from the spec's position: before the first of
    ``steps`` (``(player, action)`` pairs, as a replay's moves) and after each, as the
    templates' board dicts (the last move marked); None for a game without pictures.  The
    moves are the referee's, legal by construction: replaying them needs no search, unlike
    a node's name (``PathReplay``).  A class tournament's pages step through them."""
    game = game_of(spec)
    if game is None:
        return None
    rules = make_rules(spec)
    describe = DESCRIBERS[game]
    state, done = rules.initial_state(), []
    positions = [describe(rules, state, [])]
    for player, action in steps:
        state = rules.result(state, action)
        done.append((player, action))
        positions.append(describe(rules, state, done))
    return positions


def _board(rules, state: str, steps: list) -> dict:
    last = steps[-1][1] if steps else None
    return {"cells": [{"mark": "" if mark == "." else mark, "last": cell == last}
                      for cell, mark in enumerate(state)],
            "rows": [state[i:i + 3] for i in range(0, len(state), 3)]}


def _connect4_board(rules, state: str, steps: list) -> dict:
    """The grid of discs, row by row from the top; the disc the node's last move dropped is
    the topmost one of that column."""
    rows = state.split("/")
    last = steps[-1][1] if steps else None
    last_row = next((number for number, row in enumerate(rows)
                     if last is not None and row[last] != "."), None)
    return {"grid": [[{"mark": "" if mark == "." else mark,
                       "last": number == last_row and column == last}
                      for column, mark in enumerate(row)] for number, row in enumerate(rows)],
            "rows": rows,
            "to_move": None if rules.is_terminal(state) else rules.to_move(state)}


def _shown(rules, state, steps: list) -> dict | None:
    """A course's own game: its ``show(state)``, one line, cut to ``MAX_SHOWN_TEXT``
    characters (None where the module has no show or it fails: the node keeps its name)."""
    show = getattr(rules.rules, "show", None)
    if not callable(show):
        return None
    try:
        text = " ".join(str(show(state)).split())
    except Exception:       # the course's module, not the grader: the name alone will do
        return None
    if len(text) > MAX_SHOWN_TEXT:
        text = text[:MAX_SHOWN_TEXT - 1] + "…"
    return {"text": text,
            "to_move": None if rules.is_terminal(state) else rules.to_move(state)}


def _pile(rules, state: tuple, steps: list) -> dict:
    sticks = state[0]
    return {"sticks": sticks, "drawn": sticks if sticks <= MAX_DRAWN_STICKS else None,
            "to_move": None if rules.is_terminal(state) else rules.to_move(state)}


def _kalah(rules, state: tuple, steps: list) -> dict:
    """Both rows of pits as seen from MAX's side (MIN's row on top, right to left in the
    board's numbering), the stores at the ends, the pit the last move sowed from, and who is
    to move: again, after a move into one's own store."""
    board, player = state
    last = steps[-1][1] if steps else None

    def pits(places):
        return [{"place": place, "stones": board[place], "last": place == last}
                for place in places]
    top = pits(reversed(rules.pits_of("MIN")))
    bottom = pits(rules.pits_of("MAX"))
    over = rules.is_terminal(state)
    min_store, max_store = board[rules.store_of("MIN")], board[rules.store_of("MAX")]
    return {"top": top, "bottom": bottom, "min_store": min_store, "max_store": max_store,
            "text": _kalah_text(top, bottom, min_store, max_store),
            "to_move": None if over else player,
            "again": bool(steps) and not over and steps[-1][0] == player,
            "score": {"MAX": rules.utility(state, "MAX")} if over else None}


def _kalah_text(top, bottom, min_store, max_store) -> str:
    """``[4] 0 2 3 / 2 2 0 [3]``: MIN's store and row, then MAX's row and store."""
    return (f"[{min_store}] {' '.join(str(p['stones']) for p in top)} / "
            f"{' '.join(str(p['stones']) for p in bottom)} [{max_store}]")


# game -> (rules, state, steps) -> the board dict the templates draw
DESCRIBERS = {"tictactoe": _board, "nim": _pile, "kalah": _kalah,
              "connect4": _connect4_board, "plugin": _shown}


def _moves_again(steps: list) -> bool:
    """Whether a player makes two moves in a row on the path (an extra turn)."""
    return any(a[0] == b[0] for a, b in zip(steps, steps[1:]))


def _legend(game: str, spec: dict, replay: PathReplay, rows: list[dict]) -> dict:
    """What the legend says of this table: who moves at the root, the numbering of cells or
    the size of the pile, and one of the table's own paths spelled out move by move."""
    names = [row[side] for row in rows for side in ("expected", "observed")]
    replayed = [(name, replay.state_of(name)) for name in names]
    replayed = [(name, found[1]) for name, found in replayed if found and found[1]]
    example = None
    if replayed:
        # One of the table's own paths, the longest that is spelled out whole (the first of
        # several as long): it shows how the moves alternate in what the reader looks at.
        # Where a player can move twice in a row (Kalah), a path with such a turn first.
        short = [item for item in replayed if len(item[1]) <= MAX_EXAMPLE_STEPS]
        name, steps = max(short or replayed, key=lambda item: (
            _moves_again(item[1][:MAX_EXAMPLE_STEPS]), len(item[1])))
        shown = steps[:MAX_EXAMPLE_STEPS]
        example = {"path": name, "steps": [{"player": p, "action": a} for p, a in shown],
                   "more": len(steps) > len(shown)}
    legend = {"game": game, "root_player": replay.rules.to_move(replay.root),
              "example": example}
    if game == "tictactoe":
        cells = range(len(replay.root))
        legend["numbering"] = [list(cells[i:i + 3]) for i in range(0, len(cells), 3)]
    elif game == "kalah":
        rules = replay.rules
        numbering = {"top": [{"place": p, "stones": p, "last": False}
                             for p in reversed(rules.pits_of("MIN"))],
                     "bottom": [{"place": p, "stones": p, "last": False}
                                for p in rules.pits_of("MAX")],
                     "min_store": rules.store_of("MIN"), "max_store": rules.store_of("MAX")}
        numbering["text"] = _kalah_text(numbering["top"], numbering["bottom"],
                                        numbering["min_store"], numbering["max_store"])
        legend.update(numbering=numbering, pits=rules.pits,
                      max_pits=list(rules.pits_of("MAX")), min_pits=list(rules.pits_of("MIN")),
                      position=_kalah(rules, replay.root, [])["text"])
    elif game == "connect4":
        rules = replay.rules
        legend.update(columns=list(range(rules.columns)), rows=rules.rows,
                      connect=rules.connect)
    elif game == "plugin":
        shown = _shown(replay.rules, replay.root, [])
        legend.update(name=spec.get("name"), position=shown["text"] if shown else None)
    else:
        legend.update(sticks=replay.rules.sticks, max_take=replay.rules.max_take,
                      last_loses=replay.rules.last_loses)
    return legend
