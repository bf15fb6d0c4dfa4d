import threading


def spin():
    while True:
        pass


def minimax(game, state):
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
