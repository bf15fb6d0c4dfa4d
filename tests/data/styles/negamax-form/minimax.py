"""Correct style: everything in negamax form (one function, values negated), including
alpha-beta with the window (-beta, -alpha)."""

INF = float("inf")


def _negamax(game, state, player, sign):
    if game.is_terminal(state):
        return sign * game.utility(state, player), None
    best, move = -INF, None
    for action in game.actions(state):
        value = -_negamax(game, game.result(state, action), player, -sign)[0]
        if value > best:
            best, move = value, action
    return best, move


def minimax(game, state):
    return _negamax(game, state, game.to_move(state), 1)


def negamax(game, state):
    return _negamax(game, state, game.to_move(state), 1)


def alphabeta(game, state, depth=None):
    player = game.to_move(state)

    def search(node, alpha, beta, sign, remaining):
        if game.is_terminal(node):
            return sign * game.utility(node, player), None
        if remaining == 0:
            return sign * game.evaluate(node, player), None
        best, move = -INF, None
        for action in game.actions(node):
            value = -search(game.result(node, action), -beta, -alpha, -sign,
                            None if remaining is None else remaining - 1)[0]
            if value > best:
                best, move = value, action
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return best, move

    return search(state, -INF, INF, 1, depth)
