"""Ruhesuche mit einer eigenen Funktion für die Verlängerung; die kennt den Spieler an der
Wurzel nicht und bewertet aus der Sicht dessen, der gerade am Zug ist."""

from math import inf

VERLAENGERUNG = 2


def quiesce(game, s, alpha, beta, player, rest):
    if game.is_terminal(s):
        return game.utility(s, player)
    if rest == 0 or game.is_quiet(s):
        return game.evaluate(s, game.to_move(s))
    maximising = game.to_move(s) == player
    best = -inf if maximising else inf
    for a in game.actions(s):
        v = quiesce(game, game.result(s, a), alpha, beta, player, rest - 1)
        if maximising:
            best = max(best, v)
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            beta = min(beta, best)
        if beta <= alpha:
            break
    return best


def quiescence(game, state, depth):
    player = game.to_move(state)

    def value(s, alpha, beta, d):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if d == 0:
            if game.is_quiet(s):
                return game.evaluate(s, player), None
            maximising = game.to_move(s) == player
            best = -inf if maximising else inf
            for a in game.actions(s):
                v = quiesce(game, game.result(s, a), alpha, beta, player, VERLAENGERUNG - 1)
                if maximising:
                    best = max(best, v)
                    alpha = max(alpha, best)
                else:
                    best = min(best, v)
                    beta = min(beta, best)
                if beta <= alpha:
                    break
            return best, None
        maximising = game.to_move(s) == player
        best, move = (-inf if maximising else inf), None
        for a in game.actions(s):
            v, _ = value(game.result(s, a), alpha, beta, d - 1)
            if (v > best) if maximising else (v < best):
                best, move = v, a
            if maximising:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if beta <= alpha:
                break
        return best, move

    return value(state, -inf, inf, depth)
