"""Quiet and noisy positions, for quiescence search: which positions a task calls *noisy*.

A task names a rule with ``noisy:`` (the game spec carries it as ``"noisy"``); a game that
offers such rules lists their names in ``noisy_rules`` and says, per rule, which of a
position's moves are noisy (``noisy_move``).  A position is noisy when the player to move has
a noisy move, quiet when it has none; a terminal position is quiet.  The student's search
asks ``game.is_quiet(state)`` and ``game.noisy_actions(state)``.

How far a search extends the horizon (``"extension"``, plies beyond it) travels in the same
spec; the rules do not use it, the reference and the checks do.

Runs next to student code: standard library only, relative imports only, never imports
``reference``.
"""

DEFAULT_EXTENSION = 2


class NoisyRules:
    """``is_quiet`` and ``noisy_actions`` of a rules class; the class sets ``noisy_rules``
    (the rule names it knows) and defines ``noisy_move(state, action, rule)``."""

    noisy_rules = ()

    def read_noisy(self, spec):
        """The task's rule from its spec (None when the task names none)."""
        rule = spec.get("noisy")
        if rule is not None and rule not in self.noisy_rules:
            raise ValueError(f"unknown noisy rule {rule!r}; this game knows "
                             f"{', '.join(self.noisy_rules) or 'none'}")
        self.noisy = rule

    def noisy_actions(self, state):
        """The mover's noisy moves, in action order (none at a terminal position)."""
        if self.noisy is None:
            raise ValueError("this task defines no noisy positions (its task file sets no "
                             "noisy:), so no position is quiet or noisy")
        if self.is_terminal(state):
            return []
        return [action for action in self.actions(state)
                if self.noisy_move(state, action, self.noisy)]

    def is_quiet(self, state):
        """Whether the player to move has no noisy move (terminal positions are quiet)."""
        return not self.noisy_actions(state)
