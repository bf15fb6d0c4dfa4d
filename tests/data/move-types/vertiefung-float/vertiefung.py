"""Vertiefung richtig gesucht (suche.py ist die korrekte Lösung), aber die Züge als
Gleitkommazahlen zurückgegeben: die Principal-Variation [8.0, 1.0, 6.0] statt [8, 1, 6]."""

import suche


def iterative_deepening(game, state, depth):
    return [(wert, float(zug)) for wert, zug in suche.iterative_deepening(game, state, depth)]


def principal_variation(game, state, depth):
    wert, variante = suche.principal_variation(game, state, depth)
    return wert, [float(zug) for zug in variante]
