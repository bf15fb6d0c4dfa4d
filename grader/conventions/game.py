"""The default convention: ``name(game, state, *args)`` -> ``(value, action)``."""

from ..games import make_game
from .signature import fit


def call(module, name, spec, args):
    """Calls ``name(game, state, *args)``, or with α, β and depth where the student's
    parameters name them (``signature.fit``)."""
    game, root = make_game(spec)
    function = getattr(module, name)
    arguments, _ = fit(function, name, args)
    returned = function(game, root, *arguments)
    return returned, game.visit_log()


def signature_report(module, name, args):
    """How the student's parameters differ from the task's call, or None."""
    return fit(getattr(module, name), name, args)[1]
