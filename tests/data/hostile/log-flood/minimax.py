"""Floods its own visit log (the recorder's list is reachable) with one entry more than the
600,000 the trust boundary accepts, on every call."""

FLOOD = ["A%d" % i for i in range(600_001)]


def minimax(game, state):
    game._log.visits.extend(FLOOD)
    return 3, "B"
