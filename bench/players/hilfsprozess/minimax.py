"""The issue's player with a helper (issue 23, bench/moves.py): a correct alpha-beta with a
depth bound that starts a helper process at its first move, which spins from then on in a
session of its own, whether or not it is the player's turn (thinking on the opponent's
time, and a core taken from whatever else runs)."""

import os
from math import inf

helper = None


def alphabeta(game, state, depth):
    global helper
    if helper is None:
        helper = os.fork()
        if helper == 0:
            os.setsid()
            while True:
                pass
    player = game.to_move(state)

    def value(node, alpha, beta, remaining):
        if game.is_terminal(node):
            return game.utility(node, player), None
        if remaining == 0:
            return game.evaluate(node, player), None
        maximising = game.to_move(node) == player
        best, best_action = (-inf if maximising else inf), None
        for action in game.actions(node):
            v, _ = value(game.result(node, action), alpha, beta, remaining - 1)
            if (v > best) if maximising else (v < best):
                best, best_action = v, action
            if maximising:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if beta <= alpha:
                break
        return best, best_action

    return value(state, -inf, inf, depth)
