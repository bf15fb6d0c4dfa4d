# Zugsortierung nach den Lernnotizen: in Kalah erst Zusatzzüge (der letzte Stein landet in der
# eigenen Kalah), dann Schlagzüge nach der Zahl der geschlagenen Steine; in Vier gewinnt die
# Spalten von der Mitte nach außen.


def kalah_gewinn(game, state, zug):
    ich = game.to_move(state)
    danach = game.result(state, zug)
    zusatz = not game.is_terminal(danach) and game.to_move(danach) == ich
    brett_vorher, brett_nachher = state[0], danach[0]
    n = len(brett_vorher) // 2 - 1
    kalah = n if ich == "MAX" else 2 * n + 1
    geschlagen = brett_nachher[kalah] - brett_vorher[kalah]
    return (1 if zusatz else 0, geschlagen)


def order(game, state, actions):
    if isinstance(state, tuple):            # Kalah: (Brett, Spieler am Zug)
        return sorted(actions, key=lambda zug: kalah_gewinn(game, state, zug), reverse=True)
    spalten = len(state.split("/")[0])      # Vier gewinnt: Zeilen von oben, durch / getrennt
    mitte = (spalten - 1) / 2
    return sorted(actions, key=lambda spalte: abs(spalte - mitte))
