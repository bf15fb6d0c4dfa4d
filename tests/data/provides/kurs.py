"""The course's helpers, handed out with the exercise: the children of a position in the
order the search must try them, and the bounds to start from."""

NEG_INF = float("-inf")
POS_INF = float("inf")


def kinder(game, state):
    """(action, child) pairs of ``state``, in the game's order."""
    return [(action, game.result(state, action)) for action in game.actions(state)]
