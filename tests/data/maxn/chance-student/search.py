"""A correct student for tests/data/maxn/chance.yaml: expectimax and max^n that weigh chance
edges by game.probability."""
from math import inf


def expectimax(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player), None
        if game.to_move(s) == "CHANCE":
            return sum(game.probability(s, a) * value(game.result(s, a))[0]
                       for a in game.actions(s)), None
        best, move = -inf, None
        for a in game.actions(s):
            v, _ = value(game.result(s, a))
            if v > best:
                best, move = v, a
        return best, move

    return value(state)


def maxn(game, state):
    if game.is_terminal(state):
        return game.utilities(state), None
    mover = game.to_move(state)
    if mover == "CHANCE":
        total = None
        for a in game.actions(state):
            vector, _ = maxn(game, game.result(state, a))
            weighted = [game.probability(state, a) * x for x in vector]
            total = weighted if total is None else [t + w for t, w in zip(total, weighted)]
        return total, None
    index = game.players().index(mover)
    best, move = None, None
    for a in game.actions(state):
        vector, _ = maxn(game, game.result(state, a))
        if best is None or vector[index] > best[index]:
            best, move = vector, a
    return best, move
