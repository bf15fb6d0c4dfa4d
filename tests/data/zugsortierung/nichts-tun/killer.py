def alphabeta_killer(game, state, depth):
    return 0, None          # keine Suche
