def order(game, state, actions):
    return list(reversed(actions))      # blind umgedreht, ohne die Stellung anzusehen
