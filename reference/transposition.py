"""Reference searches after alpha-beta: a transposition table, NegaScout and MTD(f).

Every function takes a game object of the default calling convention and a state, and returns
``(value, action)`` like ``reference.minimax``'s: ``value`` from the point of view of the player
to move at ``state`` (MAX), ``action`` the first optimal action in the game's action order
(``None`` at a terminal state).  Whose turn it is comes from ``game.to_move``, never from
alternation, so Kalah's extra turns are searched right.  ``depth`` limits the search as in
``reference.minimax`` (``game.evaluate`` at the horizon, ``game.utility`` at terminal states).

**The transposition table** (``alphabeta_tt``, and the memory of ``mtdf``) is a dict, fresh
for every call, keyed by the state itself: the states the game hands out hash and compare like
the plain board (tic-tac-toe and Connect Four: the board string; Kalah: the tuple), so a
position reached by two move orders is found again.  An entry holds

* ``value``: what the search of the state returned (the root player's view),
* ``flag``: ``exact`` (the value lay strictly inside the window the state was searched with),
  ``lower`` (it was at or above beta: a cut, the true value is at least this) or ``upper``
  (at or below alpha: the true value is at most this),
* ``depth``: the plies that were left below the state (``None``: searched to the end).

**The rule for using an entry**: it is looked up before anything else is asked of the state,
and used only if its depth is at least the remaining depth (an entry searched to the end
serves every depth).  An ``exact`` entry is returned at once; a ``lower`` entry raises alpha,
an ``upper`` entry lowers beta, and if then ``beta <= alpha`` the entry's value is returned
without a search.  Otherwise the state is searched with the narrowed window, and its new entry
is flagged against the window the state was *called* with.  In tic-tac-toe and Connect Four
a position is always reached after the same number of plies, and a search to the end needs
no depth, so the value is plain alpha-beta's.  In Kalah a position can recur with fewer plies
left than when it was stored (extra turns), and the deeper entry may then change the value:
``grader validate`` refuses such a task (``grader.answers.pins``), and
``bench/transposition_positions.py`` reports such positions as unfair.

**NegaScout** (principal variation search) searches the first child with the full window and
every later child with the null window (alpha, alpha + 1); a child that fails high inside the
window (alpha < v < beta) is searched again with the window (v, beta).  It is written in the
negamax form: a child's value is negated, and the window mirrored, only where the player to
move changes (after an extra turn in Kalah it does not).  It needs whole-number values (a
null window of width 1 separates them): other values are refused with a ``ValueError``.

**MTD(f)** (Plaat et al.) starts from the first guess 0 and repeats null-window alpha-beta
searches with one table (the memory) over all passes: ``beta = g + 1`` if ``g`` is the lower
bound so far, else ``beta = g``; a pass that returns ``g < beta`` gives the upper bound ``g``,
otherwise the lower bound ``g``, until both meet.  The action is the root's choice in the
last pass that failed high (the first child proving a value >= beta is then the first optimal
one).  Whole-number values only, as for NegaScout.

Alpha-beta with a table cuts by the task's rule (``prune_on_equality``); NegaScout and MTD(f)
always cut when ``beta <= alpha``: a null window needs it.
"""

from math import inf

EXACT, LOWER, UPPER = "exact", "lower", "upper"


def alphabeta_tt(game, state, depth=None, prune_on_equality=True):
    """Alpha-beta (fail-soft, the lecture's pseudo-code) with a transposition table."""
    search = _TableSearch(game, game.to_move(state), prune_on_equality)
    return search.value_of(state, -inf, inf, depth)


def negascout(game, state, depth=None):
    """NegaScout / principal variation search in the negamax form (see the module docstring)."""
    player = game.to_move(state)

    def value_of(node, alpha, beta, remaining, sign):
        if game.is_terminal(node):
            return sign * _whole(game.utility(node, player), "negascout"), None
        if remaining == 0:
            return sign * _whole(game.evaluate(node, player), "negascout"), None
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
                if alpha < value < beta:
                    value = child_value(value, beta)
            if value > best:
                best, best_action = value, action
            alpha = max(alpha, best)
            if beta <= alpha:
                break
        return best, best_action

    return value_of(state, -inf, inf, depth, 1)


def mtdf(game, state, depth=None, first_guess=0):
    """MTD(f): null-window searches with memory, from the first guess 0 (module docstring)."""
    search = _TableSearch(game, game.to_move(state), True, whole_values="mtdf")
    guess, action = first_guess, None
    lower, upper = -inf, inf
    while lower < upper:
        beta = guess + 1 if guess == lower else guess
        guess, pass_action = search.value_of(state, beta - 1, beta, depth)
        if guess < beta:
            upper = guess
        else:
            lower, action = guess, pass_action
    return guess, action


class _TableSearch:
    """Fail-soft alpha-beta over one transposition table (see the module docstring)."""

    def __init__(self, game, player, prune_on_equality=True, whole_values=None,
                 probe_leaves=True, store_leaves=True):
        self.game, self.player = game, player
        self.prune_on_equality = prune_on_equality
        self.whole_values = whole_values       # the function's name, if it needs whole numbers
        # The least a correct table saves: ask is_terminal (and the depth) before the table,
        # and keep no leaves (see ``least_saving_visits``).
        self.probe_leaves, self.store_leaves = probe_leaves, store_leaves
        self.table = {}

    def cut(self, alpha, beta):
        return beta <= alpha if self.prune_on_equality else beta < alpha

    def leaf(self, value):
        return _whole(value, self.whole_values) if self.whole_values else value

    def value_of(self, node, alpha, beta, remaining):
        game, player = self.game, self.player
        called_with = (alpha, beta)           # the entry's flag is judged against this window
        if self.probe_leaves:
            settled, alpha, beta = self.probe(node, alpha, beta, remaining)
            if settled is not None:
                return settled
        if game.is_terminal(node):
            return self.store(node, self.leaf(game.utility(node, player)), EXACT, remaining)
        if remaining == 0:
            return self.store(node, self.leaf(game.evaluate(node, player)), EXACT, remaining)
        if not self.probe_leaves:
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
        return self.store(node, best, _flag(best, *called_with), remaining, best_action)

    def probe(self, node, alpha, beta, remaining):
        """``(answer, alpha, beta)``: the entry's ``(value, action)`` if it settles the state
        (else None), and the window narrowed by the entry's bound."""
        entry = self.table.get(node)
        if entry is None or not _deep_enough(entry[2], remaining):
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

    def store(self, node, value, flag, remaining, action=None):
        leaf = action is None and flag == EXACT
        if self.store_leaves or not leaf:
            self.table[node] = (value, flag, remaining, action)
        return value, action


def _flag(value, alpha, beta):
    if value <= alpha:
        return UPPER
    if value >= beta:
        return LOWER
    return EXACT


def _deep_enough(entry_depth, remaining):
    """An entry serves a state with ``remaining`` plies left if it was searched at least as
    deep (``None``: to the end of the game)."""
    if entry_depth is None:
        return True
    return remaining is not None and entry_depth >= remaining


def least_saving_visits(game, state, depth=None, prune_on_equality=True):
    """``alphabeta_tt`` as the most frugal correct table does it: it asks ``is_terminal`` and
    checks the depth before it looks a state up, and keeps only inner nodes.  A correct
    student's table saves at least what this one saves (the ``table`` check asks for a saving
    only where this search visits fewer nodes than plain alpha-beta).  Returns the value."""
    search = _TableSearch(game, game.to_move(state), prune_on_equality,
                          probe_leaves=False, store_leaves=False)
    return search.value_of(state, -inf, inf, depth)


def _whole(value, function):
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{function} searches with null windows of width 1 and needs "
                         f"whole-number values; the game gave {value!r}: use a game whose "
                         "utilities and heuristic are whole numbers (tic-tac-toe, Kalah, "
                         "Connect Four to the end)")
    return value


def _less(remaining):
    return None if remaining is None else remaining - 1


TRANSPOSITION_SEARCHES = {"alphabeta_tt": alphabeta_tt, "negascout": negascout, "mtdf": mtdf}
