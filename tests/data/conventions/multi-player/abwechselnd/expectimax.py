"""Expectimax that treats chance nodes as MIN nodes: a classic mistake."""


def expectimax(game, state):
    me = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == me else min(values)

    actions = game.actions(state)
    scores = [value(game.result(state, a)) for a in actions]
    best = max(scores)
    return best, actions[scores.index(best)]
