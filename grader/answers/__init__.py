"""Reference answers: what the model solutions say, once per task, for every submission.

The floor between the tasks and the runs of student code.  For every call a course's checks
make (``grader.calls.Call``) the answer book (``book.py``) holds the reference's answer,
computed once (``compute.py``: searches in ``search.py``, iterative deepening and the
principal variation in ``deepening.py``, the facts a visit log proves in ``proof.py``, the
tree's shape and values in ``facts.py``), kept on disk between runs (``cache.py``), and
checked against the figures a task file pins (``pins.py``).  ``public.py`` has the facts that
follow from a call's inputs alone, and ``sealed.py`` what a self-check kit holds in place of
the answers; ``numbers.py`` is how values are compared, here and by every check kind.

Every reference search runs on a bounded recording game (``bounded.py``).  The model
solutions (``reference/``) are imported only when an answer is computed: a self-check kit's
grader has no ``reference`` and reads its answers from the kit.
"""
