INF = float("inf")


class Suche:
    """Alpha-Beta mit einer Killerzug-Tabelle, eine Zeile je Ebene unter der Wurzel."""

    def __init__(self, game, tiefe):
        self.game = game
        self.killer = [None] * (tiefe + 1)

    def sortiert(self, s, ebene):
        zuege = self.game.actions(s)
        k = self.killer[ebene]
        if k is not None and k in zuege:
            return [k] + [z for z in zuege if z != k]
        return zuege

    def max_wert(self, s, alpha, beta, rest, ebene):
        if self.game.is_terminal(s):
            return self.game.utility(s, self.ich), None
        if rest == 0:
            return self.game.evaluate(s, self.ich), None
        v, zug = -INF, None
        for z in self.sortiert(s, ebene):
            w = self.wert(self.game.result(s, z), alpha, beta, rest - 1, ebene + 1)
            if w > v:
                v, zug = w, z
            alpha = max(alpha, v)
            if alpha >= beta:
                self.killer[ebene] = z
                break
        return v, zug

    def min_wert(self, s, alpha, beta, rest, ebene):
        if self.game.is_terminal(s):
            return self.game.utility(s, self.ich), None
        if rest == 0:
            return self.game.evaluate(s, self.ich), None
        v, zug = INF, None
        for z in self.sortiert(s, ebene):
            w = self.wert(self.game.result(s, z), alpha, beta, rest - 1, ebene + 1)
            if w < v:
                v, zug = w, z
            beta = min(beta, v)
            if alpha >= beta:
                self.killer[ebene] = z
                break
        return v, zug

    def wert(self, s, alpha, beta, rest, ebene):
        # Zusatzzüge in Kalah: wer zieht, sagt to_move, nicht die Ebene
        if not self.game.is_terminal(s) and rest > 0 and self.game.to_move(s) == self.ich:
            return self.max_wert(s, alpha, beta, rest, ebene)[0]
        return self.min_wert(s, alpha, beta, rest, ebene)[0]


def alphabeta_killer(game, state, depth):
    suche = Suche(game, depth)
    suche.ich = game.to_move(state)
    return suche.max_wert(state, -INF, INF, depth, 0)
