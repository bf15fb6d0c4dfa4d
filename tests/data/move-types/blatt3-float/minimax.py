"""Blatt 3 richtig gesucht (suche.py ist die korrekte Lösung), aber jeder Zug, der eine Zahl
ist, als Gleitkommazahl zurückgegeben: 8.0 statt des Felds 8.  Die Züge eines Baums sind
Texte und bleiben, wie sie sind."""

import suche


def als_float(zug):
    return float(zug) if isinstance(zug, int) else zug


def minimax(game, state):
    wert, zug = suche.minimax(game, state)
    return wert, als_float(zug)


def alphabeta(game, state, depth=None):
    wert, zug = suche.alphabeta(game, state, depth)
    return wert, als_float(zug)


def negamax(game, state):
    wert, zug = suche.negamax(game, state)
    return wert, als_float(zug)
