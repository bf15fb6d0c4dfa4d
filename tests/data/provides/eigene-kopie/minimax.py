"""Minimax and alpha-beta on the course's helpers (kurs.py, which the course provides)."""

from kurs import NEG_INF, POS_INF, kinder


def minimax(game, state):
    player = game.to_move(state)

    def value(s, maximizing):
        if game.is_terminal(s):
            return game.utility(s, player), None
        best, move = (NEG_INF, None) if maximizing else (POS_INF, None)
        for action, child in kinder(game, s):
            v, _ = value(child, not maximizing)
            if (maximizing and v > best) or (not maximizing and v < best):
                best, move = v, action
        return best, move
    return value(state, True)


def alphabeta(game, state):
    player = game.to_move(state)

    def value(s, alpha, beta, maximizing):
        if game.is_terminal(s):
            return game.utility(s, player), None
        best, move = (NEG_INF, None) if maximizing else (POS_INF, None)
        for action, child in kinder(game, s):
            v, _ = value(child, alpha, beta, not maximizing)
            if (maximizing and v > best) or (not maximizing and v < best):
                best, move = v, action
            if maximizing:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if beta <= alpha:
                break
        return best, move
    return value(state, NEG_INF, POS_INF, True)
