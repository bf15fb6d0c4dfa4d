"""Jede Suche scheitert mit einer Division durch null, nach dem Import des eigenen Moduls
token.py (ein Name der Standardbibliothek)."""

import token


def minimax(game, state):
    return token.CALLS / 0, None


def alphabeta(game, state, depth=None):
    return token.CALLS / 0, None


def negamax(game, state):
    return token.CALLS / 0, None
