"""Keine Ahnung: jede Stellung ist gleich viel wert."""


def evaluate(state, player):
    return 0
