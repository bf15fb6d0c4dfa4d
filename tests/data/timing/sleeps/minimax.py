import time


def minimax(game, state):
    time.sleep(600)
