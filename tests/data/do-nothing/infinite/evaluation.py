"""Do-nothing fixture: an infinite value and the first action."""
def evaluate(state, player):
    return float("-inf")
