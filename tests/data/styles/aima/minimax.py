"""Correct style: AIMA's minimax_decision / alpha_beta_search with an argmax at the root."""

import math


def minimax(game, state):
    player = game.to_move(state)

    def max_value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        return max(min_value(game.result(s, a)) for a in game.actions(s))

    def min_value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        return min(max_value(game.result(s, a)) for a in game.actions(s))

    if game.is_terminal(state):
        return game.utility(state, player), None
    scores = {a: min_value(game.result(state, a)) for a in game.actions(state)}
    action = max(game.actions(state), key=lambda a: scores[a])
    return scores[action], action


def alphabeta(game, state, depth=None):
    player = game.to_move(state)
    cutoff = (lambda s, ply: False) if depth is None else (lambda s, ply: ply >= depth)

    def max_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player)
        if cutoff(s, d):
            return game.evaluate(s, player)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a), alpha, beta, d + 1))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player)
        if cutoff(s, d):
            return game.evaluate(s, player)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a), alpha, beta, d + 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    if game.is_terminal(state):
        return game.utility(state, player), None
    best_score, beta, best_action = -math.inf, math.inf, None
    for a in game.actions(state):
        v = min_value(game.result(state, a), best_score, beta, 1)
        if v > best_score:
            best_score, best_action = v, a
    return best_score, best_action


def negamax(game, state):
    player = game.to_move(state)

    def value(s, color):
        if game.is_terminal(s):
            return color * game.utility(s, player)
        return max(-value(game.result(s, a), -color) for a in game.actions(s))

    if game.is_terminal(state):
        return game.utility(state, player), None
    best_action = max(game.actions(state), key=lambda a: -value(game.result(state, a), -1))
    return -value(game.result(state, best_action), -1), best_action
