"""Floods its own visit log with a million entries (the recorder's list is reachable)."""


def minimax(game, state):
    game._log.visits.extend(["A%d" % i for i in range(1_000_000)])
    return 3, "B"
