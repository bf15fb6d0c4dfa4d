"""Correct style: every node's successors are generated at once (game.successors), the root
is searched like any MAX node and nothing special is done for a terminal root."""
import math, sys  # sys unused


def minimax(game, state):
    player = game.to_move(state)

    def MaxValue(s):
        if game.is_terminal(s):
            return (game.utility(s, player), None)
        v, best = -math.inf, None
        for (a, child) in game.successors(s):
            w, _ = MinValue(child)
            if w > v:
                v, best = w, a
        return (v, best)

    def MinValue(s):
        if game.is_terminal(s):
            return (game.utility(s, player), None)
        v, best = math.inf, None
        for (a, child) in game.successors(s):
            w, _ = MaxValue(child)
            if w < v:
                v, best = w, a
        return (v, best)

    return MaxValue(state)


def alphabeta(game, state, depth=None):
    player = game.to_move(state)

    def MaxValue(s, alpha, beta, d):
        if game.is_terminal(s):
            return (game.utility(s, player), None)
        if depth is not None and d >= depth:
            return (game.evaluate(s, player), None)
        v, best = -math.inf, None
        for (a, child) in game.successors(s):
            w, _ = MinValue(child, alpha, beta, d + 1)
            if w > v:
                v, best = w, a
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        return (v, best)

    def MinValue(s, alpha, beta, d):
        if game.is_terminal(s):
            return (game.utility(s, player), None)
        if depth is not None and d >= depth:
            return (game.evaluate(s, player), None)
        v, best = math.inf, None
        for (a, child) in game.successors(s):
            w, _ = MaxValue(child, alpha, beta, d + 1)
            if w < v:
                v, best = w, a
            beta = min(beta, v)
            if alpha >= beta:
                break
        return (v, best)

    return MaxValue(state, -math.inf, math.inf, 0)


def negamax(game, state):
    player = game.to_move(state)

    def Value(s, sign):
        if game.is_terminal(s):
            return (sign * game.utility(s, player), None)
        v, best = -math.inf, None
        for (a, child) in game.successors(s):
            w = -Value(child, -sign)[0]
            if w > v:
                v, best = w, a
        return (v, best)

    return Value(state, 1)
