def minimax(game, state):
    while True:
        pass
