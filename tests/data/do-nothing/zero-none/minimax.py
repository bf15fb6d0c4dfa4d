"""Do-nothing fixture: the pair (0, None)."""
def minimax(game, state):
    return 0, None


def alphabeta(game, state, depth=None):
    return 0, None


def negamax(game, state):
    return 0, None
