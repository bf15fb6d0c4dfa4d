"""The exercise sheet's style: ``minimax(state, player)`` and
``alphabeta(state, player, alpha=-inf, beta=inf)`` -> ``(value, move)``, written against
module-level helpers that the grader puts into the student's module before each call:

* ``terminal(state) -> (bool, utility)``: utility from the first player's point of view (X, or
  MAX in trees): +1 when X wins; ``(False, None)`` for a state that is not terminal;
* ``legal_moves(state)``: the moves, in the order the search must try them;
* ``play(state, move, player)``: the state after ``player`` makes ``move``.

``player`` is the player to move at the root; values are from the first player's point of
view (the sheet's X is MAX even when O moves).  Visits are counted as in the default
convention: ``terminal`` and ``legal_moves`` visit, ``play`` does not.
"""

from ..games import make_game


def call(module, name, spec, args):
    game, root = make_game(spec)
    rules = game._rules
    first = rules.players[0]

    def terminal(state):
        if game.is_terminal(state):
            return True, game.utility(state, first)
        return False, None

    def legal_moves(state):
        return game.actions(state)

    def play(state, move, player):
        if game.node_of(state) is not None and player != rules.to_move(state):
            raise ValueError(f"play({state!r}, {move!r}, {player!r}): it is "
                             f"{rules.to_move(state)!r}'s turn, not {player!r}'s")
        return game.result(state, move)

    module.terminal, module.legal_moves, module.play = terminal, legal_moves, play
    returned = getattr(module, name)(root, rules.to_move(root), *args)
    return returned, game.visit_log()
