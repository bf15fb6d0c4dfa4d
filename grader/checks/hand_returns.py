"""``hand-returns``: the value each of the chosen nodes returns in the lecture's alpha-beta
(fail-soft: the v of the pseudo-code, which after a cut need not be the node's minimax value),
or that it is never entered, from the answer file's ``returns``.

See ``grader/hand/questions.py`` for the judging and ``grader/hand/taskfile.py`` for the task
file."""

from ..hand import kinds

KIND = "hand-returns"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {"nodes": kinds.nodes_option("inner")}
JUDGED_WITH_REFERENCE = kinds.JUDGED_WITH_REFERENCE
applies_to, parse_options, calls, judge = kinds.make(KIND, "returns", ("alphabeta",),
                                                     default_nodes="inner",
                                                     needs_nodes=False)
