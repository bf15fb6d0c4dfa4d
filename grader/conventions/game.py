"""The default convention: ``name(game, state, *args)`` -> ``(value, action)``."""

from ..games import make_game


def call(module, name, spec, args):
    game, root = make_game(spec)
    returned = getattr(module, name)(game, root, *args)
    return returned, game.visit_log()
