"""The sheet's simplified minimax: ``Value(state, sign)`` -> the value (no action), with
``sign = +1`` where the root player moves.  The grader puts the lecture's helpers into the
student's module: ``terminal_test(state)``, ``utility(state)`` (the root player's point of
view) and ``successors(state)`` (pairs ``(action, state)``), also spelled ``Terminal_Test``,
``Utility`` and ``Successors``, plus ``INF`` and ``MAX`` as in the pseudo-code.
"""

import math

from ..games import make_game


def call(module, name, spec, args):
    game, root = make_game(spec)
    player = game._rules.to_move(root)

    def utility(state):
        return game.utility(state, player)

    helpers = {"terminal_test": game.is_terminal, "utility": utility,
               "successors": game.successors, "INF": math.inf, "MAX": max}
    for helper_name, helper in list(helpers.items()):
        setattr(module, helper_name, helper)
        setattr(module, helper_name[:1].upper() + helper_name[1:].replace("_t", "_T"), helper)
    returned = getattr(module, name)(root, 1, *args)
    return returned, game.visit_log()
