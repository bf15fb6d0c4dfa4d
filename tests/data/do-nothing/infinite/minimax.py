"""Do-nothing fixture: an infinite value and the first action."""
def minimax(game, state):
    return float("inf"), game.actions(state)[0]


def alphabeta(game, state, depth=None):
    return float("inf"), game.actions(state)[0]


def negamax(game, state):
    return float("inf"), game.actions(state)[0]
