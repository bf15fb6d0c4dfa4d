"""Do-nothing fixture: every function returns None."""
def evaluate(state, player):
    return None
