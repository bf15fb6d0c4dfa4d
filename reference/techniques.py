"""Model solutions of the search techniques after alpha-beta: move ordering and killer moves.

Both work on any two-player game of the default calling convention (``to_move``, ``actions``,
``result``, ``is_terminal``, ``utility``, ``evaluate``) and state their rules here, where they
are defined; the task files and the README quote them.

* ``order(game, state, actions)``: the study notes' heuristic move ordering (section 4) as a
  *partial evaluator*: every action is played once and the position after it scored from the
  point of view of the player to move at ``state`` (``utility`` where the game ends, else
  ``evaluate``); better scores first, and among equal scores a move that gives its player
  another turn (Kalah's extra turn) first; ties keep the game's action order.  In Kalah a
  capture or a move into one's own store raises the store difference, so captures and extra
  turns come first; in Connect Four the window count prefers the centre columns.
* ``alphabeta_killer(game, state, depth)``: alpha-beta (fail-soft, cut when ``beta <= alpha``
  unless ``prune_on_equality`` is false) with **one killer move per ply**: ``ply`` is the
  distance from the root in moves (0 at the root; an extra turn is a ply like any other move).
  At a node at ply p the killer of ply p, if it is one of the node's actions, is tried first,
  then the other actions in the game's order.  Whenever an action causes a cut at ply p it
  becomes the killer of ply p (replacing the one before).  The table starts empty for every
  call.  Values are from the root player's view, as ``reference.minimax.alphabeta``.

``alphabeta_ordered`` is the reference alpha-beta with the orders a student's ``order``
returned (the ``ordering`` check judges a student's ordering by what it does to alpha-beta;
``grader.answers.search.search_with_orders``).  Never imported by code that runs next to student
code.
"""

from math import inf

from .minimax import alphabeta


def _less(remaining):
    return None if remaining is None else remaining - 1


def order(game, state, actions):
    """``actions`` reordered, the most promising first (see the module docstring)."""
    mover = game.to_move(state)

    def promise(action):
        child = game.result(state, action)
        if game.is_terminal(child):
            return game.utility(child, mover), False
        return game.evaluate(child, mover), game.to_move(child) == mover

    # sorted(reverse=True) keeps equal keys in their given order
    return sorted(actions, key=promise, reverse=True)


def alphabeta_killer(game, state, depth=None, prune_on_equality=True):
    """Alpha-beta with one killer move per ply (see the module docstring for the rule)."""
    player = game.to_move(state)
    killers = {}                    # ply -> the action that last caused a cut at that ply

    def cut(alpha, beta):
        return beta <= alpha if prune_on_equality else beta < alpha

    def value_of(node, alpha, beta, remaining, ply):
        if game.is_terminal(node):
            return game.utility(node, player), None
        if remaining == 0:
            return game.evaluate(node, player), None
        maximising = game.to_move(node) == player
        actions = list(game.actions(node))
        killer = killers.get(ply)
        if killer in actions:
            actions.remove(killer)
            actions.insert(0, killer)
        best, best_action = (-inf if maximising else inf), None
        for action in actions:
            value, _ = value_of(game.result(node, action), alpha, beta, _less(remaining),
                                ply + 1)
            if maximising:
                if value > best:
                    best, best_action = value, action
                alpha = max(alpha, best)
            else:
                if value < best:
                    best, best_action = value, action
                beta = min(beta, best)
            if cut(alpha, beta):
                killers[ply] = action
                break
        return best, best_action

    return value_of(state, -inf, inf, depth, 0)


def alphabeta_ordered(game, state, depth=None, orders=None, prune_on_equality=True):
    """``reference.minimax.alphabeta`` with the children of the node named ``n`` tried in the
    order ``orders[n]`` (a permutation of its actions; the game's order where ``orders`` has
    none).  The root value is the same for every ordering; the visited nodes are not."""
    return alphabeta(game, state, depth, prune_on_equality, orders=orders or {})


MOVE_ORDERINGS = {"order": order}
