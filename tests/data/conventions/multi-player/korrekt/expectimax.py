"""Expectimax: MAX maximises, chance nodes average their children."""


def expectimax(game, state):
    me = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if game.to_move(s) == me:
            return max(values)
        return sum(values) / len(values)

    actions = game.actions(state)
    scores = [value(game.result(state, a)) for a in actions]
    best = max(scores)
    return best, actions[scores.index(best)]
