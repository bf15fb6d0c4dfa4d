"""How a student's function is called (runs in the child, next to student code).

Each convention maps ``(function, item, args)`` to ``(returned, visit_log)``:

* ``game``: ``function(game, state, *args)`` with a recording game built from the item (a game
  spec) and its root state; the visit log is the game's.
* ``plain``: ``function(*item, *args)``, e.g. ``evaluate(state, player)``; no visit log.

Standard library and ``grader.games`` only; never imports ``reference``.
"""

from ..games import make_game


def call_with_game(function, spec, args):
    game, root = make_game(spec)
    returned = function(game, root, *args)
    return returned, game.visit_log()


def call_plain(function, item, args):
    return function(*item, *args), None


CONVENTIONS = {"game": call_with_game, "plain": call_plain}
