"""Do-nothing fixture: a constant value and the last action, without searching; evaluate is constant."""
def evaluate(state, player):
    return -2
