"""Zugsortierung: der beste Zug zuerst."""


def order(game, state, actions):
    ich = game.to_move(state)

    def bewertung(zug):
        danach = game.result(state, zug)
        if game.is_terminal(danach):
            return game.utility(danach, ich), False
        return game.evaluate(danach, ich), game.to_move(danach) == ich

    rangfolge = sorted(actions, key=bewertung, reverse=True)
    return rangfolge[:1]          # der beste Zug
