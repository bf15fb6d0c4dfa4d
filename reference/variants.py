"""Faulty variants of the reference searches: the catalogue of classic mistakes, executable.

Each variant is the reference algorithm with exactly one mistake, making the same calls on
the game object in the same order as a student's code with that mistake would, so that its
value, action and visit sequence can be compared with a student's.  ``grader.mistakes`` holds
the catalogue's words (what the mistake is, which line of the lecture's pseudo-code it
concerns) and does the matching.

``run(mistake, function, game, state, depth, prune_on_equality, options)`` -> ``(value,
action)``; ``options`` are a model solution's own (max^n: ``ties``, ``alliances``;
quiescence: ``extension``).
``run_reply(mistake, function, game, state, actions)``: the reply of a move ordering's
variant, compared whole.
"""

from math import inf

FINITE_INFINITY = 9999


def _less(remaining):
    return None if remaining is None else remaining - 1


def _expected(game, node, values):
    """A chance node's mean, weighted by the edges' probabilities where they differ (as in
    ``search._expected``; repeated here because tests run this module as student code, alone)."""
    weights = [game.probability(node, a) for a in game.actions(node)]
    if len(set(weights)) <= 1:
        return sum(values) / len(values)
    return sum(w * v for w, v in zip(weights, values))


def _ordered(actions, mistake):
    """The order a variant tries the children in: the game's, or reversed."""
    return list(reversed(actions)) if mistake == "reverse-children" else actions


def minimax_family(game, state, depth=None, prune_on_equality=True, *, pruning=True,
                   mistake=None):
    """Minimax (Max-Value/Min-Value by whose turn it is), with or without alpha-beta."""
    player = game.to_move(state)
    cut_on_equality = prune_on_equality
    if mistake == "strict-cut":
        cut_on_equality = False
    elif mistake == "equality-cut":
        cut_on_equality = True
    if mistake == "depth-ignored":
        depth = None
    elif mistake == "depth-off-by-one" and depth is not None:
        depth = depth + 1
    elif mistake == "horizon-early" and depth is not None:
        depth = depth - 1

    def cut(alpha, beta):
        return beta <= alpha if cut_on_equality else beta < alpha

    def leaf_value(node):
        if mistake == "utility-side-to-move":
            return game.utility(node, game.to_move(node))
        return game.utility(node, player)

    def initial(maximizing, at_root=False):
        if mistake == "init-zero" or (mistake == "init-zero-max" and maximizing
                                      and not at_root):
            return 0
        if mistake == "init-finite":
            return -FINITE_INFINITY if maximizing else FINITE_INFINITY
        return -inf if maximizing else inf

    def value(node, alpha, beta, remaining, at_root, ply=0):
        # No terminal test in Max-Value, or one of the root where the node is meant
        # (`game.terminal_test(state)` in `max_value(s)`, Pacman's `gameState.isWin()`): a
        # terminal node is searched on, and having no actions keeps its starting value
        if mistake == "root-terminal-test":
            terminal = game.is_terminal(state)
        elif mistake == "no-terminal-test-max" and game.to_move(node) == player:
            terminal = False
        else:
            terminal = game.is_terminal(node)
        if terminal:
            return leaf_value(node), None
        if remaining == 0:
            return game.evaluate(node, player), None
        maximizing = game.to_move(node) == player
        if mistake == "max-horizon-early" and maximizing and remaining == 1:
            # `if cutoff(s, d) or d == 1` in Max-Value only
            return game.evaluate(node, player), None
        if mistake == "no-alternation":
            maximizing = True
        elif mistake == "strict-alternation":
            maximizing = ply % 2 == 0
        elif mistake == "swap-min-max":
            maximizing = not maximizing
        elif mistake == "root-minimises" and at_root:
            maximizing = False       # min(game.actions(state), key=...) at the root only
        best, best_action = initial(maximizing, at_root), None
        actions = _ordered(game.actions(node), mistake)
        for action in actions:
            child = game.result(node, action)
            if mistake == "one-ply" and at_root:
                v = leaf_value(child) if game.is_terminal(child) else game.evaluate(child, player)
            else:
                child_alpha, child_beta = alpha, beta
                if mistake == "window-not-passed":
                    child_alpha, child_beta = -inf, inf
                elif mistake == "alpha-beta-swapped":
                    child_alpha, child_beta = beta, alpha
                v, _ = value(child, child_alpha, child_beta, _less(remaining), False, ply + 1)
            if mistake == "last-action":
                best_action = action
            if pruning and mistake == "cut-before-record":
                bound = max(alpha, v) if maximizing else min(beta, v)
                if (maximizing and cut(bound, beta)) or (not maximizing and cut(alpha, bound)):
                    break
            if (maximizing and v > best) or (not maximizing and v < best):
                best = v
                if mistake != "last-action":
                    best_action = action
            if not pruning:
                continue
            if mistake in ("strict-cut-max", "strict-cut-min"):
                # AIMA's form: the value against the other side's bound (`if v >= beta:
                # return v`), then the own bound raised; one side cuts only on `>` / `<`
                strict = not cut_on_equality or (mistake == "strict-cut-max") == maximizing
                if maximizing:
                    if best > beta or (not strict and best == beta):
                        break
                    alpha = max(alpha, best)
                else:
                    if best < alpha or (not strict and best == alpha):
                        break
                    beta = min(beta, best)
                continue
            if mistake == "wrong-side-cut":
                # Max-Value tests `v <= α` (Min-Value `v >= β`) before updating its bound,
                # where it should test `v >= β` (`v <= α`)
                if (maximizing and cut(alpha, best)) or (not maximizing and cut(best, beta)):
                    break
                if maximizing:
                    alpha = max(alpha, best)
                else:
                    beta = min(beta, best)
                continue
            if maximizing:
                if mistake != "alpha-never-raised" and not (mistake == "root-no-alpha" and at_root):
                    alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if cut(alpha, beta):
                if mistake == "continue-not-break":
                    continue
                break
        if (at_root and best_action is None and actions and not pruning
                and mistake in ("no-terminal-test-max", "root-terminal-test")):
            # every child worth −∞: the textbook's minimax root, max(actions, key=...),
            # still picks the first action (its alpha-beta root, `if v > best_score`, none)
            best_action = actions[0]
        return best, best_action

    return value(state, -inf, inf, depth, True)


def negamax_family(game, state, depth=None, prune_on_equality=True, *, mistake=None):
    """The sheet's ``Value(state, sign)``, with one mistake."""
    player = game.to_move(state)

    def value(node, sign, remaining, at_root):
        if game.is_terminal(node):
            utility = game.utility(node, player)
            return (utility if mistake == "leaf-not-signed" else sign * utility), None
        if remaining == 0:
            estimate = game.evaluate(node, player)
            return (estimate if mistake == "leaf-not-signed" else sign * estimate), None
        best = 0 if mistake == "init-zero" else (-FINITE_INFINITY if mistake == "init-finite" else -inf)
        best_action = None
        mover = game.to_move(node)
        actions = _ordered(game.actions(node), mistake)
        for action in actions:
            child = game.result(node, action)
            # The player changes at every ply unless a move gives its player another turn;
            # `negate-every-ply` assumes it always changes (blind alternation).
            changes = mistake == "negate-every-ply" or game.to_move(child) != mover
            if mistake == "one-ply" and at_root:
                raw = (game.utility(child, player) if game.is_terminal(child)
                       else game.evaluate(child, player))
                v = raw * sign
            else:
                child_sign = sign if mistake == "sign-not-flipped" or not changes else -sign
                child_value, _ = value(child, child_sign, _less(remaining), False)
                v = child_value if mistake == "no-negation" or not changes else -child_value
            if mistake == "last-action":
                best_action = action
            if v > best:
                best = v
                if mistake != "last-action":
                    best_action = action
        return best, best_action

    return value(state, 1, depth, True)


def expectimax_family(game, state, depth=None, prune_on_equality=True, *, mistake=None):
    """MAX maximises, other players are chance (the mean), with one mistake."""
    player = game.to_move(state)

    def value(node, remaining):
        if game.is_terminal(node):
            return game.utility(node, player), None
        if remaining == 0:
            return game.evaluate(node, player), None
        values, best, best_action = [], -inf, None
        for action in game.actions(node):
            v, _ = value(game.result(node, action), _less(remaining))
            values.append(v)
            if v > best:
                best, best_action = v, action
        if game.to_move(node) == player:
            return best, best_action
        if mistake == "chance-as-min":
            return min(values), None
        return _expected(game, node, values), None

    return value(state, depth)


def maxn_family(game, state, depth=None, prune_on_equality=True, *, mistake=None,
                ties="first", alliances=None):
    """max^n (every player maximises its own component), with one mistake; returns the vector
    the faulty search reaches, as a student's would."""
    players = list(game.players())
    root_player = game.to_move(state)
    team_of = {member: group for group in alliances or () for member in group}

    def score(vector, player):
        return sum(vector[players.index(m)] for m in team_of.get(player, [player]))

    def others(vector, player):
        team = team_of.get(player, [player])
        return sum(v for p, v in zip(players, vector) if p not in team)

    def better(candidate, best, mover, ply):
        if best is None:
            return True
        if mistake == "paranoid":
            # two-player minimax on the root player's component
            sign = 1 if mover == root_player else -1
            return sign * score(candidate, root_player) > sign * score(best, root_player)
        if mistake == "alternation":
            sign = 1 if ply % 2 == 0 else -1
            return sign * score(candidate, root_player) > sign * score(best, root_player)
        judge = mover
        if mistake == "root-component":
            judge = root_player
        elif mistake == "next-player-component":
            judge = players[(players.index(mover) + 1) % len(players)]
        mine, theirs = score(candidate, judge), score(best, judge)
        if mistake == "ties-last":
            return mine >= theirs
        if mine != theirs or ties == "first":
            return mine > theirs
        if ties == "spiteful":
            return others(candidate, judge) < others(best, judge)
        return others(candidate, judge) > others(best, judge)

    def value(node, ply):
        if game.is_terminal(node):
            return tuple(game.utilities(node)), None
        mover = game.to_move(node)
        vectors, best, best_action = [], None, None
        for action in game.actions(node):
            vector, _ = value(game.result(node, action), ply + 1)
            vectors.append(vector)
            if mover != "CHANCE" and better(vector, best, mover, ply):
                best, best_action = vector, action
        if mover == "CHANCE":
            return tuple(_expected(game, node, list(c)) for c in zip(*vectors)), None
        return best, best_action

    vector, action = value(state, 0)
    return list(vector), action


def killer_family(game, state, depth=None, prune_on_equality=True, *, mistake=None):
    """Alpha-beta with killer moves (``reference.techniques.alphabeta_killer``: one killer per
    ply, set by the action that causes a cut, tried first where legal), with one mistake."""
    player = game.to_move(state)
    killers = {}

    def cut(alpha, beta):
        return beta <= alpha if prune_on_equality else beta < alpha

    def slot(ply):
        return 0 if mistake == "killer-global" else ply   # one killer for every ply

    def value(node, alpha, beta, remaining, ply):
        if game.is_terminal(node):
            return game.utility(node, player), None
        if remaining == 0:
            return game.evaluate(node, player), None
        maximizing = game.to_move(node) == player
        actions = list(game.actions(node))
        killer = killers.get(slot(ply))
        if mistake != "killer-ignored" and killer in actions:
            actions.remove(killer)
            actions.insert(0, killer)
        best, best_action = (-inf if maximizing else inf), None
        for action in actions:
            v, _ = value(game.result(node, action), alpha, beta, _less(remaining), ply + 1)
            if (maximizing and v > best) or (not maximizing and v < best):
                best, best_action = v, action
                if mistake == "killer-any-best":     # remembers every new best move
                    killers[slot(ply)] = action
            if maximizing:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if cut(alpha, beta):
                if mistake != "killer-any-best":
                    killers[slot(ply)] = action
                break
        return best, best_action

    return value(state, -inf, inf, depth, 0)


def order_family(game, state, actions, *, mistake=None):
    """The model move ordering (``reference.techniques.order``: the position after each move
    scored from the mover's view, extra turns first among equals), with one mistake."""
    mover = game.to_move(state)
    if mistake == "order-wrong-player":
        mover = next(p for p in game.players() if p != mover)

    def promise(action):
        child = game.result(state, action)
        if game.is_terminal(child):
            return game.utility(child, mover), False
        return game.evaluate(child, mover), game.to_move(child) == mover

    ranked = sorted(actions, key=promise, reverse=True)
    if mistake == "order-best-only":
        return ranked[:1]
    if mistake == "order-duplicates":       # the best move put in front, but left in place
        return ranked[:1] + list(actions)
    return ranked


def quiescence_family(game, state, depth, prune_on_equality=True, *, mistake=None,
                      extension=2):
    """Quiescence search (``reference/quiescence.py``), with one mistake:

    * ``noisy-evaluated``: evaluates every position at the horizon, noisy or not (plain
      depth-limited alpha-beta, no extension);
    * ``extension-unbounded``: extends while a position is noisy, without the limit of
      ``extension`` plies;
    * ``extension-wrong-view``: evaluates the positions beyond the horizon from the view of
      the player to move there instead of the root player's (a separate ``quiesce`` helper
      that has no ``player`` at hand).
    """
    player = game.to_move(state)
    limit = inf if mistake == "extension-unbounded" else depth + extension

    def cut(alpha, beta):
        return beta <= alpha if prune_on_equality else beta < alpha

    def value(node, alpha, beta, ply):
        if game.is_terminal(node):
            return game.utility(node, player), None
        if ply >= depth and (mistake == "noisy-evaluated" or ply >= limit
                             or game.is_quiet(node)):
            viewer = game.to_move(node) if mistake == "extension-wrong-view" and ply > depth \
                else player
            return game.evaluate(node, viewer), None
        maximising = game.to_move(node) == player
        best, best_action = (-inf if maximising else inf), None
        for action in game.actions(node):
            v, _ = value(game.result(node, action), alpha, beta, ply + 1)
            if maximising:
                if v > best:
                    best, best_action = v, action
                alpha = max(alpha, best)
            else:
                if v < best:
                    best, best_action = v, action
                beta = min(beta, best)
            if cut(alpha, beta):
                break
        return best, best_action

    return value(state, -inf, inf, 0)


MINIMAX_MISTAKES = ("swap-min-max", "init-zero", "init-finite", "no-alternation",
                    "strict-alternation", "utility-side-to-move", "last-action", "one-ply",
                    "reverse-children",
                    # the textbook's code (AIMA's games.py) and the Pacman project's agents
                    "root-minimises", "init-zero-max", "no-terminal-test-max",
                    "root-terminal-test")
ALPHABETA_MISTAKES = MINIMAX_MISTAKES + (
    "strict-cut-max", "strict-cut-min",
    "strict-cut", "equality-cut", "alpha-never-raised", "window-not-passed",
    "alpha-beta-swapped", "continue-not-break", "cut-before-record", "root-no-alpha",
    "wrong-side-cut", "depth-ignored", "depth-off-by-one", "horizon-early",
    "max-horizon-early")
NEGAMAX_MISTAKES = ("no-negation", "sign-not-flipped", "leaf-not-signed", "init-zero",
                    "init-finite", "last-action", "one-ply", "reverse-children",
                    "negate-every-ply")
EXPECTIMAX_MISTAKES = ("chance-as-min",)
MAXN_MISTAKES = ("paranoid", "alternation", "root-component", "next-player-component",
                 "ties-last")
KILLER_MISTAKES = ("killer-global", "killer-any-best", "killer-ignored")
ORDER_MISTAKES = ("order-wrong-player", "order-best-only", "order-duplicates")
QUIESCENCE_MISTAKES = ("noisy-evaluated", "extension-unbounded", "extension-wrong-view")
MISTAKES_OF = {"minimax": MINIMAX_MISTAKES, "alphabeta": ALPHABETA_MISTAKES,
               "negamax": NEGAMAX_MISTAKES, "expectimax": EXPECTIMAX_MISTAKES,
               "maxn": MAXN_MISTAKES}
MISTAKES_OF.update({"alphabeta_killer": KILLER_MISTAKES, "order": ORDER_MISTAKES,
                    "quiescence": QUIESCENCE_MISTAKES})

try:  # the searches after alpha-beta, iterative deepening and the principal variation keep
    # their variants in modules of their own (absent where this file is copied alone into a
    # submission as student code)
    from .deepening_variants import MISTAKES_OF as DEEPENING_MISTAKES
    from .deepening_variants import run as run_deepening
    from .transposition_variants import MISTAKES_OF as TRANSPOSITION_MISTAKES
    from .transposition_variants import run as run_transposition
except ImportError:
    TRANSPOSITION_MISTAKES, run_transposition = {}, None
    DEEPENING_MISTAKES, run_deepening = {}, None
MISTAKES_OF.update(TRANSPOSITION_MISTAKES)
# Iterative deepening and the principal variation return more than (value, action), so a
# student is compared with them by the whole reply (``WHOLE_REPLY``, see grader/mistakes.py).
MISTAKES_OF.update(DEEPENING_MISTAKES)
WHOLE_REPLY = ("iterative_deepening", "principal_variation")
# Choices the model solution makes that a correct student may make otherwise: a variant runs
# in each style (the first is the model solution's), and matches a student like any of them.
STYLES_OF = {"iterative_deepening": ("best-move-first", "game-order")}


def run(mistake, function, game, state, depth=None, prune_on_equality=True, options=None,
        style=None):
    if mistake not in MISTAKES_OF[function]:
        raise ValueError(f"{mistake!r} is not a mistake of {function}")
    if function == "alphabeta_killer":
        return killer_family(game, state, depth, prune_on_equality, mistake=mistake)
    if function == "quiescence":
        return quiescence_family(game, state, depth, prune_on_equality, mistake=mistake,
                                 **(options or {}))
    if function in TRANSPOSITION_MISTAKES:
        return run_transposition(mistake, function, game, state, depth, prune_on_equality)
    if function in ("iterative_deepening", "principal_variation"):
        return run_deepening(mistake, function, game, state, depth, prune_on_equality, style)
    if function == "maxn":
        return maxn_family(game, state, depth, mistake=mistake, **(options or {}))
    if function == "negamax":
        return negamax_family(game, state, depth, prune_on_equality, mistake=mistake)
    if function == "expectimax":
        return expectimax_family(game, state, depth, mistake=mistake)
    return minimax_family(game, state, depth, prune_on_equality,
                          pruning=function == "alphabeta", mistake=mistake)


def run_reply(mistake, function, game, state, actions):
    """The reply of a faulty variant of a function that is not a search (a move ordering:
    ``function(game, state, actions)``), compared whole with a student's."""
    if mistake not in MISTAKES_OF.get(function, ()):
        raise ValueError(f"{mistake!r} is not a mistake of {function}")
    return order_family(game, state, actions, mistake=mistake)
