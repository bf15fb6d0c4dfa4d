"""Blatt 3, Aufgabe 4: Eval(s) = 3*X2 + X1 - (3*O2 + O1)."""

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def evaluate(state, player):
    x1 = x2 = o1 = o2 = 0
    for line in LINES:
        marks = [state[i] for i in line]
        if "O" not in marks:
            x1 += marks.count("X") == 1
            x2 += marks.count("X") == 2
        if "X" not in marks:
            o1 += marks.count("O") == 1
            o2 += marks.count("O") == 2
    score = 3 * x2 + x1 - (3 * o2 + o1)
    return score if player == "X" else -score
