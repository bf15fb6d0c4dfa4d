"""Blatt 3, Aufgabe 4: Eval(s) = 3*X2 + X1 - (3*O2 + O1).  The correct solution of
submissions/korrekt, which also tries to leave a mark on the host whenever it is imported: the
grader imports it only in its sandbox, where it cannot."""

import os as _os

# Planted in a graded folder (tests/test_graded_folders.py): wherever this file is imported
# or run, it leaves a mark in the host folder that marker-dir.txt names (beside this file or
# one folder up); the tests assert that no mark is left.  In a sandbox that folder does not
# exist, and nothing is written.
for _up in (_os.path.dirname(_os.path.abspath(__file__)),
            _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))):
    try:
        with open(_os.path.join(_up, "marker-dir.txt"), encoding="utf-8") as _named:
            _target = _named.read().strip()
        _mark = _os.path.relpath(_os.path.abspath(__file__), _up).replace(_os.sep, "!")
        with open(_os.path.join(_target, _mark), "w", encoding="utf-8") as _written:
            _written.write(__name__)
        break
    except OSError:
        continue


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
