"""``hand-values``: the minimax (expectimax, max^n) value of chosen nodes or of every inner node
(``nodes: inner``, the default; ``all``; or a list), from the answer file's ``values``.  A
node whose value is wrong but right given the student's own values of its children is a
follow-on error and keeps its share.

See ``grader/hand/questions.py`` for the judging and ``grader/hand/taskfile.py`` for the task
file."""

from ..hand import kinds

KIND = "hand-values"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {"nodes": kinds.nodes_option("inner")}
JUDGED_WITH_REFERENCE = kinds.JUDGED_WITH_REFERENCE
applies_to, parse_options, calls, judge = kinds.make(KIND, "values", ("minimax", "expectimax", "maxn"),
                                                     default_nodes="inner",
                                                     needs_nodes=False)
