"""The default convention: ``name(game, state, *args)`` -> ``(value, action)``; a student's
``name(state, game)`` is called as its parameters' names say (``signature.order``)."""

from ..games import make_game
from .signature import arranged, describe, fit


def call(module, name, spec, args):
    """Calls ``name(game, state, *args)``, or with α, β and depth where the student's
    parameters name them (``signature.fit``), the state first where they put it first."""
    game, root = make_game(spec)
    function = getattr(module, name)
    arguments, _ = fit(function, name, args)
    returned = function(*arranged(function, "game", game, root), *arguments)
    return returned, game.visit_log()


def signature_report(module, name, args):
    """How the student's parameters differ from the task's call, or None."""
    function = getattr(module, name)
    return describe(function, name, args, "game", fit(function, name, args)[1])
