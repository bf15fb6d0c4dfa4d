"""The referee: plays one game of a registered two-player game between two players, in the
parent, and keeps its replay; and pairs of games with the seats swapped.

The referee holds the only true state of the game.  It asks the player whose turn the game
says it is (``rules.to_move``: in Kalah a move that ends in the mover's store gives the same
player another move, and the referee asks that player again) for a move, with the CPU
seconds left to it (the per-move limit, or less where the player's per-game budget is nearly
spent), and checks the answer against the legal moves.  A player that answers no legal move
(an illegal or malformed one, an exception, a crash, a timeout, an exhausted budget) loses
the game at once, and the replay says why.

A game is reproducible from its seed: the random opening (``opening`` plies of uniformly
random moves, made by no player, so that deterministic players do not repeat one game) and
the random baseline's moves come from generators seeded by it, and the players in the
sandbox run with a fixed hash seed.  The replay is plain JSON::

    {"format": "gametree-grader replay 1", "game": spec, "seed": 7, "opening": 2,
     "players": {"X": {...}, "O": {...}},          # seat -> the player's description
     "moves": [{"player": "X", "action": 3, "opening": true}, ...
               {"player": "O", "action": 2, "seconds": 0.04}],
     "result": "win", "score": 1, "reason": "end", "forfeit": null,
     "final": "......./....",
     "cpu": {"O": {"charged": 0.52, "used": 0.52}}}

``result`` and ``score`` are from the first player's view (the spec's first mover:
``rules.players[0]``): ``win``/``draw``/``loss`` and the game's utility at the end (Kalah's
final store difference, +1/0/-1 in tic-tac-toe and Connect Four); after a forfeit the score
is None and ``forfeit`` names the seat, its reason, the details (the exception, the time
limit) and the CPU seconds of the lost move.  ``replay(record)`` plays the moves again and returns the final state.

A move's ``seconds`` are its own CPU time (from the question until the sandboxed player was
frozen again after its answer); where the player's processes used CPU between its moves,
that is charged with its next move, against the move's limit and the game's budget, and
shown as the move's ``between``.  ``cpu`` (sandboxed players only) sums a game up per seat:
``charged``, all its moves' seconds and between, and ``used``, what its processes used in
the game by its cgroup's own accounting, so that the two can be compared.

Why pairs (``play_pair``): the side to move first has an advantage, and a random opening may
favour either side; two games from the same opening with the seats swapped cancel both, so a
pair's score (0, 1/2, 1, 3/2 or 2 points of 2) varies much less than two independent games'
(chess-engine testers score pairs for this reason; issue 13).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..games import make_rules
from ..games.moves import same_move, type_mismatch
from .players import Move

REPLAY_FORMAT = "gametree-grader replay 1"
# What a game may last at most, in plies: the bundled games end long before; a course's
# own game that does not end is stopped there and scored a draw.
MAX_PLIES = 1000
# A game's points for the first player by its result, and the result from the other side.
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
FLIPPED = {"win": "loss", "draw": "draw", "loss": "win"}


@dataclass(frozen=True)
class Limits:
    """CPU seconds a player may think: per move, and over one game (each player its own)."""

    move_seconds: float = 5.0
    game_seconds: float = 60.0

    def __post_init__(self):
        if not 0 < self.move_seconds <= self.game_seconds:
            raise ValueError(f"limits: need 0 < move_seconds <= game_seconds, not "
                             f"{self.move_seconds!r} and {self.game_seconds!r}")


@dataclass(frozen=True)
class GameResult:
    """One game: ``result`` (``win``/``draw``/``loss``) and ``score`` from the first player's
    view, ``reason`` (``end``, ``move-limit`` or the loser's failure), and the replay."""

    result: str
    score: float | None
    reason: str
    replay: dict

    @property
    def points(self) -> float:
        """The first player's points: 1 for a win, 1/2 for a draw, 0 for a loss."""
        return POINTS[self.result]


@dataclass(frozen=True)
class PairResult:
    """Two games from one opening, the seats swapped: in ``games[0]`` player A moves first,
    in ``games[1]`` player B does.  ``score`` is A's points over both (0 to 2)."""

    games: tuple
    score: float


def plain_state(state):
    """A state as JSON: tuples become lists (Kalah's ``(board, player)``), strings stay."""
    if isinstance(state, (tuple, list)):
        return [plain_state(part) for part in state]
    return state


def two_players(rules, spec: dict) -> tuple:
    players = tuple(p for p in rules.players if p != "CHANCE")
    if len(players) != 2 or len(tuple(rules.players)) != 2:
        raise ValueError(f"the game {spec.get('kind')!r} has the players {rules.players!r}; "
                         "the referee plays games of two players without chance")
    return players


def random_opening(spec: dict, seed, plies: int) -> list:
    """``plies`` uniformly random moves from the spec's position, from a generator seeded by
    ``seed`` (fewer where the game ends first)."""
    rules = make_rules(spec)
    generator = random.Random(f"opening/{seed}")
    state, moves = rules.initial_state(), []
    for _ in range(plies):
        if rules.is_terminal(state):
            break
        action = generator.choice(rules.actions(state))
        moves.append(action)
        state = rules.result(state, action)
    return moves


def legal(action, actions) -> bool:
    """Whether ``action`` is one of ``actions``, as a value of the same type (``True`` is not
    column 1, ``3.0`` is not cell 3: ``grader.games.moves``).  The referee plays the value it
    was given, so a list is not a tuple here either."""
    return any(type(action) is type(candidate) and same_move(action, candidate)
               for candidate in actions)


def play_game(spec: dict, players: tuple, seed, *, opening: int = 0,
              opening_moves: list | None = None, limits: Limits = Limits()) -> GameResult:
    """One game between ``players`` (the first moves first, as the spec's first player)."""
    rules = make_rules(spec)
    seats = two_players(rules, spec)
    by_seat = dict(zip(seats, players))
    if opening_moves is None:
        opening_moves = random_opening(spec, seed, opening)
    state, moves = rules.initial_state(), []
    for action in opening_moves:
        if rules.is_terminal(state) or not legal(action, rules.actions(state)):
            raise ValueError(f"the opening {opening_moves!r} is not a line of this game")
        moves.append({"player": rules.to_move(state), "action": action, "opening": True})
        state = rules.result(state, action)
    for seat, player in by_seat.items():
        player.start_game(seed, seat)
    spent = dict.fromkeys(seats, 0.0)
    used_before = {seat: _cpu_used(player) for seat, player in by_seat.items()}
    forfeit = None
    while not rules.is_terminal(state) and len(moves) < MAX_PLIES:
        seat = rules.to_move(state)
        left = limits.game_seconds - spent[seat]
        limit = min(limits.move_seconds, left)
        move = by_seat[seat].choose(spec, [m["action"] for m in moves], state, limit)
        spent[seat] += move.seconds + move.between
        failure = move_failure(move, rules.actions(state), limit < limits.move_seconds)
        if failure is not None:
            forfeit = {"player": seat, **failure, **_timing(move)}
            break
        moves.append({"player": seat, "action": move.action, **_timing(move)})
        state = rules.result(state, move.action)
    first = seats[0]
    if forfeit is not None:
        result = "loss" if forfeit["player"] == first else "win"
        score, reason = None, forfeit["reason"]
    elif rules.is_terminal(state):
        score = rules.utility(state, first)
        result = "win" if score > 0 else "loss" if score < 0 else "draw"
        reason = "end"
    else:
        score, result, reason = None, "draw", "move-limit"
    record = {"format": REPLAY_FORMAT, "game": spec, "seed": seed,
              "opening": len(opening_moves),
              "players": {seat: by_seat[seat].describe() for seat in seats},
              "moves": moves, "result": result, "score": score, "reason": reason,
              "forfeit": forfeit, "final": plain_state(state)}
    cpu = {seat: {"charged": round(spent[seat], 4),
                  "used": round(_cpu_used(by_seat[seat]) - used_before[seat], 4)}
           for seat in seats if used_before[seat] is not None}
    if cpu and by_seat[seats[0]] is not by_seat[seats[1]]:
        record["cpu"] = cpu
    return GameResult(result, score, reason, record)


def _cpu_used(player) -> float | None:
    """CPU seconds the player's own processes used so far (``SandboxedPlayer.cpu_used``), or
    None for one without processes of its own."""
    used = getattr(player, "cpu_used", None)
    return used() if used is not None else None


def _timing(move: Move) -> dict:
    """A move's CPU seconds as the replay keeps them: its own, and what was charged with it
    from between moves where there was any."""
    timing = {"seconds": round(move.seconds, 4)}
    if round(move.between, 4) > 0:
        timing["between"] = round(move.between, 4)
    return timing


def move_failure(move: Move, actions: list, budget_bound: bool) -> dict | None:
    """Why ``move`` loses the game (``{"reason", "detail"}``), or None for a legal move.

    A move that passed too long idle (``grader.play.players.MOVE_IDLE_SECONDS``: it slept,
    read or waited) is ``idle``; a timeout under a limit cut short by the per-game budget is
    ``game-budget``."""
    if move.failure == "timeout" and move.detail.get("idle"):
        return {"reason": "idle", "detail": move.detail}
    if move.failure == "timeout" and budget_bound:
        return {"reason": "game-budget", "detail": move.detail}
    if move.failure is not None:
        return {"reason": move.failure, "detail": move.detail}
    if not legal(move.action, actions):
        # a move of another type (3.0 for column 3) says so: observed_type, expected_type
        return {"reason": "illegal", "detail": {"action": move.action, "legal": list(actions),
                                                **(type_mismatch(move.action, actions) or {})}}
    return None


def play_pair(spec: dict, first, second, seed, *, opening: int = 0,
              limits: Limits = Limits()) -> PairResult:
    """Two games from the same random opening with the seats swapped, scored for ``first``
    (module docstring: why pairs)."""
    opening_moves = random_opening(spec, seed, opening)
    games = (play_game(spec, (first, second), seed, opening_moves=opening_moves,
                       limits=limits),
             play_game(spec, (second, first), seed, opening_moves=opening_moves,
                       limits=limits))
    return PairResult(games, games[0].points + (1.0 - games[1].points))


def replay(record: dict):
    """The final state of a replay's game, its moves played again; raises ``ValueError``
    where a move is not legal or was made by a player whose turn it was not."""
    if record.get("format") != REPLAY_FORMAT:
        raise ValueError(f"not a replay of format {REPLAY_FORMAT!r}")
    rules = make_rules(record["game"])
    state = rules.initial_state()
    for number, move in enumerate(record["moves"], 1):
        if rules.is_terminal(state):
            raise ValueError(f"move {number}: the game had ended")
        if move["player"] != rules.to_move(state):
            raise ValueError(f"move {number} was made by {move['player']!r}, but "
                             f"{rules.to_move(state)!r} was to move")
        if not legal(move["action"], rules.actions(state)):
            raise ValueError(f"move {number}: {move['action']!r} is not legal")
        state = rules.result(state, move["action"])
    return state
