"""Do-nothing fixture: every function raises NotImplementedError."""
def evaluate(state, player):
    raise NotImplementedError("TODO")
