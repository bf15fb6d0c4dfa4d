"""The recording game every reference search in the parent goes through, bounded: a task
whose reference search would never end (Connect Four on 7x6 to the end of the game) stops
with ``ReferenceTooLarge`` instead of holding up the batch."""

from __future__ import annotations

from ..games import RecordingGame, make_rules


# A reference search that visits more nodes than this is stopped: a task that searches Connect
# Four on 7x6 to the end of the game (no depth:) would otherwise never finish, and the batch
# with it.  A million nodes is tic-tac-toe from the empty board twice over (549,946) and far
# above every bundled task (the largest, Kalah to the end, visits about 20,000); it is reached
# after about a minute (bench: 200,000 visits of Connect Four's minimax in 10 s).
REFERENCE_VISIT_LIMIT = 1_000_000


class ReferenceTooLarge(Exception):
    """A reference search visited more than its limit of nodes."""

    def __init__(self, limit: int):
        self.limit = limit
        super().__init__(f"the reference search visited more than {limit:,} nodes")


class _BoundedVisits(list):
    """The visit log's list of first visits, which refuses the node past its limit: only a
    new node can pass it, and the searches make millions of calls to visit known ones."""

    def __init__(self, limit: int, too_long):
        super().__init__()
        self._limit, self._too_long = limit, too_long

    def append(self, node_name):
        if len(self) >= self._limit:
            raise self._too_long(self._limit)
        super().append(node_name)


class BoundedGame(RecordingGame):
    """The recording game of a search in the parent, stopped after ``limit`` visits (with
    ``too_long(limit)``)."""

    def __init__(self, rules, limit: int, too_long=ReferenceTooLarge):
        super().__init__(rules)
        self._log.visits = _BoundedVisits(limit, too_long)


def make_game(spec, limit: int | None = None, rules=None):
    """A recording game bounded to ``limit`` visits (the reference's limit unless given), and
    its root: every search this module runs goes through it (``rules``: the spec's, made
    already)."""
    game = BoundedGame(rules or make_rules(spec),
                       REFERENCE_VISIT_LIMIT if limit is None else limit)
    return game, game.root()
