"""Zugsortierung: die Stellung nach jedem Zug bewerten, beste zuerst."""


def order(game, state, actions):
    ich = game.to_move(state)
    gegner = [p for p in game.players() if p != ich][0]

    def bewertung(zug):
        danach = game.result(state, zug)
        # nach meinem Zug ist (meist) der Gegner dran, also aus seiner Sicht bewerten
        if game.is_terminal(danach):
            return game.utility(danach, gegner), False
        return game.evaluate(danach, gegner), game.to_move(danach) == gegner

    return sorted(actions, key=bewertung, reverse=True)
