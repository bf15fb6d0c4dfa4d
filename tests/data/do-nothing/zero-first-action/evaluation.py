"""Do-nothing fixture: the value 0 and the first action, without searching."""
def evaluate(state, player):
    return 0
