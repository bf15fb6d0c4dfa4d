"""A minimax that never returns.  It first renames its process to the text of marker.txt
(beside it), so that a test can look for it among the machine's processes afterwards."""

from pathlib import Path


def minimax(game, state):
    marker = Path(__file__).with_name("marker.txt").read_text(encoding="ascii").strip()
    with open("/proc/self/comm", "w", encoding="ascii") as name:
        name.write(marker)
    while True:
        pass
