"""Automatic grader for game-tree search exercises (minimax, alpha-beta, negamax, evaluation).

The flow is one-way: task files -> tasks -> reference answers -> isolated runs of student
code -> verdicts -> reports.  This file stays empty of imports: the child-side runner is
staged with a copy of ``grader/games`` and ``grader/conventions`` but not of this package's
other modules.
"""

__version__ = "0.1.0"
