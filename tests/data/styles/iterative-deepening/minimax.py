"""Correct style: iterative deepening to full depth for minimax and negamax (depth 1, 2, ...
until no node was cut off by the depth limit); plain alpha-beta."""

from math import inf


def _depth_limited(game, state, limit, player):
    cut_off = False

    def value(s, depth, maximizing):
        nonlocal cut_off
        if game.is_terminal(s):
            return game.utility(s, player), None
        if depth == limit:
            cut_off = True
            return game.evaluate(s, player), None
        best, move = (-inf if maximizing else inf), None
        for a in game.actions(s):
            v, _ = value(game.result(s, a), depth + 1, not maximizing)
            if (maximizing and v > best) or (not maximizing and v < best):
                best, move = v, a
        return best, move

    result = value(state, 0, True)
    return result, cut_off


def minimax(game, state):
    player = game.to_move(state)
    limit = 1
    while True:
        result, cut_off = _depth_limited(game, state, limit, player)
        if not cut_off:
            return result
        limit += 1


def negamax(game, state):
    player = game.to_move(state)

    def run(limit):
        cut = [False]

        def neg(s, sign, depth):
            if game.is_terminal(s):
                return sign * game.utility(s, player), None
            if depth == limit:
                cut[0] = True
                return sign * game.evaluate(s, player), None
            best, move = -inf, None
            for a in game.actions(s):
                v = -neg(game.result(s, a), -sign, depth + 1)[0]
                if v > best:
                    best, move = v, a
            return best, move
        return neg(state, 1, 0), cut[0]

    limit = 1
    while True:
        result, cut_off = run(limit)
        if not cut_off:
            return result
        limit += 1


def alphabeta(game, state, depth=None):
    player = game.to_move(state)

    def value(s, alpha, beta, d, maximizing):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        best, move = (-inf if maximizing else inf), None
        for a in game.actions(s):
            v, _ = value(game.result(s, a), alpha, beta, None if d is None else d - 1,
                         not maximizing)
            if maximizing and v > best:
                best, move = v, a
            if not maximizing and v < best:
                best, move = v, a
            if maximizing:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best, move

    return value(state, -inf, inf, depth, True)
