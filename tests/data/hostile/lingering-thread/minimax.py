"""A correct search that leaves eight threads spinning after every call: they count against
its own CPU time and its process limit (threads are tasks), so its later calls fail, within
a few calls whatever the number of trees a check asks about.  They spin on ``sleep(0)``, which
gives up the interpreter's lock each time round: threads spinning on ``pass`` would starve its
own search of the lock, and make each of its calls take a second (the same failures, slower)."""
import threading
import time


def spin():
    while True:
        time.sleep(0)


def minimax(game, state):
    for _ in range(8):
        threading.Thread(target=spin).start()
    return _correct(game, state)

def _correct(game, state):
    player = game.to_move(state)
    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player), None
        maximizing = game.to_move(s) == player
        best = (float("-inf") if maximizing else float("inf"), None)
        for a in game.actions(s):
            v, _ = value(game.result(s, a))
            if (maximizing and v > best[0]) or (not maximizing and v < best[0]):
                best = (v, a)
        return best
    return value(state)
