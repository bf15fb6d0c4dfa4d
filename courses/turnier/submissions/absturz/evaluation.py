"""Stürzt ab, sobald das Brett sich füllt: ein Fehler, der den ganzen Prozess beendet."""

import os


def evaluate(state, player):
    if state.count(".") < 36:
        os._exit(3)
    return 0
