"""Two-player minimax and alpha-beta: the root player maximises its utility, every other player
minimises it (on an n-player tree: the paranoid search)."""
from math import inf


def minimax(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player), None
        maximising = game.to_move(s) == player
        best, move = (-inf if maximising else inf), None
        for a in game.actions(s):
            v, _ = value(game.result(s, a))
            if (v > best) if maximising else (v < best):
                best, move = v, a
        return best, move

    return value(state)


def alphabeta(game, state):
    player = game.to_move(state)

    def value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player), None
        maximising = game.to_move(s) == player
        best, move = (-inf if maximising else inf), None
        for a in game.actions(s):
            v, _ = value(game.result(s, a), alpha, beta)
            if maximising:
                if v > best:
                    best, move = v, a
                alpha = max(alpha, best)
            else:
                if v < best:
                    best, move = v, a
                beta = min(beta, best)
            if beta <= alpha:
                break
        return best, move

    return value(state, -inf, inf)
