"""Do-nothing fixture: every function returns None."""
def minimax(game, state):
    return None


def alphabeta(game, state, depth=None):
    return None


def negamax(game, state):
    return None
