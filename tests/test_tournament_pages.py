"""The class tournament's reports (issue 13): leaderboard.html, ratings.csv and a page per
player, built from a record of real games.

The records are played here as the tournament engine plays them: the referee's pairs between
the built-in baselines (trusted, in-process, fast) and students' searches in the real sandbox
(``tests/data/play/``: one that crashes, one that raises), one of them under an id full of
markup, quotes and a slash.  The pages are written with the writer the engine uses and
looked at in real Chromium.  Nothing here depends on the machine's speed: only players that
fail at once run in a sandbox, and the baselines' games are decided by their seeds.
"""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from grader.games import make_rules
from grader.play import Limits, SandboxedPlayer, baseline, play_pair
from grader.play.ratings import leaderboard, rate, separated
from grader.report.tournament import RECORD_FORMAT, player_files, tournament_files
from grader.report.files import write_atomically

from conftest import CHROMEDRIVER, CHROMIUM, NO_BROWSER, open_page

PLAYERS = Path(__file__).resolve().parent / "data" / "play"
CONNECT4 = {"kind": "connect4", "columns": 7, "rows": 6, "connect": 4}
# A student's folder name as hostile as it gets: a formula for a spreadsheet, markup for a
# page, quotes for an attribute, and a way out of the players' folder for a file name.
HOSTILE = "=<b>x</b>&\"'/../evil"


def play_record(spec: dict, players: dict, pairs: int = 1, opening: int = 2,
                language: str = "en", complete: bool = True,
                limits: Limits = Limits(move_seconds=5.0, game_seconds=60.0)
                ) -> tuple[dict, dict]:
    """A round robin of ``players`` (id -> (description, player)), ``pairs`` pairs of games
    per meeting, as the engine records it, and the ratings the engine computes from it."""
    ids = list(players)
    games, results = [], []
    for index, a in enumerate(ids):
        for b in ids[index + 1:]:
            for pair in range(1, pairs + 1):
                played = play_pair(spec, players[a][1], players[b][1], f"7/{a}/{b}/{pair}",
                                   opening=opening, limits=limits)
                for number, game in enumerate(played.games, 1):
                    games.append({"round": 1, "a": a, "b": b, "pair": pair, "game": number,
                                  "replay": game.replay})
                    first, second = (a, b) if number == 1 else (b, a)
                    results.append((first, second, game.points))
    record = {"format": RECORD_FORMAT, "title": "Vier gewinnt: Turnier", "language": language,
              "task": "c4-spiel", "game": spec,
              "schedule": {"kind": "round-robin", "pairs": pairs, "opening": opening,
                           "seed": 7, "rounds": 1},
              "limits": {"move_seconds": limits.move_seconds,
                         "game_seconds": limits.game_seconds},
              "players": [{"id": pid, "name": pid, **players[pid][0]} for pid in ids],
              "games": games, "complete": complete, "wall_seconds": 12.5}
    return json.loads(json.dumps(record)), rate(results, ids)


def baselines(*names: str) -> dict:
    described = {}
    for name in names:
        player = baseline(name)
        described[name] = ({key: value for key, value in player.describe().items()
                            if key != "name"}, player)
    return described


def write(files: dict, out: Path) -> Path:
    """The pages as the engine writes them: each file atomically under ``out``."""
    for name, content in files.items():
        write_atomically(out / name, content)
    return out


@pytest.fixture(scope="module")
def tournament(child_script, tmp_path_factory):
    """Connect Four: three baselines, a student whose search crashes (under the hostile id)
    and one whose search raises, two pairs per meeting; the record, ratings and pages."""
    crashing = SandboxedPlayer(PLAYERS / "abstuerzend", child_script, depth=2, name=HOSTILE)
    raising = SandboxedPlayer(PLAYERS / "ausnahme", child_script, depth=2, name="ausnahme")
    try:
        players = baselines("alphabeta:2", "greedy", "random")
        for player in (crashing, raising):
            described = {k: v for k, v in player.describe().items() if k != "name"}
            players[player.name] = (described, player)
        record, ratings = play_record(CONNECT4, players, pairs=2)
    finally:
        crashing.close()
        raising.close()
    files = tournament_files(record, ratings)
    out = write(files, tmp_path_factory.mktemp("tournament"))
    return record, ratings, files, out


class Links(HTMLParser):
    """Every link's target and every element id of a page."""

    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
        if "id" in attrs:
            self.ids.add(attrs["id"])


def parsed(path: Path) -> Links:
    parser = Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_player_gets_a_page_whose_file_name_keeps_only_safe_characters(tournament):
    record, _, files, out = tournament
    pages = [name for name in files if name.startswith("players/")]
    assert len(pages) == len(record["players"]) == 5
    assert set(files) == {"leaderboard.html", "ratings.csv", *pages}
    for name in pages:
        assert re.fullmatch(r"players/\d\d-[A-Za-z0-9_-]*\.html", name), name
    assert player_files(record["players"])[HOSTILE] == "players/04-bxbevil.html"
    # written inside the out folder, nowhere else
    written = {str(path.relative_to(out)) for path in out.rglob("*") if path.is_file()}
    assert written == set(files)
    # two ids that keep the same characters still get pages of their own
    twins = player_files([{"id": "a/b"}, {"id": "ab"}, {"id": "../"}])
    assert list(twins.values()) == ["players/01-ab.html", "players/02-ab.html",
                                    "players/03.html"]


def test_every_link_of_the_leaderboard_and_the_player_pages_reaches_a_written_file(tournament):
    _, _, files, out = tournament
    pages = [out / name for name in files if name.endswith(".html")]
    checked = 0
    for page in pages:
        for href in parsed(page).links:
            target = urlsplit(href)
            assert not target.scheme and not target.netloc, f"{page.name}: {href} leaves"
            resolved = (page.parent / unquote(target.path)).resolve()
            assert resolved.is_file(), f"{page.name}: {href} leads nowhere"
            assert out.resolve() in resolved.parents
            if target.fragment:
                assert target.fragment in parsed(resolved).ids, f"{href}: no such game"
            checked += 1
    board_links = parsed(out / "leaderboard.html").links
    assert {link for link in board_links if "#" not in link} == \
        {name for name in files if name.startswith("players/")}
    assert checked > 40


def test_names_are_shown_as_text_never_as_markup(tournament):
    _, _, files, out = tournament
    escaped = "=&lt;b&gt;x&lt;/b&gt;&amp;&#34;&#39;/../evil"
    for name, content in files.items():
        if name.endswith(".html"):
            assert "<b>x</b>" not in content, name
    board = files["leaderboard.html"]
    assert escaped in board
    page = files["players/04-bxbevil.html"]
    assert escaped in page
    # the stepper's frames hold no markup either (the script puts captions in as text)
    for frames in re.findall(r'<script type="application/json" class="frames">(.*?)</script>',
                             page, re.S):
        assert "<" not in frames
        json.loads(frames)


def test_ratings_csv_has_a_row_per_player_best_first_with_safe_cells(tournament):
    record, ratings, files, _ = tournament
    rows = list(csv.DictReader(io.StringIO(files["ratings.csv"])))
    assert list(rows[0])[:12] == ["rank", "player", "kind", "mu", "sigma", "low", "high",
                                  "games", "wins", "draws", "losses", "points"]
    assert list(rows[0])[12:] == ["vs alphabeta:2", "vs greedy", "vs random"]
    order = [rating.player for rating in leaderboard(ratings)]
    assert [row["player"] for row in rows] == \
        ["'" + pid if pid.startswith("=") else pid for pid in order]
    for row in rows:
        player = HOSTILE if row["player"] == "'" + HOSTILE else row["player"]
        rating = ratings[player]
        assert float(row["mu"]) == pytest.approx(rating.mu, abs=1e-3)
        assert float(row["low"]) == pytest.approx(rating.low, abs=1e-3)
        assert float(row["high"]) == pytest.approx(rating.high, abs=1e-3)
        assert (int(row["games"]), int(row["wins"]), int(row["draws"]), int(row["losses"])) \
            == (rating.games, rating.wins, rating.draws, rating.losses)
        assert float(row["points"]) == rating.points
        # every player met every baseline in two pairs: four games, W-D-L
        for column in ("vs alphabeta:2", "vs greedy", "vs random"):
            if column == f"vs {player}":
                assert row[column] == ""
            else:
                assert sum(map(int, row[column].split("-"))) == 4
    crashed = next(row for row in rows if row["player"] == "'" + HOSTILE)
    # it wins only where the raising student is to move first (two games of four)
    assert crashed["kind"] == "submission" and crashed["wins"] == "2"
    assert crashed["vs random"] == "0-0-4"


def test_forfeits_are_listed_with_their_reasons_and_the_traceback_is_shown_escaped(tournament):
    record, _, files, _ = tournament
    board = files["leaderboard.html"]
    forfeits = board[board.index('id="forfeits"'):]
    lost = [game for game in record["games"] if game["replay"]["forfeit"]]
    # the crashing and the raising student lose every game by forfeit (16 each; the four
    # games of their meeting are forfeited by whoever moves first)
    assert len(lost) == 16 + 16 - 4
    assert forfeits.count("<li>") == len(lost)
    assert "it crashed (exit status 3)" in forfeits
    assert "it raised IndexError: list index out of range (minimax.py, line 6)" in forfeits
    page = files["players/05-ausnahme.html"]
    assert "This player lost without a valid move: it raised IndexError" in page
    assert "<pre>  File &#34;minimax.py&#34;, line 6, in alphabeta" in page
    # a baseline's page names the opponent's failure, not its own
    assert "The opponent lost without a valid move: it crashed" in files["players/03-random.html"]


def gap_rows(board: str) -> list[bool]:
    """Whether each row of the leaderboard, top to bottom, has the line below it."""
    rows = re.findall(r'<tr class="(?:baseline|submission)( gap)?" data-player=', board)
    return [bool(gap) for gap in rows]


def test_a_timeout_and_an_illegal_move_are_named_as_such(child_script):
    hanging = SandboxedPlayer(PLAYERS / "endlos", child_script, depth=2, name="endlos")
    illegal = SandboxedPlayer(PLAYERS / "regelwidrig", child_script, depth=2,
                              name="regelwidrig")
    try:
        players = baselines("random")
        for player in (hanging, illegal):
            players[player.name] = ({k: v for k, v in player.describe().items()
                                     if k != "name"}, player)
        # the hanging player reaches its CPU limit per move; the others never think as long
        # (random, and a player whose first move is illegal): 0.3 s, since each of the
        # hanging player's forfeits costs the whole limit
        record, ratings = play_record(CONNECT4, players, opening=0,
                                      limits=Limits(move_seconds=0.3, game_seconds=10.0))
    finally:
        hanging.close()
        illegal.close()
    board = tournament_files(record, ratings)["leaderboard.html"]
    assert "endlos lost game 1 (round 1) against random: it gave no move within 0.3 s of " \
        "computing time" in board
    assert "regelwidrig lost game 4 (round 1) against random: it played 7, not a legal move " \
        "(legal: 0, 1, 2, 3, 4, 5, 6), at the first move." in board
    assert "Thinking time: 0.3 s per move and 10.0 s per game (CPU seconds)." in board


def test_the_leaderboard_marks_where_neighbours_are_told_apart():
    # six pairs are enough to tell alpha-beta at depth 2 from random at Connect Four
    record, ratings = play_record(CONNECT4, baselines("alphabeta:2", "random"), pairs=6)
    ranked = leaderboard(ratings)
    assert [r.player for r in ranked] == ["alphabeta:2", "random"]
    assert separated(*ranked)
    board = tournament_files(record, ratings)["leaderboard.html"]
    assert gap_rows(board) == [True, False]
    assert "Groups the games tell apart, best first: alphabeta:2 ≫ random." in board
    # the intervals drawn on one scale: the lowest low at 0 %, the highest high at 100 %
    bars = [tuple(map(float, found)) for found in re.findall(
        r'<span style="left: ([\d.]+)%; width: ([\d.]+)%"></span><i style="left: ([\d.]+)%">',
        board)]
    (top_left, top_width, top_mu), (low_left, low_width, low_mu) = bars
    assert low_left == 0 and top_left + top_width == pytest.approx(100, abs=0.2)
    assert top_mu > low_mu and top_left > 0


def test_no_line_where_the_games_do_not_tell_neighbours_apart(tournament):
    _, ratings, files, _ = tournament
    ranked = leaderboard(ratings)
    gaps = [separated(a, b) for a, b in zip(ranked, ranked[1:])]
    assert gap_rows(files["leaderboard.html"]) == gaps + [False]
    if not any(gaps):
        assert "These games tell no two neighbouring players apart." in files["leaderboard.html"]


def test_each_game_steps_through_positions_that_end_in_the_referees_final_position(
        tournament):
    record, _, files, _ = tournament
    page = files["players/01-alphabeta2.html"]
    frames = [json.loads(found) for found in re.findall(
        r'<script type="application/json" class="frames">(.*?)</script>', page, re.S)]
    own = [game for game in record["games"]
           if "alphabeta:2" in (game["a"], game["b"])]
    assert len(frames) == len(own) == 16
    for shown, game in zip(frames, own):
        replay = game["replay"]
        assert len(shown) == len(replay["moves"]) + 1
        assert shown[0]["m"] == "." * 42 and shown[0]["l"] == -1
        assert shown[-1]["m"] == replay["final"].replace("/", "")
        opening = [frame for frame in shown[1:] if frame.get("o")]
        assert len(opening) == replay["opening"] == 2
        assert all("(random opening)" in frame["c"] for frame in opening)
        # each move adds one disc, in the column the move names, marked as the last
        for before, after, move in zip(shown, shown[1:], replay["moves"]):
            added = [i for i, (a, b) in enumerate(zip(before["m"], after["m"])) if a != b]
            assert added == [after["l"]] and after["l"] % 7 == move["action"]


@pytest.mark.parametrize("spec", [{"kind": "tictactoe", "board": "........."},
                                  {"kind": "kalah"},
                                  {"kind": "nim", "sticks": 9, "max_take": 3}],
                         ids=["tictactoe", "kalah", "nim"])
def test_the_other_games_are_drawn_too(spec, tmp_path):
    players = baselines("random", "alphabeta:3")
    record, ratings = play_record(spec, players, opening=1)
    files = tournament_files(record, ratings)
    page = files["players/01-random.html"]
    frames = [json.loads(found) for found in re.findall(
        r'<script type="application/json" class="frames">(.*?)</script>', page, re.S)]
    assert len(frames) == 2
    rules = make_rules(spec)
    for shown, game in zip(frames, record["games"]):
        final = game["replay"]["final"]
        if spec["kind"] == "tictactoe":
            assert shown[-1]["m"] == final and 'class="board"' in page
        elif spec["kind"] == "kalah":
            board = final[0]
            assert shown[-1]["m"] == [board[rules.store_of("MIN")],
                                      *(board[p] for p in reversed(rules.pits_of("MIN"))),
                                      board[rules.store_of("MAX")],
                                      *(board[p] for p in rules.pits_of("MAX"))]
            assert 'class="kalah"' in page
        else:
            assert shown[0]["n"] == 9 and shown[-1]["n"] == final[0] == 0
            assert "sticks left" in shown[0]["c"]


def test_an_unfinished_tournament_says_so_and_german_pages_are_german(child_script):
    record, ratings = play_record(CONNECT4, baselines("greedy", "random"), language="de",
                                  complete=False)
    files = tournament_files(record, ratings)
    board = files["leaderboard.html"]
    assert '<html lang="de">' in board
    assert "Nicht beendet: als das Turnier anhielt, waren erst 2 Partien gespielt" in board
    assert "grader tournament --resume" in board
    assert "Diese Partien unterscheiden keine zwei benachbarten Spieler." in board
    assert "Rangliste: Vier gewinnt: Turnier" in board
    assert "wirft einen Stein in Spalte" in files["players/01-greedy.html"]


def test_a_record_of_another_format_is_refused():
    with pytest.raises(ValueError, match="tournament record"):
        tournament_files({"format": "gametree-grader series 1"}, {})


# -- in a real browser -----------------------------------------------------------------------

browser_only = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason=NO_BROWSER)


@browser_only
def test_the_leaderboard_sorts_by_a_column_in_the_browser(browser, tournament):
    _, ratings, _, out = tournament
    assert open_page(browser, out / "leaderboard.html") == []

    def column(number):
        return [row.find_elements("css selector", "td")[number].get_attribute("data-sort")
                for row in browser.find_elements("css selector", "#leaderboard tbody tr")]

    buttons = browser.find_elements("css selector", "#leaderboard thead button")
    assert len(buttons) == 6 + 3, "rank, player, rating, games, W/D/L, points, 3 baselines"
    buttons[5].click()                                   # points, ascending
    points = [float(value) for value in column(5)]
    assert points == sorted(points) and points[0] < points[-1]
    buttons[5].click()
    assert [float(value) for value in column(5)] == sorted(points, reverse=True)
    buttons[1].click()                                   # by name
    assert column(1) == sorted(column(1), key=str.lower) or column(1) == sorted(column(1))
    assert browser.find_element("css selector", "#leaderboard").get_attribute(
        "data-sorted") == "1 ascending"
    buttons[0].click()                                   # back to the ranks, best first
    assert [int(value) for value in column(0)] == list(range(1, len(ratings) + 1))
    assert open_page(browser, out / "leaderboard.html") == []


@browser_only
def test_the_stepper_moves_through_a_game(browser, tournament):
    _, _, _, out = tournament
    assert open_page(browser, out / "players" / "01-alphabeta2.html") == []
    game = browser.find_element("css selector", "details.game")
    game.find_element("tag name", "summary").click()
    counter = game.find_element("css selector", ".counter")
    caption = game.find_element("css selector", ".caption")
    total = int(counter.text.split("/")[1])

    def discs():
        return len(game.find_elements("css selector", ".c4board .x, .c4board .o"))

    def step(name):
        game.find_element("css selector", f"button[data-step='{name}']").click()

    assert counter.text == f"{total} / {total}" and discs() == total
    step("first")
    assert counter.text == f"0 / {total}" and discs() == 0
    assert game.find_element("css selector", "button[data-step='previous']").get_attribute(
        "disabled")
    step("next")
    assert counter.text == f"1 / {total}" and discs() == 1
    assert "(random opening)" in caption.text
    assert len(game.find_elements("css selector", ".c4board .last")) == 1
    assert "current" in game.find_elements("css selector", "ol.moves li")[0].get_attribute(
        "class")
    step("next")
    step("next")
    assert counter.text == f"3 / {total}" and discs() == 3
    assert "random opening" not in caption.text
    step("previous")
    assert counter.text == f"2 / {total}" and discs() == 2
    step("last")
    assert counter.text == f"{total} / {total}" and discs() == total
    game.find_elements("css selector", "ol.moves li")[1].click()     # a move of the list
    assert counter.text == f"2 / {total}" and discs() == 2
    assert open_page(browser, out / "players" / "01-alphabeta2.html") == []


@browser_only
def test_the_kalah_stepper_changes_the_stones(browser, tmp_path):
    record, ratings = play_record({"kind": "kalah"}, baselines("greedy", "random"), opening=1)
    out = write(tournament_files(record, ratings), tmp_path)
    assert open_page(browser, out / "players" / "01-greedy.html") == []
    game = browser.find_element("css selector", "details.game")
    game.find_element("tag name", "summary").click()

    def stones():
        return [cell.text for cell in game.find_elements("css selector", ".kalah > span")]

    final = stones()
    game.find_element("css selector", "button[data-step='first']").click()
    start = stones()
    assert start != final and sorted(set(start)) == ["0", "4"]    # empty stores, 4 a pit
    game.find_element("css selector", "button[data-step='next']").click()
    assert stones() != start


@browser_only
@pytest.mark.parametrize("page", ["leaderboard.html", "players/04-bxbevil.html"])
def test_the_pages_fit_a_phone(browser, tournament, page):
    _, _, _, out = tournament
    browser.set_window_size(375, 812)
    try:
        assert open_page(browser, out / page) == []
        for game in browser.find_elements("css selector", "details.game")[:3]:
            game.find_element("tag name", "summary").click()
        width = browser.execute_script("return document.documentElement.scrollWidth")
        viewport = browser.execute_script("return document.documentElement.clientWidth")
        assert width <= viewport, "only the table scrolls sideways, not the page"
    finally:
        browser.set_window_size(1000, 1400)


def test_players_the_ratings_do_not_know_are_listed_unrated_after_the_rated(tournament):
    record, ratings, _, _ = tournament
    known = {pid: rating for pid, rating in ratings.items() if pid != "greedy"}
    files = tournament_files(record, known)
    rows = list(csv.DictReader(io.StringIO(files["ratings.csv"])))
    assert rows[-1]["player"] == "greedy" and rows[-1]["mu"] == ""
    assert rows[-1]["games"] == "16"            # its games are still counted
    assert "not rated" in files["leaderboard.html"]
    assert "Not rated yet." in files["players/02-greedy.html"]


def test_a_course_s_own_game_is_shown_by_its_show_state():
    from grader.tasks import load_course
    tasks = Path(__file__).resolve().parent / "data" / "plugin-game" / "tasks"
    spec = json.loads(load_course(tasks).tasks[0].game_spec)
    record, ratings = play_record(spec, baselines("random", "alphabeta:3"), opening=1)
    files = tournament_files(record, ratings)
    assert "Game: race." in files["leaderboard.html"]
    rules = make_rules(spec)
    page = files["players/01-random.html"]
    for found, game in zip(re.findall(r'class="frames">(.*?)</script>', page, re.S),
                           record["games"]):
        frames = json.loads(found)
        state = rules.initial_state()
        assert frames[0]["c"].endswith(str(rules.rules.show(state)))
        for shown, move in zip(frames[1:], game["replay"]["moves"]):
            state = rules.result(state, move["action"])
            assert shown["c"].endswith(str(rules.rules.show(state)))
            assert f'plays {move["action"]}' in shown["c"]


def test_the_explanation_takes_its_numbers_from_the_ratings():
    record, _ = play_record(CONNECT4, baselines("greedy", "random"))
    seats = [[p["name"] for p in game["replay"]["players"].values()] for game in record["games"]]
    points = {"win": 1, "draw": 0.5, "loss": 0}
    games = [(*pair, points[game["replay"]["result"]])
             for pair, game in zip(seats, record["games"])]
    narrow = rate(games, z=1.0)
    board = tournament_files(record, narrow)["leaderboard.html"]
    assert "μ ± 1 σ: the true skill lies in that interval with about 68 % probability" in board
    assert "Every player starts at 25 ± 8.3;" in board
    assert "larger than 1 times the standard deviation of the difference" in board
    assert f"{narrow['greedy'].mu:.1f} ± {narrow['greedy'].sigma:.1f}" in board
