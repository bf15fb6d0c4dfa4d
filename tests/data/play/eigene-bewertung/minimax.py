"""A correct depth-limited alpha-beta with alpha, beta and the depth as parameters, as
textbooks write it (the runner fits the task's call to them); what it plays depends on
``game.evaluate``, which is this student's own ``evaluation.evaluate`` where the task says
so."""

from math import inf


def alphabeta(game, state, alpha, beta, depth):
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

    return value(state, alpha, beta, depth)
