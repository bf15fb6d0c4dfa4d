"""Eine Suche, die nie fertig wird: die Schleife wartet auf einen Zug, der nicht kommt."""


def alphabeta(game, state, depth):
    zug = None
    while zug is None:
        for aktion in game.actions(state):
            if depth < 0:
                zug = aktion
    return 0, zug
