"""Faulty variants of ``reference/transposition.py``: the catalogue's classic mistakes with a
transposition table, in NegaScout and in MTD(f), executable.

Like ``reference/variants.py`` (whose ``run`` dispatches here), each variant is the reference
with exactly one mistake, making the same calls on the game object in the same order, so that
its value, action and visit sequence can be compared with a student's.  With ``mistake=None``
each family is the reference itself.  Standard library only, no imports from ``reference``:
tests copy this file into a submission and run it as student code.
"""

from math import inf

EXACT, LOWER, UPPER = "exact", "lower", "upper"

# (Flagging an entry against the window narrowed by an earlier entry is no mistake: the
# bounds it stores are weaker but true.)
#
# A table's mistakes come in two forms, because correct tables visit different nodes: the
# reference's (the table is looked up first, leaves are kept) and the *late* one (``-late``:
# is_terminal and the depth are asked first, only inner nodes are kept), so that a mistake is
# named in either.  Both forms of a mistake share their words in the message catalogue.
LATE = "-late"
TABLE_MISTAKES = ("tt-bound-as-exact", "tt-ignores-depth", "tt-flags-swapped",
                  "tt-bound-as-exact-late", "tt-ignores-depth-late", "tt-flags-swapped-late")
NEGASCOUT_MISTAKES = ("negascout-no-research",)
MTDF_MISTAKES = ("mtdf-bound-as-exact", "mtdf-bound-as-exact-late")
# A faulty MTD(f) may never settle; a variant gives up after this many passes.
MAX_PASSES = 1000


def _less(remaining):
    return None if remaining is None else remaining - 1


class TableSearch:
    """Fail-soft alpha-beta over one transposition table, with one of ``TABLE_MISTAKES``."""

    def __init__(self, game, player, prune_on_equality=True, mistake=None, late=False):
        self.game, self.player, self.mistake = game, player, mistake
        self.prune_on_equality = prune_on_equality
        self.late = late        # is_terminal and the depth before the table; no leaves kept
        self.table = {}

    def cut(self, alpha, beta):
        return beta <= alpha if self.prune_on_equality else beta < alpha

    def usable(self, entry_depth, remaining):
        if self.mistake == "tt-ignores-depth" or entry_depth is None:
            return True
        return remaining is not None and entry_depth >= remaining

    def probe(self, node, alpha, beta, remaining):
        entry = self.table.get(node)
        if entry is None or not self.usable(entry[2], remaining):
            return None, alpha, beta
        value, flag, _, action = entry
        if flag == EXACT:
            return (value, action), alpha, beta
        if flag == LOWER:
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
        if self.cut(alpha, beta):
            return (value, action), alpha, beta
        return None, alpha, beta

    def flag(self, value, alpha, beta):
        if self.mistake == "tt-bound-as-exact":
            return EXACT
        if value <= alpha:
            return LOWER if self.mistake == "tt-flags-swapped" else UPPER
        if value >= beta:
            return UPPER if self.mistake == "tt-flags-swapped" else LOWER
        return EXACT

    def leaf(self, node, value, remaining):
        if self.late:
            return value, None
        return self.store(node, value, EXACT, remaining)

    def store(self, node, value, flag, remaining, action=None):
        self.table[node] = (value, flag, remaining, action)
        return value, action

    def value_of(self, node, alpha, beta, remaining):
        game, player = self.game, self.player
        called_with = (alpha, beta)
        if not self.late:
            settled, alpha, beta = self.probe(node, alpha, beta, remaining)
            if settled is not None:
                return settled
        if game.is_terminal(node):
            return self.leaf(node, game.utility(node, player), remaining)
        if remaining == 0:
            return self.leaf(node, game.evaluate(node, player), remaining)
        if self.late:
            settled, alpha, beta = self.probe(node, alpha, beta, remaining)
            if settled is not None:
                return settled
        maximising = game.to_move(node) == player
        best, best_action = (-inf if maximising else inf), None
        for action in game.actions(node):
            value, _ = self.value_of(game.result(node, action), alpha, beta, _less(remaining))
            if maximising:
                if value > best:
                    best, best_action = value, action
                alpha = max(alpha, best)
            else:
                if value < best:
                    best, best_action = value, action
                beta = min(beta, best)
            if self.cut(alpha, beta):
                break
        return self.store(node, best, self.flag(best, *called_with), remaining, best_action)


def _form(mistake):
    """``(mistake, late)``: the mistake without its form, and whether it is the late form."""
    if mistake is not None and mistake.endswith(LATE):
        return mistake[:-len(LATE)], True
    return mistake, False


def alphabeta_tt_family(game, state, depth=None, prune_on_equality=True, *, mistake=None,
                        late=False):
    """Alpha-beta with a transposition table, with one mistake (``late``: in the late form,
    also without a mistake)."""
    mistake, late_form = _form(mistake)
    search = TableSearch(game, game.to_move(state), prune_on_equality, mistake,
                         late or late_form)
    return search.value_of(state, -inf, inf, depth)


def negascout_family(game, state, depth=None, prune_on_equality=True, *, mistake=None):
    """NegaScout in the negamax form, with one mistake."""
    player = game.to_move(state)

    def value_of(node, alpha, beta, remaining, sign):
        if game.is_terminal(node):
            return sign * game.utility(node, player), None
        if remaining == 0:
            return sign * game.evaluate(node, player), None
        mover = game.to_move(node)
        best, best_action = -inf, None
        for index, action in enumerate(game.actions(node)):
            child = game.result(node, action)
            same = game.to_move(child) == mover

            def child_value(low, high):
                if same:
                    return value_of(child, low, high, _less(remaining), sign)[0]
                return -value_of(child, -high, -low, _less(remaining), -sign)[0]

            if index == 0:
                value = child_value(alpha, beta)
            else:
                value = child_value(alpha, alpha + 1)
                if alpha < value < beta and mistake != "negascout-no-research":
                    value = child_value(value, beta)
            if value > best:
                best, best_action = value, action
            alpha = max(alpha, best)
            if beta <= alpha:
                break
        return best, best_action

    return value_of(state, -inf, inf, depth, 1)


def mtdf_family(game, state, depth=None, prune_on_equality=True, *, mistake=None, late=False):
    """MTD(f) from the first guess 0, with one mistake (``late``: its memory in the late
    form, also without a mistake)."""
    mistake, late_form = _form(mistake)
    table_mistake = "tt-bound-as-exact" if mistake == "mtdf-bound-as-exact" else None
    search = TableSearch(game, game.to_move(state), True, table_mistake, late or late_form)
    guess, action = 0, None
    lower, upper = -inf, inf
    for _ in range(MAX_PASSES):
        if not lower < upper:
            return guess, action
        beta = guess + 1 if guess == lower else guess
        guess, pass_action = search.value_of(state, beta - 1, beta, depth)
        if guess < beta:
            upper = guess
        else:
            lower, action = guess, pass_action
    raise RuntimeError(f"MTD(f) did not settle within {MAX_PASSES} passes")


MISTAKES_OF = {"alphabeta_tt": TABLE_MISTAKES, "negascout": NEGASCOUT_MISTAKES,
               "mtdf": MTDF_MISTAKES}
FAMILIES = {"alphabeta_tt": alphabeta_tt_family, "negascout": negascout_family,
            "mtdf": mtdf_family}


def run(mistake, function, game, state, depth=None, prune_on_equality=True):
    if mistake not in MISTAKES_OF[function]:
        raise ValueError(f"{mistake!r} is not a mistake of {function}")
    return FAMILIES[function](game, state, depth, prune_on_equality, mistake=mistake)
