"""Eine Datei, die sich nicht parsen lässt."""

def alphabeta(game, state
    continue
