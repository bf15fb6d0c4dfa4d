"""How a student's code is called (runs in the child, next to student code).

One module per convention, registered by name in ``_MODULES``; each provides
``call(module, name, item, args) -> (returned, visit_log)``:

* ``game`` (default): ``name(game, state, *args)`` with a recording game object, or
  ``alphabeta(game, state, alpha, beta, depth)`` and the like fitted by parameter name
  (``signature.py``; the runner reports the difference);
* ``plain``: ``name(*item, *args)``, e.g. ``evaluate(state, player)``;
* ``helpers``: the exercise sheet's style, ``minimax(state, player)`` with module-level
  ``terminal``, ``legal_moves`` and ``play`` provided by the grader;
* ``negamax-sign``: the sheet's ``Value(state, sign)`` with ``terminal_test``, ``utility`` and
  ``successors``;
* ``ordering``: a move-ordering function ``order(game, state, actions)`` -> the actions
  reordered, run on the positions the parent names (``ordering.py``);
* ``play``: one move in a match, ``name(game, state, *args)`` at the position the referee
  names, answering the chosen action only, optionally with the student's own
  ``evaluation.evaluate`` as the game's heuristic (``play.py``, ``grader/play/``);
* ``multi-agent``: agent classes with ``getAction(gameState)`` in the style of the Pacman
  multi-agent project (``standins/`` provides the ``util``, ``game`` and ``pacman`` modules
  such files import);
* ``aima``: the searches of AIMA's ``games.py``, ``minmax_decision(state, game)`` and the
  like, returning the action, with AIMA's ``Game`` methods and its cutoff depth
  (``aima.py``; ``standins/`` provides the ``games`` and ``utils`` modules such files import).

A module nothing provides, imported by the student's code and never used, loads as a stand-in
(``absent.py``).

Standard library and ``grader.games`` only; never imports ``reference``.
"""

import importlib
import os

# name -> its module: imported when a request first names the convention (``call``), so
# that a child imports the one or two its course uses, not all eight and every game.
_MODULES = {"game": "game", "plain": "plain", "helpers": "helpers",
            "negamax-sign": "negamax_sign", "multi-agent": "multi_agent",
            "ordering": "ordering", "play": "play", "aima": "aima"}
CONVENTIONS = tuple(_MODULES)
STANDINS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "standins")


def convention(name, importer=importlib.import_module):
    """The convention's module (``call`` and, where the runner can describe a student's
    differing signature, ``signature_report``), imported with ``importer``; KeyError for
    a name no module has."""
    return importer(f"{__name__}.{_MODULES[name]}")
