"""Every reference search by the name a task file gives its model solution (``SEARCHES``):
the lecture's searches (``minimax.py``) and the techniques after alpha-beta, each in a module
of its own (killer moves: ``techniques.py``; quiescence search: ``quiescence.py``;
transposition tables, NegaScout and MTD(f): ``transposition.py``), all called alike:
``search(game, state, depth, ...) -> (value, action)``.

A registry only: the searches import nothing from here, so that a technique built on
alpha-beta imports ``minimax`` directly.
"""

from .minimax import alphabeta, expectimax, maxn, minimax, negamax
from .quiescence import quiescence
from .techniques import alphabeta_killer
from .transposition import TRANSPOSITION_SEARCHES

SEARCHES = {"minimax": minimax, "alphabeta": alphabeta, "negamax": negamax,
            "expectimax": expectimax, "maxn": maxn,
            "alphabeta_killer": alphabeta_killer, "quiescence": quiescence,
            **TRANSPOSITION_SEARCHES}
