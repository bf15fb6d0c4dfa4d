"""``name(game, state, actions)`` -> the actions reordered: a move-ordering function.

An item is ``{"game": spec, "moves": [a1, a2, ...]}``: the position reached from the spec's
position by playing the moves (the action path of its node, ``"a1-a2-..."``).  The student's
function receives the recording game, that position (a state handed out by the game, so it
hashes, compares and names its node like every other state) and the position's actions in
the game's order, as a fresh list; what it returns is sent back as it is.  Whether that is a
permutation of the actions, and what it does to alpha-beta, the parent judges
(``grader/checks/ordering.py``).

Standard library and ``grader.games`` only; never imports ``reference``.
"""

from ..games import make_game


def position(item):
    """``(game, state, actions)`` of an ordering item; the parent's answers use it too."""
    game, state = make_game(item["game"])
    rules = game._rules
    for move in item["moves"]:
        if move not in rules.actions(state):
            raise ValueError(f"the move {move!r} of {item['moves']!r} is not legal; the task's "
                             "positions must be reachable from its game's position")
        state = game.result(state, move)
    return game, state, list(rules.actions(state))


def call(module, name, item, args):
    """Calls ``name(game, state, actions)``; ``args`` (the task's depth) are the parent's
    business and not passed on."""
    game, state, actions = position(item)
    returned = getattr(module, name)(game, state, actions)
    # the positions the ordering looked at (children it played out): kept like every game
    # call's log, though the check judges the reply alone
    return returned, game.visit_log()
