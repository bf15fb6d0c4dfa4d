"""Chapter 5, adversarial search: the sheet's three searches, written for this project in the
style students complete the textbook's games.py in (the state comes first and the game second,
each search returns the move it chooses, the game answers actions, result, terminal_test,
utility and to_move).  A student hands in the whole file; this example keeps only the searches
and, like the textbook's file, imports what it does not use."""

import random

import numpy as np

from utils import vector_add


# -- minimax ------------------------------------------------------------------------------------

def minmax_decision(state, game):
    """The move of the player to move in `state`, every line of play searched to its end."""

    player = game.to_move(state)

    def max_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = -np.inf
        for move in game.actions(state):
            v = max(v, min_value(game.result(state, move)))
        return v

    def min_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = np.inf
        for move in game.actions(state):
            v = min(v, max_value(game.result(state, move)))
        return v

    # what each move at the root leaves the player once the opponent has answered it
    after = {move: min_value(game.result(state, move)) for move in game.actions(state)}
    return max(after, key=after.get)


# -- alpha-beta ---------------------------------------------------------------------------------

def alpha_beta_search(state, game):
    """Minimax's move, found with alpha-beta pruning, to the end of the game."""

    player = game.to_move(state)

    def max_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = 0
        for move in game.actions(state):
            v = max(v, min_value(game.result(state, move), alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = np.inf
        for move in game.actions(state):
            v = min(v, max_value(game.result(state, move), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    # the root is a MAX node too: the best value found so far is the next child's alpha
    alpha, chosen = -np.inf, None
    for move in game.actions(state):
        value = min_value(game.result(state, move), alpha, np.inf)
        if value > alpha:
            alpha = value
            chosen = move
    return chosen


def alpha_beta_cutoff_search(state, game, d=4, cutoff_test=None, eval_fn=None):
    """Alpha-beta that stops below depth d and scores the positions there with eval_fn."""

    player = game.to_move(state)
    if cutoff_test is None:          # stop below depth d, or where the game has ended
        def cutoff_test(state, depth):
            return depth > d or game.terminal_test(state)
    if eval_fn is None:              # a position is worth what it is to the root's player
        def eval_fn(state):
            return game.utility(state, player)

    def max_value(state, alpha, beta, depth):
        if cutoff_test(state, depth):
            return eval_fn(state)
        v = -np.inf
        for move in game.actions(state):
            v = max(v, min_value(game.result(state, move), alpha, beta, depth + 1))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta, depth):
        if cutoff_test(state, depth):
            return eval_fn(state)
        v = np.inf
        for move in game.actions(state):
            v = min(v, max_value(game.result(state, move), alpha, beta, depth + 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    alpha, chosen = -np.inf, None
    for move in game.actions(state):
        value = min_value(game.result(state, move), alpha, np.inf, 1)
        if value > alpha:
            alpha = value
            chosen = move
    return chosen


def random_player(game, state):
    """Any legal move (to play against while testing)."""
    moves = game.actions(state)
    return random.choice(moves) if moves else None
