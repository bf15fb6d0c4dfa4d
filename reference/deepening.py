"""Model solutions of two search techniques after alpha-beta: iterative deepening and the
principal variation, for two-player zero-sum games searched to a depth limit.

Both take the default convention's game object (``to_move``, ``actions``, ``result``,
``is_terminal``, ``utility``, ``evaluate``), a state and the depth limit ``depth >= 1`` in
plies, and search with fail-soft alpha-beta (``prune_on_equality``: cut when ``beta <=
alpha``, the sheet's rule; ``False``: only when ``beta < alpha``).  Values are from the point
of view of the player to move at ``state`` (MAX); every other player minimises.  Terminal
nodes above the horizon are scored with ``utility``, non-terminal nodes ``d`` plies down with
``evaluate``.  A search without a depth limit is refused: neither technique means anything
without one.

* ``iterative_deepening`` returns one ``(value, action)`` per iteration, depths 1 .. depth,
  as a list.  Each iteration tries the previous iteration's best move first, then the others
  in the game's order (the grader's checks accept either choice: see
  ``grader/checks/iterations.py``).
* ``principal_variation`` returns ``(value, line)``: the line of optimal play from ``state``,
  a list of actions, ``depth`` long unless the game ends sooner.  Where several moves are
  optimal the first one searched is on the line.

Nothing here is handed to students: the child never imports ``reference``.
"""

from math import inf


def _refuse_without_depth(depth):
    if depth is None or isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"a depth limit of at least 1 ply is needed, not {depth!r}")


def _alphabeta(game, state, depth, prune_on_equality, first=None):
    """Fail-soft alpha-beta to ``depth`` plies: ``(value, action, line)``, trying ``first``
    before the root's other actions when it is one of them."""
    player = game.to_move(state)

    def cut(alpha, beta):
        return beta <= alpha if prune_on_equality else beta < alpha

    def value_of(node, alpha, beta, remaining, at_root):
        if game.is_terminal(node):
            return game.utility(node, player), None, []
        if remaining == 0:
            return game.evaluate(node, player), None, []
        maximising = game.to_move(node) == player
        best, best_action, best_line = (-inf if maximising else inf), None, []
        actions = list(game.actions(node))
        if at_root and first in actions:
            actions.remove(first)
            actions.insert(0, first)
        for action in actions:
            value, _, line = value_of(game.result(node, action), alpha, beta, remaining - 1,
                                      False)
            if (value > best) if maximising else (value < best):
                best, best_action, best_line = value, action, [action] + line
            if maximising:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if cut(alpha, beta):
                break
        return best, best_action, best_line

    return value_of(state, -inf, inf, depth, True)


def iterative_deepening(game, state, depth, prune_on_equality=True):
    """``[(value, action), ...]``: alpha-beta to depth 1, 2, ..., ``depth``, each iteration
    trying the previous iteration's best move first.  The last entry is the answer of the
    deepest iteration, the move to play."""
    _refuse_without_depth(depth)
    iterations, best = [], None
    for limit in range(1, depth + 1):
        value, action, _ = _alphabeta(game, state, limit, prune_on_equality, first=best)
        iterations.append((value, action))
        best = action
    return iterations


def principal_variation(game, state, depth, prune_on_equality=True):
    """``(value, [a1, a2, ...])``: the root's value and the line of optimal play that gives
    it, MAX's move first; ``depth`` moves unless a terminal node ends the line sooner."""
    _refuse_without_depth(depth)
    value, _, line = _alphabeta(game, state, depth, prune_on_equality)
    return value, line


# The model solutions of this module by the name a task's function is compared with.
TECHNIQUES = {"iterative_deepening": iterative_deepening,
              "principal_variation": principal_variation}
