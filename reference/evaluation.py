"""Reference evaluation functions (model solutions of the evaluation exercises).

``tictactoe_lines``: the exercise sheet's evaluation ``3*X2 + X1 - (3*O2 + O1)``, where ``Xn``
counts the rows, columns and diagonals holding exactly ``n`` X and no O (``On`` alike).  The
value is from X's point of view; ``player="O"`` negates it (zero-sum).
"""

_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8),
          (0, 3, 6), (1, 4, 7), (2, 5, 8),
          (0, 4, 8), (2, 4, 6))


def tictactoe_lines(state, player):
    """Sheet, exercise 4: ``Eval(s) = 3*X2(s) + X1(s) - (3*O2(s) + O1(s))``, for ``player``."""
    if player not in ("X", "O"):
        raise ValueError(f"unknown player {player!r}; the players are 'X' and 'O'")
    score = 0
    for line in _LINES:
        cells = [state[i] for i in line]
        xs, os_ = cells.count("X"), cells.count("O")
        if os_ == 0 and xs in (1, 2):
            score += 3 if xs == 2 else 1
        elif xs == 0 and os_ in (1, 2):
            score -= 3 if os_ == 2 else 1
    return score if player == "X" else -score


EVALUATIONS = {"tictactoe-lines": tictactoe_lines}
