"""Ruhesuche in Negamax-Form (ebenfalls korrekt): jeder Knoten hat den Wert aus Sicht des
Spielers, der dort am Zug ist; Fenster und Wert werden nur dort negiert, wo der Spieler
wechselt (nach einem Zusatzzug zieht derselbe Spieler weiter)."""

from math import inf

MAX_VERLAENGERUNG = 2


def quiescence(game, state, depth):
    wurzel = game.to_move(state)

    def negamax(s, alpha, beta, ply):
        am_zug = game.to_move(s)
        sign = 1 if am_zug == wurzel else -1
        if game.is_terminal(s):
            return sign * game.utility(s, wurzel), None
        if ply >= depth and (ply - depth == MAX_VERLAENGERUNG or game.is_quiet(s)):
            return sign * game.evaluate(s, wurzel), None
        best, move = -inf, None
        for a in game.actions(s):
            kind = game.result(s, a)
            if game.to_move(kind) == am_zug:
                v, _ = negamax(kind, alpha, beta, ply + 1)
            else:
                v, _ = negamax(kind, -beta, -alpha, ply + 1)
                v = -v
            if v > best:
                best, move = v, a
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best, move

    return negamax(state, -inf, inf, 0)
