"""Reference quiescence search: depth-limited alpha-beta whose horizon is extended at noisy
positions.

Solves two-player zero-sum games whose task defines noisy positions (``noisy:`` in the task
file; ``grader/games/quiet.py``: Kalah ``captures`` or ``captures-and-extra-turns``, Connect
Four ``threats``).  Games without such a rule are refused at the door: the game object's
``is_quiet`` raises.

The rule a student's ``quiescence(game, state, depth)`` must follow (the task file states it
too):

* above the horizon (fewer than ``depth`` plies below ``state``) it is alpha-beta exactly as
  ``reference.minimax.alphabeta``: children in ``game.actions`` order, fail-soft, a cut when
  ``beta <= alpha`` (``prune_on_equality=False``: ``beta < alpha``), terminal positions
  scored with ``game.utility``;
* at the horizon and beyond it a terminal position is scored with ``game.utility``; a
  *quiet* position (``game.is_quiet``) with ``game.evaluate``; a *noisy* position is searched
  on like any other, with **all** its moves (the horizon is extended, not narrowed to the
  noisy moves) and **without stand-pat** (a noisy position is never evaluated while the
  extension lasts);
* the extension lasts at most ``extension`` plies beyond the horizon: a position
  ``depth + extension`` plies below ``state`` is evaluated, quiet or not, and nothing below
  it is visited.

Every value is from the point of view of the player to move at ``state`` (MAX); whose turn
it is at a node comes from ``game.to_move`` (in Kalah a move into one's own store gives
another turn): the root player maximises, the other minimises.  Returns ``(value, action)``,
the action the first optimal one in action order.
"""


from grader.games.quiet import DEFAULT_EXTENSION

from .minimax import alphabeta


def quiescence(game, state, depth, prune_on_equality=True, extension=DEFAULT_EXTENSION):
    """Alpha-beta to ``depth`` plies, extended at noisy positions by up to ``extension``
    plies (module docstring); values from the view of the player to move at ``state``.

    >>> from grader.games import make_game
    >>> game, root = make_game({"kind": "kalah", "board": [1, 0, 2, 0, 1, 2, 0, 0],
    ...                         "noisy": "captures"})
    >>> quiescence(game, root, 1)
    (3, 0)
    """
    if depth is None or depth < 1:
        raise ValueError("quiescence search extends the horizon of a depth-limited search: "
                         "give a depth of at least one ply")
    limit = depth + extension
    return alphabeta(game, state, depth, prune_on_equality,
                     horizon=lambda node, ply: ply >= depth
                     and (ply >= limit or game.is_quiet(node)))
