import sys


def minimax(game, state):
    for _ in range(200):
        print("x" * 100_000)
    sys.stderr.write("y" * 5_000_000)
    return 3, "B"
