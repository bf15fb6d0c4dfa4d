"""A student who carries two-player minimax over to three players: player A (the root)
maximises its own component, and B and C are taken to minimise A's instead of maximising their
own."""


def maxn(game, state):
    root_player = game.to_move(state)
    index = game.players().index(root_player)

    def value(s):
        if game.is_terminal(s):
            return game.utilities(s), None
        maximising = game.to_move(s) == root_player
        best, move = None, None
        for a in game.actions(s):
            v, _ = value(game.result(s, a))
            if best is None or (v[index] > best[index] if maximising else v[index] < best[index]):
                best, move = v, a
        return best, move

    return value(state)
