"""A minimax that never returns.  It first names its process after the text of marker.txt
(beside it), so that a test can look for it among the machine's processes afterwards:
prctl(PR_SET_NAME), which needs no /proc (the container level mounts none)."""

import ctypes
from pathlib import Path

PR_SET_NAME = 15


def minimax(game, state):
    marker = Path(__file__).with_name("marker.txt").read_bytes().strip()
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_NAME, ctypes.c_char_p(marker), 0, 0, 0)
    while True:
        pass
