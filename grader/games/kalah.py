"""Kalah (Mancala with stores): a game where a player may move twice in a row.

The board has ``n`` pits per side and two stores, numbered counter-clockwise (the way the
stones are sown), MAX's side at the bottom::

             MIN's pits 2n .. n+1
    store 2n+1                    store n
             MAX's pits 0 .. n-1

(for ``n = 3``: MAX sows from 0, 1, 2 into the store 3, MIN from 4, 5, 6 into the store 7;
pit ``i`` of one side faces pit ``2n - i`` of the other.)

States are pairs ``(board, player_to_move)``: ``board`` is a tuple of the ``2n + 2`` stone
counts in that numbering, ``player_to_move`` is ``"MAX"`` or ``"MIN"`` (in a terminal state,
whoever would move next).  **Whose turn it is
comes from the state, never from alternation**: after a move that ends in the mover's own
store the same player moves again.  The actions of a state are the mover's non-empty pits in
that fixed numbering, in increasing order (MAX: 0 .. n-1, MIN: n+1 .. 2n).

The rules (the standard ones; where variants exist, the variant played here is named):

* **sowing**: the mover takes every stone of one of their pits and drops one into each
  following pit counter-clockwise, their own store included, the opponent's store skipped;
  with 2n + 1 stones or more the round passes the emptied pit, which is sown into as well;
* **extra turn**: when the last stone lands in the mover's own store, the mover moves again;
* **capture** (the variant that needs the opposite pit non-empty): when the last stone lands
  in an empty pit of the mover's own side and the opposite pit holds stones, those stones
  *and the capturing stone* go to the mover's store; onto an empty opposite pit the stone
  simply stays;
* **game end** (either side empty, checked after every move): when a move leaves all pits of
  one side empty, the game is over and the stones left on the other side go to *their owner's*
  store (swept by ``result``; a task's own position with an empty side is terminal too, and
  counts its stones the same way).

``utility(state, player)`` is the final store difference, ``player``'s stones minus the
opponent's (positive: ``player`` won), as the study notes score an ended game with the same
``E(s)`` as a position at the horizon.  The built-in heuristic ``evaluate(state, player)`` is
the store difference of the position, ``player``'s store minus the opponent's (the study
notes' standard); it is the game's reference heuristic, not any exercise's model solution,
so it lives here next to the rules and the child may see it.

Spec: ``{"kind": "kalah", "pits": 3, "stones": 3}`` (default 6 pits of 4 stones, MAX to move),
or an explicit position ``{"kind": "kalah", "board": [0, 2, 1, 4, 3, 0, 1, 2],
"to_move": "MIN"}`` (``to_move`` defaults to MAX).

Noisy positions (quiescence search, ``grader/games/quiet.py``), by the spec's ``"noisy"``:
``captures`` (a move of the mover captures) or ``captures-and-extra-turns`` (a move captures
or ends in the mover's own store).

Standard library only, never imports ``reference`` (runs next to student code).
"""

from .paths import PathNames
from .quiet import NoisyRules

MAX = "MAX"
MIN = "MIN"
PLAYERS = (MAX, MIN)
MAX_PITS = 12
MAX_STONES = 24


class PositionError(ValueError):
    """A spec that describes no Kalah position; ``key`` is the spec's key at fault."""

    def __init__(self, key, message):
        super().__init__(message)
        self.key = key


def _count(value):
    return isinstance(value, int) and not isinstance(value, bool)


def normalise_position(spec):
    """``(board, player_to_move)`` of a spec, or PositionError saying what is wrong and how
    to write it instead (the task reader quotes the message at the key's line)."""
    to_move = spec.get("to_move", MAX)
    if to_move not in PLAYERS:
        raise PositionError("to_move", f"to_move {to_move!r} is not a player of Kalah; write "
                            "MAX (the bottom row, pits 0 .. n-1) or MIN (the top row)")
    if spec.get("board") is not None:
        board = spec["board"]
        if (not isinstance(board, (list, tuple)) or len(board) < 4 or len(board) % 2
                or not all(_count(stones) and stones >= 0 for stones in board)):
            raise PositionError("board", f"{board!r} is not a Kalah board: list the stone "
                                "counts of the 2n + 2 places counter-clockwise from MAX's "
                                "first pit: MAX's n pits, MAX's store, MIN's n pits, MIN's "
                                "store, e.g. [3, 3, 3, 0, 3, 3, 3, 0]")
        pits = len(board) // 2 - 1
        if pits > MAX_PITS:
            raise PositionError("board", f"the board has {pits} pits per side; at most "
                                f"{MAX_PITS} are supported")
        if "pits" in spec and spec["pits"] != pits:
            raise PositionError("pits", f"pits: {spec['pits']!r} disagrees with the board, "
                                f"which has {pits} pits per side; leave pits out or make "
                                "them agree")
        return tuple(board), to_move
    pits, stones = spec.get("pits", 6), spec.get("stones", 4)
    if not _count(pits) or not 1 <= pits <= MAX_PITS:
        raise PositionError("pits", f"pits: {pits!r} is not a number of pits per side from 1 "
                            f"to {MAX_PITS}")
    if not _count(stones) or not 1 <= stones <= MAX_STONES:
        raise PositionError("stones", f"stones: {stones!r} is not a number of stones per pit "
                            f"from 1 to {MAX_STONES} (for another position give the board: "
                            "a list of 2n + 2 stone counts)")
    side = (stones,) * pits
    return side + (0,) + side + (0,), to_move


def other(player):
    return MIN if player == MAX else MAX


class KalahRules(PathNames, NoisyRules):
    players = PLAYERS
    noisy_rules = ("captures", "captures-and-extra-turns")

    def __init__(self, spec):
        self.board, self.first = normalise_position(spec)
        self.pits = len(self.board) // 2 - 1
        self.read_noisy(spec)
        # the numbering below, worked out once: the searches ask for it at every node
        pits = self.pits
        self._pits = {MAX: range(0, pits), MIN: range(pits + 1, 2 * pits + 1)}
        self._stores = {MAX: pits, MIN: 2 * pits + 1}

    # -- the board's numbering ---------------------------------------------------------
    def pits_of(self, player):
        """The places of ``player``'s pits, in increasing order (from their own left)."""
        return self._pits[MAX] if player == MAX else self._pits[MIN]

    def store_of(self, player):
        return self._stores[MAX] if player == MAX else self._stores[MIN]

    def opposite(self, pit):
        """The pit facing ``pit`` across the board."""
        return 2 * self.pits - pit

    def owner(self, place):
        return MAX if place <= self.pits else MIN

    # -- the game interface ------------------------------------------------------------
    def initial_state(self):
        return (self.board, self.first)

    def to_move(self, state):
        return state[1]

    def actions(self, state):
        if self.is_terminal(state):
            return []
        board, player = state
        return [pit for pit in self.pits_of(player) if board[pit] > 0]

    def result(self, state, action):
        # a sown pit of the mover's in a game not over is legal without listing the moves
        # (every node a search makes asks); anything else, a foreign state too, is judged
        # by ``actions`` as it always was, with the same errors
        try:
            board, player = state
            legal = (type(action) is int and action in self._pits[player]
                     and board[action] > 0 and not self._ended(board))
        except Exception:
            legal = False
        if not legal:
            self._refuse(state, action)
        board, player = list(state[0]), state[1]
        last = self.sow(board, action, player)
        if self._captures(board, last, player):
            opposite = self.opposite(last)
            board[self.store_of(player)] += board[opposite] + 1
            board[last] = board[opposite] = 0
        following = player if last == self.store_of(player) else other(player)
        if self._ended(board):
            for owner in PLAYERS:
                for pit in self.pits_of(owner):
                    board[self.store_of(owner)] += board[pit]
                    board[pit] = 0
        return (tuple(board), following)

    def _refuse(self, state, action):
        """Raise for an ``action`` that ``actions`` does not list in ``state``, naming those
        it lists."""
        legal = self.actions(state)
        if action not in legal:
            raise ValueError(f"{action!r} is not a legal move in {state!r}: {state[1]} may "
                             f"sow from {legal!r} (the non-empty pits of "
                             f"{state[1]}'s side, numbered counter-clockwise from 0)")

    def _captures(self, board, last, player):
        """Whether a sowing by ``player`` that ended in ``last`` (``board`` sown) captures."""
        return (last != self.store_of(player) and self.owner(last) == player
                and board[last] == 1 and board[self.opposite(last)] > 0)

    def noisy_move(self, state, action, rule):
        """Whether ``action`` captures, or (``captures-and-extra-turns``) ends in the mover's
        own store."""
        board, player = list(state[0]), state[1]
        last = self.sow(board, action, player)
        if rule == "captures-and-extra-turns" and last == self.store_of(player):
            return True
        return self._captures(board, last, player)

    def sow(self, board, pit, player):
        """Sow the stones of ``pit`` into the list ``board`` in place; the last place sown."""
        stones, board[pit] = board[pit], 0
        place, skipped = pit, self.store_of(other(player))
        while stones:
            place = (place + 1) % len(board)
            if place != skipped:
                board[place] += 1
                stones -= 1
        return place

    def is_terminal(self, state):
        return self._ended(state[0])

    def _ended(self, board):
        """Whether either side's pits are all empty (a slice each: every node asks)."""
        pits = self.pits
        return not any(board[:pits]) or not any(board[pits + 1:2 * pits + 1])

    def utility(self, state, player):
        self._check_player(player)
        if not self.is_terminal(state):
            raise ValueError(f"utility() asked of {state!r}, which is not a terminal state")
        return self._holding(state[0], player) - self._holding(state[0], other(player))

    def _holding(self, board, player):
        """A player's stones once the game is over: their store and what is left on their
        side (nothing, after ``result`` swept it)."""
        return board[self.store_of(player)] + sum(board[pit] for pit in self.pits_of(player))

    def evaluate(self, state, player):
        """The store difference, ``player``'s store minus the opponent's."""
        self._check_player(player)
        board = state[0]
        return board[self.store_of(player)] - board[self.store_of(other(player))]

    def _check_player(self, player):
        if player not in self.players:
            raise ValueError(f"unknown player {player!r}; the players are 'MAX' and 'MIN'")
