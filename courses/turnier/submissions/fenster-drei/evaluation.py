"""Nur Dreier zählen: ein Fenster aus 4 Feldern mit drei eigenen Steinen und einem leeren
Feld zählt +1, eines des Gegners -1.  Zweier und Einzelsteine sind nichts wert, also sieht die
Bewertung Drohungen erst spät.  Geteilt durch 100, damit sie zwischen -1 und 1 bleibt."""


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
        if inhalt.count(player) == 3 and inhalt.count(".") == 1:
            summe += 1
        elif inhalt.count(gegner) == 3 and inhalt.count(".") == 1:
            summe -= 1
    return summe / 100
