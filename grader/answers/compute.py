"""What the model solutions return for one call, per input: the dispatch from a call to the
reference answer of its kind (a search, an evaluation, a move ordering, iterative deepening,
a hand exercise's questions, a rating check's round robin).

The model solutions (``reference``) are imported only here and below, and only when an answer
is computed: a self-check kit's answers come precomputed, and its grader has no ``reference``
package.
"""

from __future__ import annotations

import json

from ..calls import Call
from .facts import reference_depth
from .search import answer_search, ordering_answers


def answer_call(call: Call) -> list[dict]:
    from ..play.series import RoundRobin
    if isinstance(call, RoundRobin):
        # a rating check's reference: the baselines' games among themselves (trusted code in
        # the parent, no student involved), played once per task like any answer
        return [call.play()]
    # The model solutions are imported only when an answer is computed: a self-check kit's
    # answers come precomputed, and its grader has no ``reference`` package.
    from reference.evaluation import EVALUATIONS
    if call.convention == "plain":
        evaluation = EVALUATIONS[call.reference]
        return [{"value": evaluation(*item)} for item in call.inputs()]
    if call.convention == "by-hand":    # a hand exercise's answer file (grader/hand)
        from ..hand.solution import answer_hand
        return [answer_hand(item, call.prune_on_equality) for item in call.inputs()]
    if call.convention == "ordering":   # a move ordering, on the positions of a task's tree
        return ordering_answers(call.inputs(), call.args[0] if call.args else None,
                                call.prune_on_equality, call.reference)
    from reference.deepening import TECHNIQUES
    if call.reference in TECHNIQUES:
        from .deepening import answer_deepening
        return [answer_deepening(call.reference, spec, reference_depth(call, spec),
                                 call.prune_on_equality) for spec in call.inputs()]
    return [answer_search(call.reference, spec, reference_depth(call, spec),
                          call.prune_on_equality, call.convention, text)
            for text, spec in zip(call.items, map(decoded_input, call.items))]


# The searches of one input (the random-tree checks' minimax, alpha-beta and negamax of the
# same tree) read one decoding of its text, and never change it: decoding each tree three
# times was a sixth of those answers.  Kept for the inputs of the last few calls.
DECODED_KEPT = 1024
_DECODED: dict[str, object] = {}


def decoded_input(text: str):
    """An input's value from its canonical JSON text (``Call.items``), decoded once for the
    calls that share it (a self-check kit's public facts too): read only, never changed."""
    spec = _DECODED.get(text)
    if spec is None:
        if len(_DECODED) >= DECODED_KEPT:
            _DECODED.clear()
        spec = _DECODED[text] = json.loads(text)
    return spec
