"""Fenster zählen: jedes Fenster aus 4 Feldern (waagrecht, senkrecht, diagonal), in dem nur
ein Spieler Steine hat, zählt 1, 4 oder 16 für 1, 2 oder 3 Steine; die Fenster des Gegners
zählen negativ.  Geteilt durch 10000, damit jede Bewertung zwischen -1 und 1 bleibt."""

GEWICHT = {1: 1, 2: 4, 3: 16}


def fenster(zeilen):
    hoehe, breite = len(zeilen), len(zeilen[0])
    for r in range(hoehe):
        for c in range(breite):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                felder = [(r + i * dr, c + i * dc) for i in range(4)]
                if all(0 <= y < hoehe and 0 <= x < breite for y, x in felder):
                    yield [zeilen[y][x] for y, x in felder]


def evaluate(state, player):
    gegner = "O" if player == "X" else "X"
    summe = 0
    for inhalt in fenster(state.split("/")):
        eigene, fremde = inhalt.count(player), inhalt.count(gegner)
        if eigene and not fremde and eigene < 4:
            summe += GEWICHT[eigene]
        elif fremde and not eigene and fremde < 4:
            summe -= GEWICHT[fremde]
    return summe / 10000
