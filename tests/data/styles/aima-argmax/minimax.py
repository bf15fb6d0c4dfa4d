"""Correct style: AIMA's minimax_decision and alpha_beta_search as in the book's Python code,
an argmax over the root's actions, no special case for a terminal root."""

import math
import random  # unused, as in many copies of the book's code

infinity = math.inf


def argmax(seq, key):
    return max(seq, key=key)


def minimax(game, state):
    player = game.to_move(state)

    def max_value(state):
        if game.is_terminal(state):
            return game.utility(state, player)
        v = -infinity
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a)))
        return v

    def min_value(state):
        if game.is_terminal(state):
            return game.utility(state, player)
        v = infinity
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a)))
        return v

    values = {}

    def score(a):
        values[a] = min_value(game.result(state, a))
        return values[a]

    action = argmax(game.actions(state), key=score)
    return values[action], action


def alphabeta(game, state, depth=None):
    player = game.to_move(state)

    def cutoff_test(state, d):
        return depth is not None and d > depth

    def max_value(state, alpha, beta, d):
        if game.is_terminal(state):
            return game.utility(state, player)
        if cutoff_test(state, d):
            return game.evaluate(state, player)
        v = -infinity
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a), alpha, beta, d + 1))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta, d):
        if game.is_terminal(state):
            return game.utility(state, player)
        if cutoff_test(state, d):
            return game.evaluate(state, player)
        v = infinity
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a), alpha, beta, d + 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_score = -infinity
    beta = infinity
    best_action = None
    for a in game.actions(state):
        v = min_value(game.result(state, a), best_score, beta, 2)
        if v > best_score:
            best_score = v
            best_action = a
    return best_score, best_action


def negamax(game, state):
    player = game.to_move(state)

    def value(state, color):
        if game.is_terminal(state):
            return color * game.utility(state, player)
        return max(-value(game.result(state, a), -color) for a in game.actions(state))

    values = {}

    def score(a):
        values[a] = -value(game.result(state, a), -1)
        return values[a]

    action = argmax(game.actions(state), key=score)
    return values[action], action
