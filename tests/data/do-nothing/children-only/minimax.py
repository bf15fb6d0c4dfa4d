"""Do-nothing fixture: looks at the root's children, returns 0 and the first action."""
def minimax(game, state):
    actions = list(game.actions(state))
    children = [game.result(state, a) for a in actions]
    [game.is_terminal(c) for c in children]
    return 0, actions[0]


def alphabeta(game, state, depth=None):
    actions = list(game.actions(state))
    children = [game.result(state, a) for a in actions]
    [game.is_terminal(c) for c in children]
    return 0, actions[0]


def negamax(game, state):
    actions = list(game.actions(state))
    children = [game.result(state, a) for a in actions]
    [game.is_terminal(c) for c in children]
    return 0, actions[0]
