"""Sieht nur die Wurzel und ihre Nachfolger an und gibt den ersten Zug mit dem Wert 0 zurück."""


def quiescence(game, state, depth):
    actions = game.actions(state)
    for action in actions:
        game.result(state, action)
    return 0, actions[0]
