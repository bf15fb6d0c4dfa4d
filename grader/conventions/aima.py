"""The textbook's convention: the searches of AIMA's ``games.py`` (Russell & Norvig,
``aimacode/aima-python``) as students complete them, called as that file calls them.

* ``minmax_decision(state, game)``, ``alpha_beta_search(state, game)`` and
  ``alpha_beta_cutoff_search(state, game, d=4, cutoff_test=None, eval_fn=None)`` return the
  chosen action (no value).  The state comes first; a function whose parameters' names put the
  game first (AIMA's players, ``alpha_beta_player(game, state)``) is called that way
  (``signature.order``).
* ``game`` offers the methods of AIMA's ``Game``: ``actions``, ``result``,
  ``utility(state, player)``, ``terminal_test``, ``to_move`` and ``display``, and ``initial``
  (the root), over the recording game; players and states are the game's own (``"MAX"`` and
  ``"MIN"`` in trees as in AIMA's ``Fig52Game``, ``"X"`` and ``"O"`` in tic-tac-toe).
* The depth.  AIMA's cutoff search evaluates ``d + 1`` plies below the root (its root calls
  depth 1, and ``cutoff_test`` cuts at ``depth > d``), so a task's horizon ``h`` is passed as
  ``d = h - 1``; without a horizon, ``d = inf``.  Any parameter whose name says it is the
  depth (``d``, ``depth``, ``max_depth`` ...) counts plies the textbook's way.
* ``eval_fn(state)``, where the function takes one: the utility at terminal states (AIMA's
  default ``eval_fn``, which its ``cutoff_test`` calls on terminal states too) and the task's
  heuristic elsewhere, both from the view of the player to move at the root.  ``cutoff_test``
  keeps its default (AIMA's: ``depth > d or game.terminal_test(state)``).

The call returns ``[None, action]``: the checks judge the action and the visits only.

Standard library and ``grader.games`` only; never imports ``reference``.
"""

import math

from ..games import make_game
from .signature import (_DEPTH, _POSITIONAL, KEYWORD_ONLY, POSITIONAL_ONLY, NamePattern,
                        _signature, arranged, describe)

_EVALUATION = NamePattern("eval_?fn|eval|evaluate|evaluation(_?fn)?|heuristic|utility_?fn",
                          ("evalfn", "eval_fn", "eval", "evaluate", "evaluation",
                           "evaluationfn", "evaluation_fn", "heuristic", "utilityfn",
                           "utility_fn"))
_CUTOFF = NamePattern("cutoff_?test|cutoff|cut_?off_?test",
                      ("cutofftest", "cutoff_test", "cutoff", "cut_offtest", "cut_off_test"))


class AimaGame:
    """AIMA's ``Game`` interface over a recording game (``grader/games/recorder.py``): every
    call is recorded as the default convention's methods are."""

    def __init__(self, game, root):
        self._game = game
        self.initial = root

    def actions(self, state):
        return list(self._game.actions(state))

    def result(self, state, move):
        return self._game.result(state, move)

    def utility(self, state, player):
        return self._game.utility(state, player)

    def terminal_test(self, state):
        return self._game.is_terminal(state)

    def to_move(self, state):
        return self._game.to_move(state)

    def display(self, state):
        print(state)

    def __repr__(self):
        return "<Game>"


def evaluation_for(game, player):
    """AIMA's ``eval_fn(state)`` for the task: utility at terminal states, the task's
    heuristic elsewhere, from ``player``'s view."""
    def eval_fn(state):
        if game.is_terminal(state):
            return game.utility(state, player)
        return game.evaluate(state, player)
    return eval_fn


def fit(function, name, args, eval_fn=None):
    """``(keywords, report)``: what to pass after the state and the game (the depth as AIMA's
    ``d``, the evaluation as ``eval_fn``, ``cutoff_test=None``), and None when that is the
    task's call or a report ``{"student", "expected", "adapted"}`` of how it differs."""
    try:
        signature = _signature(function)
    except (TypeError, ValueError):
        return {}, None
    parameters = list(signature.parameters)
    positional = [p for p in parameters if p.kind in _POSITIONAL]
    rest = [p for p in parameters[len(positional[:2]):]
            if p.kind in (*_POSITIONAL, KEYWORD_ONLY)]
    depth = args[0] if args else None
    keywords, fitted, lacking = {}, False, False
    for parameter in rest:
        if _DEPTH.match(parameter.name):
            keywords[parameter.name] = math.inf if depth is None else depth - 1
            fitted = fitted or depth is not None
        elif _EVALUATION.match(parameter.name):
            keywords[parameter.name] = eval_fn
        elif _CUTOFF.match(parameter.name):
            if not parameter.has_default:
                keywords[parameter.name] = None
        elif not parameter.has_default:
            lacking = True
    if any(p.kind == POSITIONAL_ONLY and p.name in keywords for p in rest):
        lacking = True
    names = ", ".join(p.name for p in positional + [p for p in rest if p not in positional])
    student = f"{name}({names})"
    expected = f"{name}(state, game{', d' if args else ''})"
    if lacking or (depth is not None and not fitted):
        # nowhere to put the horizon, or a parameter the call cannot fill
        return {key: value for key, value in keywords.items()}, {
            "student": student, "expected": expected, "adapted": False}
    return keywords, None


def call(module, name, spec, args):
    """Calls ``name(state, game, ...)`` the textbook's way; returns ``[None, action]``."""
    game, root = make_game(spec)
    function = getattr(module, name)
    player = game._rules.to_move(root)   # the root player, without recording a visit
    keywords, _ = fit(function, name, args, evaluation_for(game, player))
    first, second = arranged(function, "state", AimaGame(game, root), root)
    returned = function(first, second, **keywords)
    return [None, returned], game.visit_log()


def signature_report(module, name, args):
    """How the student's parameters differ from the textbook's call, or None."""
    function = getattr(module, name)
    return describe(function, name, args, "state", fit(function, name, args)[1])
