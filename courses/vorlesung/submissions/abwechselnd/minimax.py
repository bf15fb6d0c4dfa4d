"""Kalah: Minimax und Alpha-Beta wie auf Blatt 3, mit Max-Value und Min-Value, die sich
gegenseitig aufrufen (eine fehlerhafte Lösung: sie nimmt an, dass nach jedem Zug der
andere Spieler zieht, und übersieht die Zusatzzüge)."""

from math import inf


def minimax(game, state, depth=None):
    player = game.to_move(state)

    def max_value(s, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        best, move = -inf, None
        for a in game.actions(s):
            v, _ = min_value(game.result(s, a), None if d is None else d - 1)
            if v > best:
                best, move = v, a
        return best, move

    def min_value(s, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        best, move = inf, None
        for a in game.actions(s):
            v, _ = max_value(game.result(s, a), None if d is None else d - 1)
            if v < best:
                best, move = v, a
        return best, move

    return max_value(state, depth)


def alphabeta(game, state, depth=None):
    player = game.to_move(state)

    def max_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        v, move = -inf, None
        for a in game.actions(s):
            w, _ = min_value(game.result(s, a), alpha, beta, None if d is None else d - 1)
            if w > v:
                v, move = w, a
            if v >= beta:
                return v, move
            alpha = max(alpha, v)
        return v, move

    def min_value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            return game.evaluate(s, player), None
        v, move = inf, None
        for a in game.actions(s):
            w, _ = max_value(game.result(s, a), alpha, beta, None if d is None else d - 1)
            if w < v:
                v, move = w, a
            if v <= alpha:
                return v, move
            beta = min(beta, v)
        return v, move

    return max_value(state, -inf, inf, depth)


def negamax(game, state, depth=None):
    player = game.to_move(state)

    def value(s, d):
        """Der Wert aus Sicht des Spielers am Zug; negiert, wo der Spieler wechselt."""
        if game.is_terminal(s):
            u = game.utility(s, player)
            return (u if game.to_move(s) == player else -u), None
        if d == 0:
            e = game.evaluate(s, player)
            return (e if game.to_move(s) == player else -e), None
        mover = game.to_move(s)
        best, move = -inf, None
        for a in game.actions(s):
            child = game.result(s, a)
            v, _ = value(child, None if d is None else d - 1)
            if game.to_move(child) != mover:
                v = -v
            if v > best:
                best, move = v, a
        return best, move

    return value(state, depth)
