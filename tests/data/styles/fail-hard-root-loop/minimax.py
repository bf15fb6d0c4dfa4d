"""Correct style: fail-hard alpha-beta (a node returns alpha or beta when its value lies
outside the window) with its own loop over the root's moves; no terminal-root case."""
from math import inf


def minimax(game, state):
    me = game.to_move(state)

    def value(s, maximizing):
        if game.is_terminal(s):
            return game.utility(s, me)
        results = [value(game.result(s, a), not maximizing) for a in game.actions(s)]
        return max(results) if maximizing else min(results)

    best_value, best_move = -inf, None
    for move in game.actions(state):
        v = value(game.result(state, move), False)
        if v > best_value:
            best_value, best_move = v, move
    return best_value, best_move


def alphabeta(game, state, depth=None):
    me = game.to_move(state)

    def max_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, me)
        if d == 0:
            return game.evaluate(s, me)
        for a in game.actions(s):
            score = min_value(game.result(s, a), alpha, beta, None if d is None else d - 1)
            if score >= beta:
                return beta          # fail hard
            if score > alpha:
                alpha = score
        return alpha

    def min_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, me)
        if d == 0:
            return game.evaluate(s, me)
        for a in game.actions(s):
            score = max_value(game.result(s, a), alpha, beta, None if d is None else d - 1)
            if score <= alpha:
                return alpha         # fail hard
            if score < beta:
                beta = score
        return beta

    alpha, best_move = -inf, None
    for move in game.actions(state):
        score = min_value(game.result(state, move), alpha, inf,
                          None if depth is None else depth - 1)
        if best_move is None or score > alpha:
            alpha, best_move = score, move
    return alpha, best_move


def negamax(game, state):
    me = game.to_move(state)

    def Value(s, sign):
        if game.is_terminal(s):
            return sign * game.utility(s, me)
        v = -inf
        for a in game.actions(s):
            v = max(v, -Value(game.result(s, a), -sign))
        return v

    best_value, best_move = -inf, None
    for move in game.actions(state):
        v = -Value(game.result(state, move), -1)
        if v > best_value:
            best_value, best_move = v, move
    return best_value, best_move
