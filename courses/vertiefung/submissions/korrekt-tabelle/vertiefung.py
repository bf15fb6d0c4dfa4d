# Blatt Vertiefung -- Negamax-Stil: jeder Wert aus Sicht des Spielers am Zug.
# Iterative Vertiefung ohne Umsortieren (Züge immer in der Reihenfolge von game.actions),
# die Principal-Variation über eine Tabelle der besten Züge je Stellung.

INF = float("inf")


def negamax_ab(game, s, tiefe, alpha, beta):
    spieler = game.to_move(s)
    if game.is_terminal(s):
        return game.utility(s, spieler)
    if tiefe == 0:
        return game.evaluate(s, spieler)
    best = -INF
    for zug in game.actions(s):
        kind = game.result(s, zug)
        if game.to_move(kind) == spieler:        # Zusatzzug: gleicher Spieler
            w = negamax_ab(game, kind, tiefe - 1, alpha, beta)
        else:
            w = -negamax_ab(game, kind, tiefe - 1, -beta, -alpha)
        best = max(best, w)
        alpha = max(alpha, w)
        if alpha >= beta:
            break
    return best


def iterative_deepening(game, state, depth):
    antworten = []
    for tiefe in range(1, depth + 1):
        spieler = game.to_move(state)
        bester_wert, bester_zug = -INF, None
        alpha = -INF
        for zug in game.actions(state):
            kind = game.result(state, zug)
            if game.to_move(kind) == spieler:
                w = negamax_ab(game, kind, tiefe - 1, alpha, INF)
            else:
                w = -negamax_ab(game, kind, tiefe - 1, -INF, -alpha)
            if w > bester_wert:
                bester_wert, bester_zug = w, zug
            alpha = max(alpha, w)
        antworten.append([bester_wert, bester_zug])
    return antworten


def principal_variation(game, state, depth):
    bester = {}      # Stellung -> bester Zug (ohne Schnitte, also exakt)

    def negamax(s, tiefe):
        spieler = game.to_move(s)
        if game.is_terminal(s):
            return game.utility(s, spieler)
        if tiefe == 0:
            return game.evaluate(s, spieler)
        wert = -INF
        for zug in game.actions(s):
            kind = game.result(s, zug)
            w = negamax(kind, tiefe - 1)
            if game.to_move(kind) != spieler:
                w = -w
            if w > wert:
                wert, bester[s] = w, zug
        return wert

    wert = negamax(state, depth)
    zugfolge, s = [], state
    while s in bester and len(zugfolge) < depth:
        zug = bester[s]
        zugfolge.append(zug)
        s = game.result(s, zug)
    return wert, zugfolge
