"""Do-nothing fixture: the pair (0, None)."""
def evaluate(state, player):
    return 0.0
