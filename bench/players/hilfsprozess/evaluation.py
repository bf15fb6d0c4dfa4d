"""Nur die Mitte zählt: eigene Steine in der mittleren Spalte minus die des Gegners."""


def evaluate(state, player):
    gegner = "O" if player == "X" else "X"
    zeilen = state.split("/")
    mitte = len(zeilen[0]) // 2
    spalte = [zeile[mitte] for zeile in zeilen]
    return (spalte.count(player) - spalte.count(gegner)) / 100
