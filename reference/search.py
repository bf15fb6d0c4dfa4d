"""Reference minimax, alpha-beta and negamax for two-player zero-sum games.

Every function takes a game object with the interface of the default calling convention
(``to_move``, ``actions``, ``result``, ``is_terminal``, ``utility``, ``evaluate``) and a state,
and returns ``(value, action)``:

* ``value`` is from the point of view of the player to move at ``state`` (called MAX);
* ``action`` is the *first* optimal action in the game's action order (ties keep the earlier
  action), or ``None`` at a terminal state.

Children are tried in the order ``game.actions`` lists them, each generated lazily with
``game.result`` just before it is searched, so the set and order of visited nodes are the
textbook ones.  Depth-limited search (``depth=d``) calls ``game.evaluate`` on the non-terminal
nodes ``d`` plies below ``state`` and never looks further; terminal nodes above the horizon
use ``game.utility``.  Whose turn it is comes from ``game.to_move``: the root player maximises,
every other player minimises (one MAX against one or several MIN players); ``expectimax``
treats every other player as chance (children equally likely).
"""

from math import inf


def minimax(game, state, depth=None):
    """Plain minimax (lecture: Max-Value/Min-Value, chosen by whose turn it is)."""
    player = game.to_move(state)

    def value_of(node, remaining):
        if game.is_terminal(node):
            return game.utility(node, player), None
        if remaining == 0:
            return game.evaluate(node, player), None
        maximising = game.to_move(node) == player
        best, best_action = (-inf if maximising else inf), None
        for action in game.actions(node):
            value, _ = value_of(game.result(node, action), _less(remaining))
            if (value > best) if maximising else (value < best):
                best, best_action = value, action
        return best, best_action

    return value_of(state, depth)


def expectimax(game, state, depth=None):
    """MAX maximises, every other player is chance: the mean of its children's values."""
    player = game.to_move(state)

    def value_of(node, remaining):
        if game.is_terminal(node):
            return game.utility(node, player), None
        if remaining == 0:
            return game.evaluate(node, player), None
        values = []
        best, best_action = -inf, None
        for action in game.actions(node):
            value, _ = value_of(game.result(node, action), _less(remaining))
            values.append(value)
            if value > best:
                best, best_action = value, action
        if game.to_move(node) == player:
            return best, best_action
        return sum(values) / len(values), None

    return value_of(state, depth)


def alphabeta(game, state, depth=None, prune_on_equality=True):
    """Alpha-beta search (fail-soft), the lecture's pseudo-code.

    ``prune_on_equality=True`` cuts as soon as ``beta <= alpha`` (the exercise sheet's rule);
    ``False`` cuts only when ``beta < alpha`` (the rule of courses that prune strictly).
    The root value is exact either way; the visited nodes differ.
    """
    player = game.to_move(state)

    def cut(alpha, beta):
        return beta <= alpha if prune_on_equality else beta < alpha

    def value_of(node, alpha, beta, remaining):
        if game.is_terminal(node):
            return game.utility(node, player), None
        if remaining == 0:
            return game.evaluate(node, player), None
        maximising = game.to_move(node) == player
        best, best_action = (-inf if maximising else inf), None
        for action in game.actions(node):
            value, _ = value_of(game.result(node, action), alpha, beta, _less(remaining))
            if maximising:
                if value > best:
                    best, best_action = value, action
                alpha = max(alpha, best)
            else:
                if value < best:
                    best, best_action = value, action
                beta = min(beta, best)
            if cut(alpha, beta):
                break
        return best, best_action

    return value_of(state, -inf, inf, depth)


def negamax(game, state, depth=None):
    """The sheet's simplified minimax ``Value(state, sign)``: one function, values negated.

    ``sign`` is +1 where the root player moves and -1 elsewhere; a node's value is from the
    view of the player to move there, and the returned value is the root player's.  The sign
    flips, and the child's value is negated, only where the player to move changes: after a
    move that gives its player another turn (Kalah) the child's value is the mover's own.
    In games where the players always alternate that is every ply, the sheet's rule.
    """
    player = game.to_move(state)

    def value_of(node, sign, remaining):
        if game.is_terminal(node):
            return sign * game.utility(node, player), None
        if remaining == 0:
            return sign * game.evaluate(node, player), None
        mover = game.to_move(node)
        best, best_action = -inf, None
        for action in game.actions(node):
            child = game.result(node, action)
            same = game.to_move(child) == mover
            value, _ = value_of(child, sign if same else -sign, _less(remaining))
            value = value if same else -value
            if value > best:
                best, best_action = value, action
        return best, best_action

    return value_of(state, 1, depth)


def action_values(game, state, depth=None, chance=False):
    """The exact (depth-limited) minimax value of every action at ``state``, MAX's view
    (expectimax values with ``chance=True``).

    Used to accept *any* optimal action: an action is optimal when its value equals the
    root value.
    """
    player = game.to_move(state)
    values = {}
    for action in game.actions(state):
        child = game.result(state, action)
        values[action] = _value_for(game, child, player, _less(depth), chance)
    return values


def _value_for(game, node, player, remaining, chance=False):
    if game.is_terminal(node):
        return game.utility(node, player)
    if remaining == 0:
        return game.evaluate(node, player)
    values = [_value_for(game, game.result(node, a), player, _less(remaining), chance)
              for a in game.actions(node)]
    if game.to_move(node) == player:
        return max(values)
    return sum(values) / len(values) if chance else min(values)


def _less(remaining):
    return None if remaining is None else remaining - 1


SEARCHES = {"minimax": minimax, "alphabeta": alphabeta, "negamax": negamax,
            "expectimax": expectimax}
