"""Zugsortierung für Alpha-Beta: vielversprechende Züge zuerst (Lernnotizen, Abschnitt 4).

Jeder Zug wird einmal gespielt und die Stellung danach aus Sicht des Spielers am Zug bewertet
(am Spielende mit utility, sonst mit evaluate): Schlagzüge erhöhen in Kalah die Differenz der
Kalahs, in Vier gewinnt zählt evaluate die offenen Viererfenster, die Mitte liegt in den
meisten.  Bei gleicher Bewertung kommt ein Zusatzzug zuerst.
"""


def order(game, state, actions):
    ich = game.to_move(state)

    def bewertung(zug):
        danach = game.result(state, zug)
        if game.is_terminal(danach):
            return game.utility(danach, ich), False
        return game.evaluate(danach, ich), game.to_move(danach) == ich

    return sorted(actions, key=bewertung, reverse=True)
