"""Blatt: Suchtechniken nach Alpha-Beta -- Transpositionstabelle, NegaScout, MTD(f)."""

import math

EXAKT, UNTEN, OBEN = 0, 1, 2


def tiefe_reicht(gespeichert, rest):
    if gespeichert is None:          # bis zum Spielende gesucht
        return True
    return rest is not None and gespeichert >= rest


def weniger(rest):
    return None if rest is None else rest - 1


class Suche:
    """Alpha-Beta mit Tabelle; die Tabelle lebt so lange wie das Objekt."""

    def __init__(self, game, spieler):
        self.game = game
        self.spieler = spieler
        self.tabelle = {}

    def wert(self, s, alpha, beta, rest):
        alpha0, beta0 = alpha, beta
        eintrag = self.tabelle.get(s)
        if eintrag is not None and tiefe_reicht(eintrag[2], rest):
            v, flag, _, zug = eintrag
            if flag == EXAKT:
                return v, zug
            if flag == UNTEN:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
            if beta <= alpha:
                return v, zug
        game = self.game
        if game.is_terminal(s):
            v = game.utility(s, self.spieler)
            self.tabelle[s] = (v, EXAKT, rest, None)
            return v, None
        if rest == 0:
            v = game.evaluate(s, self.spieler)
            self.tabelle[s] = (v, EXAKT, rest, None)
            return v, None
        max_knoten = game.to_move(s) == self.spieler
        bester = -math.inf if max_knoten else math.inf
        bester_zug = None
        for a in game.actions(s):
            v, _ = self.wert(game.result(s, a), alpha, beta, weniger(rest))
            if max_knoten:
                if v > bester:
                    bester, bester_zug = v, a
                alpha = max(alpha, bester)
            else:
                if v < bester:
                    bester, bester_zug = v, a
                beta = min(beta, bester)
            if beta <= alpha:
                break
        if bester <= alpha0:
            flag = OBEN
        elif bester >= beta0:
            flag = UNTEN
        else:
            flag = EXAKT
        self.tabelle[s] = (bester, flag, rest, bester_zug)
        return bester, bester_zug


def alphabeta_tt(game, state, depth=None):
    return Suche(game, game.to_move(state)).wert(state, -math.inf, math.inf, depth)


def negascout(game, state, depth=None):
    ich = game.to_move(state)

    def ns(s, alpha, beta, rest, vorzeichen):
        if game.is_terminal(s):
            return vorzeichen * game.utility(s, ich), None
        if rest == 0:
            return vorzeichen * game.evaluate(s, ich), None
        am_zug = game.to_move(s)
        bester, bester_zug = -math.inf, None
        for i, a in enumerate(game.actions(s)):
            kind = game.result(s, a)
            gleich = game.to_move(kind) == am_zug

            def suche(unten, oben):
                if gleich:
                    return ns(kind, unten, oben, weniger(rest), vorzeichen)[0]
                return -ns(kind, -oben, -unten, weniger(rest), -vorzeichen)[0]

            if i == 0:
                v = suche(alpha, beta)
            else:
                v = suche(alpha, alpha + 1)
                if alpha < v < beta:
                    v = suche(v, beta)
            if v > bester:
                bester, bester_zug = v, a
            alpha = max(alpha, bester)
            if beta <= alpha:
                break
        return bester, bester_zug

    return ns(state, -math.inf, math.inf, depth, 1)


def mtdf(game, state, depth=None):
    suche = Suche(game, game.to_move(state))
    g, zug = 0, None
    unten, oben = -math.inf, math.inf
    while unten < oben:
        beta = g + 1 if g == unten else g
        g, durchgang_zug = suche.wert(state, beta - 1, beta, depth)
        if g < beta:
            oben = g
        else:
            unten, zug = g, durchgang_zug
    return g, zug
