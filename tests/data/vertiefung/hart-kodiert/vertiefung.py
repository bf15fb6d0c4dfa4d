# Gibt die richtigen Antworten der drei Aufgaben auswendig zurück, ohne zu suchen: keine der
# neuen Prüfungen darf dafür Punkte geben (keine Suche, kein Beleg).
ANTWORTEN = {
    "X...O....": ([(3, 2), (-2, 2), (3, 8)], (3, [8, 1, 6])),
    "X..OO..X.": ([(2, 2), (-1, 2), (3, 5), (0, 5)], (0, [5, 1, 2, 8])),
    "...../...../..O../.XXO.": ([(0.0, 1), (-0.0006, 3), (0.0002, 2), (-0.0009, 3)],
                                (-0.0009, [3, 2, 3, 3])),
}


def iterative_deepening(game, state, depth):
    return ANTWORTEN[str(state)][0]


def principal_variation(game, state, depth):
    return ANTWORTEN[str(state)][1]
