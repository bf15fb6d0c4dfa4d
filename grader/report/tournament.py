"""The class tournament's reports (issue 13): ``leaderboard.html``, ``ratings.csv`` and one
page per player with its games, as board pictures move by move.

Input is the tournament's record (plain JSON, written by ``grader.play.tournament``: the
players, the schedule and every game's replay in ``grader.play.referee``'s format) and the
ratings the engine computed from it (``grader.play.ratings.rate``).  This module only reads
them: it plays no game and rates none, so the same record always gives the same pages.

What a page may never do: show a player's id or name as markup (they are the students'
folder names; the templates autoescape, and the positions' captions reach the page as JSON
that a script puts in as text), or use one in a file name (``player_files`` keeps only
``[A-Za-z0-9_-]`` behind the player's number).  Every word a reader sees is in the
catalogue's ``tournament`` section, in German and English.

Why a script steps through a game rather than a page of boards: a 16-player round robin
gives each player 30 games of 15 to 40 plies, and every position drawn as markup makes a
player's page about five times as large (``bench/tournament_pages.py``: 702 KiB against
131 KiB, medians); the positions travel as short JSON frames instead.  The last position is
drawn on the page itself, so the result can be read without the script.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from pathlib import Path

from jinja2.utils import htmlsafe_json_dumps

from .. import __version__
from ..games import make_rules
from ..play.ratings import Z_95, Rating, leaderboard, rate, separated
from ..play.referee import FLIPPED
from ..play.record import RECORD
from ..play.record import TOURNAMENT_FORMAT as RECORD_FORMAT
from .messages import Catalogue
from .positions import game_of, line_positions
from .files import write_atomically
from .safe import csv_cell
from .templating import TEMPLATES

PLAYERS_FOLDER = "players"
MAX_SLUG = 40                       # characters of a player's id kept in its file's name


def tournament_files(record: dict, ratings: dict[str, Rating]) -> dict[str, str | bytes]:
    """Relative path -> content: ``leaderboard.html``, ``ratings.csv`` and
    ``players/<file>.html`` for every player of the record, baselines too."""
    if record.get("format") != RECORD_FORMAT:
        raise ValueError(f"not a tournament record of format {RECORD_FORMAT!r}")
    catalogue = Catalogue(record.get("language", "en"))
    files = player_files(record["players"])
    games = game_list(record)
    rows = standings(record, ratings, games, files)
    ui = _ui(catalogue)
    common = {"record": record, "ui": ui, "lang": catalogue.language, "version": __version__,
              "game_title": catalogue.text("tournament.game", **record["game"])}
    out = {"leaderboard.html": TEMPLATES.get_template("leaderboard.html.j2").render(
               rows=rows, baselines=baselines(record), groups=groups(rows),
               scale=interval_scale(ratings),
               forfeits=forfeits(games, files), games=len(games), **common),
           "ratings.csv": ratings_csv(rows, baselines(record))}
    # each game is drawn once, for the pages of both its players
    pictures = {game["number"]: game_pictures(game, catalogue) for game in games}
    for row in rows:
        own = [player_game(game, row["id"], files, pictures[game["number"]])
               for game in games if row["id"] in game["seats"].values()]
        out[files[row["id"]]] = TEMPLATES.get_template("player.html.j2").render(
            row=row, games=own, opponents=opponents(own, files),
            players=len(rows), **common)
    return out


def games_page(replays: list[dict], language: str, title: str) -> str:
    """The games of one check that grades by play (a match's, a rating's), drawn as on a
    tournament player's page, from the view of the submission's player (the one described
    as ``kind: submission``), without a leaderboard or a rating: the page the feedback
    links."""
    catalogue = Catalogue(language)
    described: dict = {}
    for replay in replays:
        for description in replay["players"].values():
            described.setdefault(description["name"], description)
    player = next(name for name, description in described.items()
                  if description.get("kind") == "submission")
    record = {"format": RECORD_FORMAT, "title": title, "language": language,
              "game": replays[0]["game"],
              "players": [{"id": name, **description}
                          for name, description in described.items()],
              "games": [{"round": None, "pair": (number + 1) // 2,
                         "game": 2 - number % 2, "replay": replay}
                        for number, replay in enumerate(replays, 1)]}
    games = game_list(record)
    pictures = {game["number"]: game_pictures(game, catalogue) for game in games}
    own = [player_game(game, player, {}, pictures[game["number"]])
           for game in games if player in game["seats"].values()]
    row = {"rank": None, "id": player, "player": described.get(player, {}), "name": player,
           "kind": "submission", "rating": None, "half": None, **tally(games, player)}
    return TEMPLATES.get_template("player.html.j2").render(
        row=row, games=own, opponents=opponents(own, {}), players=len(described),
        standalone=True, record=record, ui=_ui(catalogue), lang=catalogue.language,
        version=__version__, game_title=catalogue.text("tournament.game", **record["game"]))


def _ui(catalogue: Catalogue):
    def ui(key: str, **facts):
        return catalogue.html(f"tournament.{key}", **facts)
    return ui


# -- who is who ------------------------------------------------------------------------------

def slug(player_id: str) -> str:
    """The part of a player's id that may stand in a file name: letters, digits, ``_`` and
    ``-`` only (no dot, no slash), at most ``MAX_SLUG`` of them."""
    return re.sub(r"[^A-Za-z0-9_-]+", "", str(player_id))[:MAX_SLUG]


def player_files(players: list[dict]) -> dict[str, str]:
    """Player id -> its page, ``players/<NN>-<slug>.html``: the number (the player's place in
    the record, from 1) keeps two ids of the same slug apart."""
    files = {}
    for index, player in enumerate(players, 1):
        name = slug(player["id"])
        files[player["id"]] = (f"{PLAYERS_FOLDER}/{index:02d}-{name}.html" if name
                               else f"{PLAYERS_FOLDER}/{index:02d}.html")
    return files


def baselines(record: dict) -> list[str]:
    """The baselines' ids in the record's order: the leaderboard's columns of records."""
    return [p["id"] for p in record["players"] if p.get("kind") == "baseline"]


def seats_of(spec: dict) -> list[str]:
    """The game's two seats, the first mover's first (the replays' point of view)."""
    return [seat for seat in make_rules(spec).players if seat != "CHANCE"]


# -- the games -------------------------------------------------------------------------------

def game_list(record: dict) -> list[dict]:
    """Every game of the record, numbered from 1 in the schedule's order, with its seats
    (seat -> player id) and each player's result."""
    order = seats_of(record["game"])
    games = []
    for number, game in enumerate(record["games"], 1):
        replay = game["replay"]
        seats = {seat: replay["players"][seat]["name"] for seat in order}
        first_result = replay["result"]
        results = {seats[order[0]]: first_result, seats[order[1]]: FLIPPED[first_result]}
        games.append({"number": number, "round": game.get("round"), "pair": game.get("pair"),
                      "in_pair": game.get("game"), "replay": replay, "seats": seats,
                      "order": order, "results": results})
    return games


def tally(games: list[dict], player_id: str, opponent: str | None = None) -> dict:
    """Wins, draws, losses and points of ``player_id`` (against ``opponent`` only, if one is
    named)."""
    counts = {"win": 0, "draw": 0, "loss": 0}
    for game in games:
        if player_id not in game["results"]:
            continue
        if opponent is not None and opponent not in game["results"]:
            continue
        counts[game["results"][player_id]] += 1
    return {"wins": counts["win"], "draws": counts["draw"], "losses": counts["loss"],
            "games": sum(counts.values()),
            "points": counts["win"] + counts["draw"] / 2}


def standings(record: dict, ratings: dict[str, Rating], games: list[dict],
              files: dict[str, str]) -> list[dict]:
    """The leaderboard's rows, best first (``ratings.leaderboard``; a player the ratings do
    not know comes last, unrated), each with its record against every baseline and whether
    the games tell it apart from the next row's player (``separated``)."""
    players = {p["id"]: p for p in record["players"]}
    rated = [r for r in leaderboard(ratings) if r.player in players]
    unrated = [pid for pid in players if pid not in ratings]
    order = [r.player for r in rated] + unrated
    rows = []
    for rank, player_id in enumerate(order, 1):
        rating = ratings.get(player_id)
        rows.append({"rank": rank, "id": player_id, "player": players[player_id],
                     "name": players[player_id].get("name", player_id),
                     "kind": players[player_id].get("kind", "submission"),
                     "file": files[player_id], "rating": rating,
                     "half": rating.z * rating.sigma if rating else None,
                     **tally(games, player_id),
                     "against": {b: (tally(games, player_id, b) if b != player_id else None)
                                 for b in baselines(record)},
                     "gap": False})
    for row, below in zip(rows, rows[1:]):
        if row["rating"] and below["rating"]:
            row["gap"] = separated(row["rating"], below["rating"])
    add_interval_bars(rows)
    return rows


def add_interval_bars(rows: list[dict]) -> None:
    """Each rated row's interval as a bar on one scale for all (percent of the span from the
    lowest ``low`` to the highest ``high``): overlapping intervals can be seen at a glance."""
    rated = [row["rating"] for row in rows if row["rating"]]
    if not rated:
        return
    bottom = min(r.low for r in rated)
    span = (max(r.high for r in rated) - bottom) or 1.0
    for row in rows:
        rating = row["rating"]
        if rating:
            row["bar"] = {"left": round(100 * (rating.low - bottom) / span, 1),
                          "width": round(100 * (rating.high - rating.low) / span, 1),
                          "mu": round(100 * (rating.mu - bottom) / span, 1)}


def interval_scale(ratings: dict[str, Rating]) -> dict:
    """What the leaderboard's explanation says of the intervals, from the ratings themselves:
    their ``z``, the probability it stands for, and the prior every player starts from (the
    rating model's, as ``rate`` gives it to a player without games)."""
    z = next(iter(ratings.values())).z if ratings else Z_95
    prior = rate([], ["prior"], z=z)["prior"]
    return {"z": f"{z:g}", "percent": round(100 * math.erf(z / math.sqrt(2))),
            "prior": f"{prior.mu:g}", "prior_half": f"{z * prior.sigma:.1f}"}


def groups(rows: list[dict]) -> list[list[str]]:
    """The rated players cut where neighbours are separated: the groups the tournament tells
    apart, best first (players within a group it does not rank with confidence)."""
    cut, current = [], []
    for row in rows:
        if row["rating"] is None:
            continue
        current.append(row["name"])
        if row["gap"]:
            cut.append(current)
            current = []
    if current:
        cut.append(current)
    return cut


def forfeits(games: list[dict], files: dict[str, str]) -> list[dict]:
    """The games a player lost by not moving (a crash, a timeout, an illegal move, ...),
    by player and then in the schedule's order: what an instructor looks at first."""
    found = []
    for game in games:
        forfeit = game["replay"].get("forfeit")
        if not forfeit:
            continue
        loser = game["seats"][forfeit["player"]]
        opponent = next(pid for seat, pid in game["seats"].items()
                        if seat != forfeit["player"])
        found.append({"player": loser, "opponent": opponent, "number": game["number"],
                      "round": game["round"], "reason": forfeit["reason"],
                      "detail": forfeit.get("detail") or {},
                      "moves": played_moves(game["replay"]),
                      "link": f"{files[loser]}#game-{game['number']}" if loser in files
                      else None})
    rank = {pid: index for index, pid in enumerate(files)}
    return sorted(found, key=lambda f: (rank.get(f["player"], len(rank)), f["number"]))


def played_moves(replay: dict) -> int:
    """The moves the players made (the random opening's plies are no player's)."""
    return sum(1 for move in replay["moves"] if not move.get("opening"))


def player_game(game: dict, player_id: str, files: dict[str, str], pictures: dict) -> dict:
    """One game from ``player_id``'s view: seat, opponent, result, reason, and its
    ``pictures`` (``game_pictures``: the same on both players' pages)."""
    replay = game["replay"]
    seat = next(s for s, pid in game["seats"].items() if pid == player_id)
    opponent = next(pid for s, pid in game["seats"].items() if s != seat)
    forfeit = replay.get("forfeit")
    return {"number": game["number"], "round": game["round"], "pair": game["pair"],
            "in_pair": game["in_pair"], "seat": seat, "first": seat == game["order"][0],
            "first_seat": game["order"][0],
            "opponent": opponent, "opponent_file": files.get(opponent),
            "result": game["results"][player_id], "reason": replay["reason"],
            "score": replay.get("score"),
            "by": None if not forfeit else ("self" if forfeit["player"] == seat
                                            else "opponent"),
            "detail": (forfeit or {}).get("detail") or {},
            "moves": replay["moves"], "played": played_moves(replay),
            "opening": sum(1 for move in replay["moves"] if move.get("opening")),
            **pictures}


def game_pictures(game: dict, catalogue: Catalogue) -> dict:
    """The positions of a game, move by move: ``frames`` for the stepper (and as compact
    JSON, ``frames_json``: a player's page holds some thirty games' frames), ``final`` the
    last position as the page draws it."""
    replay = game["replay"]
    spec = replay["game"]
    positions = _positions(spec, replay["moves"])
    kind = game_of(spec)
    frames = [frame(kind, positions[index] if positions else None, replay["moves"], index,
                    catalogue) for index in range(len(replay["moves"]) + 1)]
    return {"kind": kind, "final": positions[-1] if positions else None,
            "columns": len(positions[-1]["grid"][0]) if kind == "connect4" and positions
            else None,
            "frames": frames,
            "frames_json": htmlsafe_json_dumps(frames, separators=(",", ":"))}


def _positions(spec: dict, moves: list[dict]) -> list | None:
    """The positions of a replay's game; None where the game has no pictures or the replay
    is not a line of the game (then the moves are listed without boards)."""
    try:
        return line_positions(spec, [(move["player"], move["action"]) for move in moves])
    except (KeyError, TypeError, ValueError, IndexError):
        return None


def frame(kind: str | None, position: dict | None, moves: list[dict], index: int,
          catalogue: Catalogue) -> dict:
    """The position after ``index`` moves as the stepper's frame: ``c`` its caption (text,
    put in with textContent), ``o`` set for a move of the random opening, and the board's
    cells in the order the page draws them: ``m`` a string of marks (``.`` empty) for
    tic-tac-toe and Connect Four or a list of stones for Kalah, ``l`` the cell of the last
    move (-1: none); ``n`` the sticks left for matchsticks."""
    move = moves[index - 1] if index else None
    state = _state_text(kind, position, catalogue)
    caption = catalogue.text("tournament.ply", number=index, total=len(moves), kind=kind,
                             player=move["player"] if move else None,
                             action=move["action"] if move else None,
                             opening=bool(move and move.get("opening")), state=state)
    shown = {"c": caption}
    if move and move.get("opening"):
        shown["o"] = 1
    if position is None:
        return shown
    if kind == "tictactoe":
        cells = position["cells"]
    elif kind == "connect4":
        cells = [cell for row in position["grid"] for cell in row]
    elif kind == "kalah":
        cells = ([{"mark": position["min_store"], "last": False}]
                 + [{"mark": pit["stones"], "last": pit["last"]} for pit in position["top"]]
                 + [{"mark": position["max_store"], "last": False}]
                 + [{"mark": pit["stones"], "last": pit["last"]}
                    for pit in position["bottom"]])
        shown["m"] = [cell["mark"] for cell in cells]
        shown["l"] = next((i for i, cell in enumerate(cells) if cell["last"]), -1)
        return shown
    elif kind == "nim":
        shown["n"] = position["sticks"]
        return shown
    else:
        return shown
    shown["m"] = "".join(cell["mark"] or "." for cell in cells)
    shown["l"] = next((i for i, cell in enumerate(cells) if cell["last"]), -1)
    return shown


def _state_text(kind: str | None, position: dict | None, catalogue: Catalogue) -> str | None:
    """What a board does not show by itself: the sticks left, Kalah's extra turn and final
    score, a course's game as its show(state) prints it."""
    if position is None:
        return None
    if kind == "nim":
        return catalogue.text("ui.nim_state", sticks=position["sticks"],
                              player=position["to_move"])
    if kind == "kalah":
        return catalogue.text("ui.kalah_state", player=position["to_move"],
                              again=position["again"],
                              score=position["score"]["MAX"] if position["score"] else 0)
    if kind == "plugin":
        return position["text"]
    return None


def opponents(games: list[dict], files: dict[str, str]) -> list[dict]:
    """The player's record against each opponent it met, in the order they were first met."""
    met: dict[str, dict] = {}
    for game in games:
        counts = met.setdefault(game["opponent"], {"id": game["opponent"],
                                                   "file": files.get(game["opponent"]),
                                                   "win": 0, "draw": 0, "loss": 0})
        counts[game["result"]] += 1
    return list(met.values())


# -- ratings.csv -----------------------------------------------------------------------------

def ratings_csv(rows: list[dict], baseline_ids: list[str]) -> str:
    """The leaderboard as a spreadsheet: one row per player, best first; every cell through
    ``safe.csv_cell`` (a student's folder may be named like a formula)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([csv_cell(cell) for cell in
                     ["rank", "player", "kind", "mu", "sigma", "low", "high", "games", "wins",
                      "draws", "losses", "points", *(f"vs {b}" for b in baseline_ids)]])
    for row in rows:
        rating = row["rating"]
        # numbers stay numbers: csv_cell would mark a negative one's text as a formula
        numbers = ([round(value, 3) for value in (rating.mu, rating.sigma, rating.low,
                                                  rating.high)] if rating else ["", "", "", ""])
        against = [_wdl(row["against"][b]) for b in baseline_ids]
        writer.writerow([csv_cell(cell) for cell in
                         [row["rank"], row["id"], row["kind"], *numbers, row["games"],
                          row["wins"], row["draws"], row["losses"], row["points"],
                          *against]])
    return buffer.getvalue()


def _wdl(counts: dict | None) -> str:
    """``W-D-L`` (empty against oneself)."""
    if counts is None:
        return ""
    return f"{counts['wins']}-{counts['draws']}-{counts['losses']}"


def write_reports(out: Path, outcome) -> None:
    """``tournament.json`` and the pages under ``out``, of a played tournament (``outcome``:
    ``grader.play.tournament.Outcome``)."""
    out = Path(out)
    write_atomically(out / RECORD, json.dumps(outcome.record, indent=1, ensure_ascii=False))
    files = tournament_files(outcome.record, outcome.ratings)
    for relative, content in files.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, content)
    # pages of players an earlier tournament in this folder had and this one has not
    written = {out / relative for relative in files}
    for folder in {(out / relative).parent for relative in files} - {out}:
        for stale in folder.glob("*.html"):
            if stale not in written and stale.is_file() and not stale.is_symlink():
                stale.unlink()
