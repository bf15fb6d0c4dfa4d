"""The issue's sleeping player (issue 23, bench/moves.py): a correct alpha-beta with a depth
bound that sleeps 5.5 seconds before each of its first two moves of a game (while the board
holds fewer than six discs); under a move limit of 1 s of CPU time the old wall-clock
backstop (6 s) let such moves through."""

import time
from math import inf


def alphabeta(game, state, depth):
    if sum(cell in "XO" for cell in state) < 6:
        time.sleep(5.5)
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
