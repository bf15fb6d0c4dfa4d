# Transpositionstabelle, NegaScout und MTD(f) -- in Negamax-Form, Werte aus der Sicht des
# Spielers am Zug.  Die Tabelle wird erst nach dem Test auf Blatt/Horizont befragt, Blätter
# werden nicht abgelegt.

INF = float("inf")


def _rest(d):
    return None if d is None else d - 1


def _negamax_tt(game, s, d, alpha, beta, table, root_player):
    """(Wert aus Sicht des Spielers am Zug in s, bester Zug)."""
    if game.is_terminal(s):
        sign = 1 if game.to_move(s) == root_player else -1
        return sign * game.utility(s, root_player), None
    if d == 0:
        sign = 1 if game.to_move(s) == root_player else -1
        return sign * game.evaluate(s, root_player), None
    entry = table.get(s)
    if entry is not None and (entry["tiefe"] is None or (d is not None and entry["tiefe"] >= d)):
        if entry["art"] == "exakt":
            return entry["wert"], entry["zug"]
        if entry["art"] == "untere":
            alpha = max(alpha, entry["wert"])
        else:
            beta = min(beta, entry["wert"])
        if alpha >= beta:
            return entry["wert"], entry["zug"]
    original = (alpha, beta)
    me = game.to_move(s)
    best, best_move = -INF, None
    for move, child in game.successors(s):
        if game.to_move(child) == me:           # Zusatzzug: derselbe Spieler
            v, _ = _negamax_tt(game, child, _rest(d), alpha, beta, table, root_player)
        else:
            v, _ = _negamax_tt(game, child, _rest(d), -beta, -alpha, table, root_player)
            v = -v
        if v > best:
            best, best_move = v, move
        alpha = max(alpha, v)
        if alpha >= beta:
            break
    if best <= original[0]:
        art = "obere"
    elif best >= original[1]:
        art = "untere"
    else:
        art = "exakt"
    table[s] = {"wert": best, "art": art, "tiefe": d, "zug": best_move}
    return best, best_move


def _negamax_tabelle(game, s, d, alpha, beta, table, root_player):
    """(Wert aus Sicht des Spielers am Zug in s, bester Zug)."""
    if game.is_terminal(s):
        sign = 1 if game.to_move(s) == root_player else -1
        return sign * game.utility(s, root_player), None
    if d == 0:
        sign = 1 if game.to_move(s) == root_player else -1
        return sign * game.evaluate(s, root_player), None
    entry = table.get(s)
    if entry is not None and (entry["tiefe"] is None or (d is not None and entry["tiefe"] >= d)):
        if entry["art"] == "exakt":
            return entry["wert"], entry["zug"]
        if entry["art"] == "untere":
            alpha = max(alpha, entry["wert"])
        else:
            beta = min(beta, entry["wert"])
        if alpha >= beta:
            return entry["wert"], entry["zug"]
    original = (alpha, beta)
    me = game.to_move(s)
    best, best_move = -INF, None
    for move, child in game.successors(s):
        if game.to_move(child) == me:           # Zusatzzug: derselbe Spieler
            v, _ = _negamax_tabelle(game, child, _rest(d), alpha, beta, table, root_player)
        else:
            v, _ = _negamax_tabelle(game, child, _rest(d), -beta, -alpha, table, root_player)
            v = -v
        if v > best:
            best, best_move = v, move
        alpha = max(alpha, v)
        if alpha >= beta:
            break
    art = "exakt"
    table[s] = {"wert": best, "art": art, "tiefe": d, "zug": best_move}
    return best, best_move


def alphabeta_tt(game, state, depth=None):
    return _negamax_tabelle(game, state, depth, -INF, INF, {}, game.to_move(state))


def negascout(game, state, depth=None):
    """Principal Variation Search in Max/Min-Form; nachgesucht wird mit dem vollen Fenster."""
    root_player = game.to_move(state)

    def pvs(s, d, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, root_player), None
        if d == 0:
            return game.evaluate(s, root_player), None
        is_max = game.to_move(s) == root_player
        best = -INF if is_max else INF
        best_move = None
        for i, (move, child) in enumerate(game.successors(s)):
            if i == 0:
                v, _ = pvs(child, _rest(d), alpha, beta)
            elif is_max:
                v, _ = pvs(child, _rest(d), alpha, alpha + 1)
                if alpha < v < beta:
                    v, _ = pvs(child, _rest(d), alpha, beta)
            else:
                v, _ = pvs(child, _rest(d), beta - 1, beta)
                if alpha < v < beta:
                    v, _ = pvs(child, _rest(d), alpha, beta)
            if is_max and v > best:
                best, best_move = v, move
                alpha = max(alpha, v)
            elif not is_max and v < best:
                best, best_move = v, move
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best, best_move

    return pvs(state, depth, -INF, INF)


def mtdf(game, state, depth=None):
    memory = {}
    root_player = game.to_move(state)
    guess, lower, upper, move = 0, -INF, INF, None
    while True:
        beta = guess + 1 if guess == lower else guess
        guess, candidate = _negamax_tt(game, state, depth, beta - 1, beta, memory, root_player)
        if guess < beta:
            upper = guess
        else:
            lower, move = guess, candidate
        if lower >= upper:
            return guess, move
