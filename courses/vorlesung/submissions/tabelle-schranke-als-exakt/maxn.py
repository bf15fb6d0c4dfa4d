"""max^n for n-player trees: every player maximises its own component of the utility vector
(with alliances: the sum over its coalition); of equally good children the first is kept."""


def maxn(game, state):
    if game.is_terminal(state):
        return game.utilities(state), None
    players = game.players()
    team = game.coalition(game.to_move(state))

    def score(vector):
        return sum(vector[players.index(member)] for member in team)

    best, move = None, None
    for action in game.actions(state):
        vector, _ = maxn(game, game.result(state, action))
        if best is None or score(vector) > score(best):
            best, move = vector, action
    return best, move
