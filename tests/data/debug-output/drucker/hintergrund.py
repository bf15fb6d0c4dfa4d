"""A thread that prints without end, also while the parent is not reading: once its pipe is
full it blocks (itself, nobody else) until the parent reads again."""
import threading


def flood():
    while True:
        print("h" * 199)


threading.Thread(target=flood, daemon=True).start()
