"""``hand-order``: at each of the chosen nodes (``nodes: [C]``, inner nodes), an order of its
children that lets alpha-beta visit as few nodes as any order does (the rest of the tree in its
own order); every order that reaches that minimum is right.  From the answer file's
``orders``.

See ``grader/hand/questions.py`` for the judging and ``grader/hand/taskfile.py`` for the task
file."""

from ..hand import kinds

KIND = "hand-order"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {"nodes": kinds.nodes_option()}
JUDGED_WITH_REFERENCE = kinds.JUDGED_WITH_REFERENCE
applies_to, parse_options, calls, judge = kinds.make(KIND, "orders", ("alphabeta",),
                                                     default_nodes=None,
                                                     needs_nodes=True)
