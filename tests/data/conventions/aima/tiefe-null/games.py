"""Games, or adversarial search: the searches as the third edition's code names them; the
root's children at depth 0, as that code once counted them."""

from utils import argmax, infinity


def minimax_decision(state, game):
    """The move of the player to move: the one whose minimax value is greatest."""
    player = game.to_move(state)

    def max_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = -infinity
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a)))
        return v

    def min_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = infinity
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a)))
        return v

    return argmax(game.actions(state), key=lambda a: min_value(game.result(state, a)))


def alphabeta_search(state, game, d=4, cutoff_test=None, eval_fn=None):
    """Alpha-beta with a depth cutoff: below depth d, positions are scored by eval_fn."""
    player = game.to_move(state)

    def max_value(state, alpha, beta, depth):
        if cutoff_test(state, depth):
            return eval_fn(state)
        v = -infinity
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a), alpha, beta, depth + 1))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta, depth):
        if cutoff_test(state, depth):
            return eval_fn(state)
        v = infinity
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a), alpha, beta, depth + 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    if cutoff_test is None:
        def cutoff_test(state, depth):
            return depth > d or game.terminal_test(state)
    if eval_fn is None:
        def eval_fn(state):
            return game.utility(state, player)
    best_score, best_action = -infinity, None
    for a in game.actions(state):
        v = min_value(game.result(state, a), best_score, infinity, 0)
        if v > best_score:
            best_score, best_action = v, a
    return best_action
