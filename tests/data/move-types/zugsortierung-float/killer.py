"""Alpha-Beta mit Killerzügen richtig gesucht (suche.py ist die korrekte Lösung), aber der
Zug als Gleitkommazahl zurückgegeben."""

import suche


def alphabeta_killer(game, state, depth):
    wert, zug = suche.alphabeta_killer(game, state, depth)
    return wert, float(zug)
