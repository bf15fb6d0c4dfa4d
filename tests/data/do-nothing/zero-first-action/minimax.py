"""Do-nothing fixture: the value 0 and the first action, without searching."""
def minimax(game, state):
    return 0, game.actions(state)[0]


def alphabeta(game, state, depth=None):
    return 0, game.actions(state)[0]


def negamax(game, state):
    return 0, game.actions(state)[0]
