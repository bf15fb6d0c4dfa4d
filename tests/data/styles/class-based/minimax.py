"""Correct style: a class holding the game and the root player; module functions delegate."""

from math import inf


class Search:
    def __init__(self, game, root):
        self.game = game
        self.player = game.to_move(root)

    def terminal_value(self, state):
        return self.game.utility(state, self.player)

    def minimax(self, state, maximizing=True):
        if self.game.is_terminal(state):
            return self.terminal_value(state), None
        best = (-inf if maximizing else inf, None)
        for action in self.game.actions(state):
            value, _ = self.minimax(self.game.result(state, action), not maximizing)
            if (value > best[0]) if maximizing else (value < best[0]):
                best = (value, action)
        return best

    def alphabeta(self, state, alpha=-inf, beta=inf, depth=None, maximizing=True):
        if self.game.is_terminal(state):
            return self.terminal_value(state), None
        if depth == 0:
            return self.game.evaluate(state, self.player), None
        best = (-inf if maximizing else inf, None)
        for action in self.game.actions(state):
            value, _ = self.alphabeta(self.game.result(state, action), alpha, beta,
                                      None if depth is None else depth - 1, not maximizing)
            if maximizing:
                if value > best[0]:
                    best = (value, action)
                alpha = max(alpha, value)
            else:
                if value < best[0]:
                    best = (value, action)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    def negamax(self, state, sign=1):
        if self.game.is_terminal(state):
            return sign * self.terminal_value(state), None
        best = (-inf, None)
        for action in self.game.actions(state):
            value = -self.negamax(self.game.result(state, action), -sign)[0]
            if value > best[0]:
                best = (value, action)
        return best


def minimax(game, state):
    return Search(game, state).minimax(state)


def alphabeta(game, state, depth=None):
    return Search(game, state).alphabeta(state, depth=depth)


def negamax(game, state):
    return Search(game, state).negamax(state)
