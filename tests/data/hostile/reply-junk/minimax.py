"""A correct search that writes 21 MB of junk into the reply pipe before every answer: the
parent must drop it as it streams in (its grade stays full, its memory flat)."""
import os
import sys

import korrekt


def minimax(game, state):
    os.write(int(sys.argv[2]), b"x" * (21 << 20) + b"\n")
    return korrekt.minimax(game, state)
