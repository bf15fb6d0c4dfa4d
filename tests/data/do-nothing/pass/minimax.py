"""Do-nothing fixture: every body is `pass`."""
def minimax(game, state):
    pass


def alphabeta(game, state, depth=None):
    pass


def negamax(game, state):
    pass
