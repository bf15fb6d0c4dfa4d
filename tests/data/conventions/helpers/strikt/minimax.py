"""Sheet 3, exercise 2, in the sheet's own style (terminal/legal_moves/play are provided)."""
from math import inf


def other(player):
    return {"X": "O", "O": "X", "MAX": "MIN", "MIN": "MAX"}[player]


def is_max(player):
    return player in ("X", "MAX")


def minimax(state, player):
    term, u = terminal(state)
    if term:
        return u, None
    best, best_move = (-inf, None) if is_max(player) else (inf, None)
    for m in legal_moves(state):
        v, _ = minimax(play(state, m, player), other(player))
        if (is_max(player) and v > best) or (not is_max(player) and v < best):
            best, best_move = v, m
    return best, best_move


def alphabeta(state, player, alpha=-inf, beta=inf):
    term, u = terminal(state)
    if term:
        return u, None
    best_move = None
    if is_max(player):
        best = -inf
        for m in legal_moves(state):
            v, _ = alphabeta(play(state, m, player), other(player), alpha, beta)
            if v > best:
                best, best_move = v, m
            alpha = max(alpha, best)
            if alpha > beta:
                break
        return best, best_move
    best = inf
    for m in legal_moves(state):
        v, _ = alphabeta(play(state, m, player), other(player), alpha, beta)
        if v < best:
            best, best_move = v, m
        beta = min(beta, best)
        if alpha > beta:
            break
    return best, best_move
