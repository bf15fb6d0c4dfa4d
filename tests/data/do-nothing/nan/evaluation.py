"""Do-nothing fixture: NaN and the first action."""
def evaluate(state, player):
    return float("nan")
