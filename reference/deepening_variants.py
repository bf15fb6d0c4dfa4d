"""Faulty variants of iterative deepening and the principal variation
(``reference/deepening.py``): the catalogue of their classic mistakes, executable.

Each variant makes the same calls on the game object, in the same order, as a student's code
with that one mistake, so that ``grader.mistakes`` can compare what it returns and visits with
a student's.  The words (``mistake.<id>``, ``pseudocode.<id>``) are in the message catalogue.

Iterative deepening, in two styles (``STYLES_OF`` in ``reference/variants.py``): each
iteration tries the previous iteration's best move first, as the model solution does
(``best-move-first``), or keeps the game's order (``game-order``):

* ``iterations-from-zero``: ``for d in range(depth)``: iterations to depth 0 .. depth-1, the
  first one only evaluates the root, the last one is missing;
* ``last-iteration-missing``: ``for d in range(1, depth)``: one iteration short;
* ``first-iteration-action``: the best move is stored only in the first iteration
  (``if best is None: best = action``), and every entry reports that move.

Principal variation (alpha-beta collecting the line of the best child):

* ``line-reversed``: a node's line is its best child's line followed by its own move, so the
  line comes out from the horizon back to the root;
* ``line-of-last-child``: the line is taken from every child searched, not only from one that
  improves the value: the line of the last child searched;
* ``line-one-short``: the root's loop takes the best child's line without putting its own
  move in front: the line lacks its first move.
"""

from math import inf

# The catalogue's mistakes of the two techniques (``reference.variants.MISTAKES_OF`` lists
# them with every other search's).
MISTAKES_OF = {
    "iterative_deepening": ("iterations-from-zero", "last-iteration-missing",
                            "first-iteration-action"),
    "principal_variation": ("line-reversed", "line-of-last-child", "line-one-short")}


def _alphabeta(game, state, depth, prune_on_equality, first=None, mistake=None):
    """Fail-soft alpha-beta, ``(value, action, line)``, as in ``reference.deepening``, with
    one of the principal variation's mistakes."""
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
            if mistake == "line-of-last-child":
                best_line = [action] + line
            if (value > best) if maximising else (value < best):
                best, best_action = value, action
                if mistake == "line-reversed":
                    best_line = line + [action]
                elif mistake == "line-one-short" and at_root:
                    best_line = line
                elif mistake != "line-of-last-child":
                    best_line = [action] + line
            if maximising:
                alpha = max(alpha, best)
            else:
                beta = min(beta, best)
            if cut(alpha, beta):
                break
        return best, best_action, best_line

    return value_of(state, -inf, inf, depth, True)


def iterative_deepening(game, state, depth, prune_on_equality=True, mistake=None,
                        style="best-move-first"):
    reorder = style == "best-move-first"
    first, last = (0, depth) if mistake == "iterations-from-zero" else (1, depth + 1)
    if mistake == "last-iteration-missing":
        last = depth
    iterations, best = [], None
    for limit in range(first, last):
        value, action, _ = _alphabeta(game, state, limit, prune_on_equality,
                                      first=best if reorder else None)
        if mistake == "first-iteration-action":
            if best is None:
                best = action
            iterations.append((value, best))
            continue
        iterations.append((value, action))
        best = action
    return iterations


def principal_variation(game, state, depth, prune_on_equality=True, mistake=None, style=None):
    value, _, line = _alphabeta(game, state, depth, prune_on_equality, mistake=mistake)
    return value, line


VARIANTS = {"iterative_deepening": iterative_deepening,
            "principal_variation": principal_variation}


def run(mistake, function, game, state, depth, prune_on_equality=True, style=None):
    """What the variant of ``function`` with ``mistake`` (one of ``MISTAKES_OF[function]``)
    returns, in ``style`` (one of ``reference.variants.STYLES_OF[function]``, the model
    solution's by default)."""
    if mistake not in MISTAKES_OF[function]:
        raise ValueError(f"{mistake!r} is not a mistake of {function}")
    options = {"style": style} if style else {}
    return VARIANTS[function](game, state, depth, prune_on_equality, mistake=mistake,
                              **options)
