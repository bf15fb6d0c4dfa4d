"""An evaluation function that prefers the left-most columns of Connect Four: the more of
the player's discs in columns 0 and 1, the better.  Bad play on purpose, and easy to see:
a search that uses it piles its discs up on the left."""


def evaluate(state, player):
    rows = state.split("/")
    return sum(row[column] == player for row in rows for column in (0, 1))
