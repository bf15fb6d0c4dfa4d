"""Reference minimax, alpha-beta, negamax, expectimax and max^n: the lecture's searches.

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
treats every other player as chance (children equally likely, unless the tree gives the
edges' probabilities: ``game.probability``).

``maxn`` is the search of n-player trees, whose leaves are utility *vectors*; its value is the
vector, not one player's view (see its docstring).  On such trees the two-player searches
above are *paranoid*: the root player maximises its own component, every other player
minimises it.
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
        return _expected(game, node, values), None

    return value_of(state, depth)


def _expected(game, node, values):
    """The mean of a chance node's children's values, weighted by the edges' probabilities
    where they differ (equal ones give exactly the plain mean, as before probabilities)."""
    weights = [game.probability(node, a) for a in game.actions(node)]
    if len(set(weights)) <= 1:
        return sum(values) / len(values)
    return sum(w * v for w, v in zip(weights, values))


TIE_RULES = ("first", "spiteful", "generous")


def maxn(game, state, depth=None, ties="first", alliances=None):
    """max^n (Luckhardt and Irani) for n-player trees with utility vectors at the leaves.

    Returns ``(vector, action)``: the utility vector the root's choice leads to (one component
    per player, in the order of ``game.players()``) and that action.  At every node the player
    to move picks the child whose vector is best *for that player*: its own component, or with
    ``alliances`` (a list of coalitions, e.g. ``[["A", "B"], ["C"]]``) the sum of its
    coalition's components.  Chance nodes (``CHANCE`` in the players' cycle) take the mean of
    their children's vectors, component by component, weighted by ``game.probability``.

    ``ties`` decides among children equally good for the player to move: ``first`` (the first
    in action order, the textbook's strict ``>``), ``spiteful`` (the one with the lowest sum
    of the other players' components, so the others fare worst; then the first) or
    ``generous`` (the highest such sum; then the first).  Without a vector the game is
    refused.
    """
    if ties not in TIE_RULES:
        raise ValueError(f"unknown tie rule {ties!r}; known: {', '.join(TIE_RULES)}")
    if depth is not None:
        raise ValueError("maxn searches an n-player tree to its leaves; it takes no depth")
    players = list(game.players())
    team_of = {member: group for group in alliances or () for member in group}

    def score(vector, player):
        team = team_of.get(player, [player])
        return sum(vector[players.index(member)] for member in team)

    def others(vector, player):
        team = team_of.get(player, [player])
        return sum(v for p, v in zip(players, vector) if p not in team)

    def better(candidate, best, player):
        if best is None:
            return True
        mine, theirs = score(candidate, player), score(best, player)
        if mine != theirs or ties == "first":
            return mine > theirs
        if ties == "spiteful":
            return others(candidate, player) < others(best, player)
        return others(candidate, player) > others(best, player)

    def value_of(node):
        if game.is_terminal(node):
            return tuple(game.utilities(node)), None
        mover = game.to_move(node)
        vectors, best, best_action = [], None, None
        for action in game.actions(node):
            vector, _ = value_of(game.result(node, action))
            vectors.append(vector)
            if mover != "CHANCE" and better(vector, best, mover):
                best, best_action = vector, action
        if mover == "CHANCE":
            return tuple(_expected(game, node, list(column)) for column in zip(*vectors)), None
        return best, best_action

    vector, action = value_of(state)
    return list(vector), action


def alphabeta(game, state, depth=None, prune_on_equality=True, *, orders=None, horizon=None):
    """Alpha-beta search (fail-soft), the lecture's pseudo-code.

    ``prune_on_equality=True`` cuts as soon as ``beta <= alpha`` (the exercise sheet's rule);
    ``False`` cuts only when ``beta < alpha`` (the rule of courses that prune strictly).
    The root value is exact either way; the visited nodes differ.

    Two hooks serve the search techniques after alpha-beta: ``orders`` (node name -> its
    actions in another order) tries a node's children in that order, as a student's move
    ordering asks (``reference.techniques``); ``horizon(node, ply)`` says where to evaluate
    instead of the depth limit (``ply >= depth``), as quiescence search extends it.
    """
    player = game.to_move(state)
    if horizon is None:
        def horizon(node, ply):
            return depth is not None and ply >= depth

    def cut(alpha, beta):
        return beta <= alpha if prune_on_equality else beta < alpha

    def value_of(node, alpha, beta, ply):
        if game.is_terminal(node):
            return game.utility(node, player), None
        if horizon(node, ply):
            return game.evaluate(node, player), None
        maximising = game.to_move(node) == player
        actions = game.actions(node)
        if orders:
            actions = orders.get(game.node_of(node), actions)
        best, best_action = (-inf if maximising else inf), None
        for action in actions:
            value, _ = value_of(game.result(node, action), alpha, beta, ply + 1)
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

    return value_of(state, -inf, inf, 0)


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
    return _expected(game, node, values) if chance else min(values)


def _less(remaining):
    return None if remaining is None else remaining - 1
