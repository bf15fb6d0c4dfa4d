"""A visit log of 18 MB: the runner's honest reply is longer than the parent reads."""


def minimax(game, state):
    game._log.visits.extend(["A" * 9000] * 2000)
    return 3, "B"
