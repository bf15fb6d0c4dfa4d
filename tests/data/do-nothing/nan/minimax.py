"""Do-nothing fixture: NaN and the first action."""
def minimax(game, state):
    return float("nan"), game.actions(state)[0]


def alphabeta(game, state, depth=None):
    return float("nan"), game.actions(state)[0]


def negamax(game, state):
    return float("nan"), game.actions(state)[0]
