"""Do-nothing fixture: every body is `pass`."""
def evaluate(state, player):
    pass
