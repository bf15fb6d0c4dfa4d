"""Die klassische Feldertabelle: jedes Feld zählt so viel, wie es Vierer-Fenster gibt, die
durch es gehen (in der Mitte 13, in der Ecke 3); eigene Steine zählen positiv, die des
Gegners negativ.  Geteilt durch 1000, damit die Bewertung zwischen -1 und 1 bleibt."""

TABELLE = [[3, 4, 5, 7, 5, 4, 3],
           [4, 6, 8, 10, 8, 6, 4],
           [5, 8, 11, 13, 11, 8, 5],
           [5, 8, 11, 13, 11, 8, 5],
           [4, 6, 8, 10, 8, 6, 4],
           [3, 4, 5, 7, 5, 4, 3]]


def evaluate(state, player):
    summe = 0
    for zeile, felder in zip(TABELLE, state.split("/")):
        for gewicht, feld in zip(zeile, felder):
            if feld == player:
                summe += gewicht
            elif feld != ".":
                summe -= gewicht
    return summe / 1000
