def minimax(game, state):
    return minimax(game, state)
