"""``name(game, state, *args)`` -> the chosen action only: one move of a player in a match
(the referee is ``grader/play/referee.py``, in the parent).

An item is ``{"game": spec, "moves": [a1, a2, ...], "evaluation": None}``: the position the
referee asks about is the spec's own position with the moves of the game so far played from
it (the same ``game`` + ``moves`` shape as the ``ordering`` convention's items).  ``args`` are
the task's depth (none: search to the end).  The student's search is called as the ``game``
convention calls it, ``name(game, state, depth)``, fitted to a textbook signature such as
``alphabeta(game, state, alpha, beta, depth)`` by ``signature.fit``.

``"evaluation": {"module": "evaluation", "function": "evaluate"}`` makes the game's
``evaluate(state, player)`` the student's own evaluation function, from that module of the
same submission (the sheet's ``evaluation.py``); without it the game's built-in heuristic is
used.

The search may return ``(value, action)`` as in every other task, or the action alone; only
the action is sent back (the parent checks that it is legal).  The game object is the default
convention's interface without the visit log: a match needs the move only, and logging every
node of every move would cost time and memory for nothing.

Standard library and ``grader.games`` only; never imports ``reference``.
"""

import importlib
import os

from ..games import make_rules
from .signature import arranged, fit


class PlayingGame:
    """The game a player's search receives: the methods of ``RecordingGame`` (``to_move``,
    ``actions``, ``result``, ``successors``, ``is_terminal``, ``utility``, ``evaluate``,
    ``players``), unrecorded; ``evaluate`` is ``evaluation`` where one is given.

    The parent's built-in baselines and ``bench/match_speed.py`` use it too, so that every
    player searches the same object."""

    def __init__(self, rules, evaluation=None):
        self._rules = rules
        self._evaluation = evaluation if evaluation is not None else rules.evaluate

    def to_move(self, state):
        return self._rules.to_move(state)

    def actions(self, state):
        return self._rules.actions(state)

    def result(self, state, action):
        return self._rules.result(state, action)

    def successors(self, state):
        return [(action, self._rules.result(state, action))
                for action in self._rules.actions(state)]

    def is_terminal(self, state):
        return self._rules.is_terminal(state)

    def utility(self, state, player):
        return self._rules.utility(state, player)

    def evaluate(self, state, player):
        return self._evaluation(state, player)

    def players(self):
        return tuple(p for p in self._rules.players if p != "CHANCE")


def position(rules, moves):
    """The state reached from ``rules``' own position by ``moves``; a move that is not legal
    there is refused (the referee sends only legal ones)."""
    state = rules.initial_state()
    for move in moves:
        if move not in rules.actions(state):
            raise ValueError(f"the move {move!r} of {moves!r} is not legal; the referee sends "
                             "only the moves of the game so far")
        state = rules.result(state, move)
    return state


def chosen_action(returned):
    """The action in what a search returned: ``(value, action)``, or the action alone (no
    game's action is a pair, see ``grader/games/``)."""
    if isinstance(returned, (tuple, list)) and len(returned) == 2:
        return returned[1]
    return returned


def student_evaluation(search_module, wanted):
    """The student's evaluation function named by ``wanted`` (``{"module", "function"}``),
    from the folder the search module was imported from."""
    name, function = wanted["module"], wanted["function"]
    folder = os.path.dirname(os.path.abspath(search_module.__file__))
    if not os.path.isfile(os.path.join(folder, name + ".py")):
        raise ImportError(f"this task plays with your own evaluation function, "
                          f"{name}.{function}(state, player), but there is no {name}.py "
                          f"next to {os.path.basename(search_module.__file__)}")
    module = importlib.import_module(name)
    evaluate = getattr(module, function, None)
    if not callable(evaluate):
        raise AttributeError(f"this task plays with your own evaluation function, but "
                             f"{name}.py defines no function {function}(state, player)")
    return evaluate


def call(module, name, item, args):
    """Calls ``name(game, state, *args)`` at the item's position; returns the action only."""
    rules = make_rules(item["game"])
    wanted = item.get("evaluation")
    evaluation = student_evaluation(module, wanted) if wanted else None
    game = PlayingGame(rules, evaluation)
    state = position(rules, item["moves"])
    function = getattr(module, name)
    arguments, _ = fit(function, name, args)
    return chosen_action(function(*arranged(function, "game", game, state), *arguments)), None
