"""Do-nothing fixture: every function raises NotImplementedError."""
def minimax(game, state):
    raise NotImplementedError("TODO")


def alphabeta(game, state, depth=None):
    raise NotImplementedError("TODO")


def negamax(game, state):
    raise NotImplementedError("TODO")
