"""``hand-move``: a best move at the root (any child whose value is the root's), from the
answer file's ``move``.

See ``grader/hand/questions.py`` for the judging and ``grader/hand/taskfile.py`` for the task
file."""

from ..hand import kinds

KIND = "hand-move"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {}
JUDGED_WITH_REFERENCE = kinds.JUDGED_WITH_REFERENCE
applies_to, parse_options, calls, judge = kinds.make(KIND, "move", ("minimax", "expectimax", "maxn"),
                                                     default_nodes=None,
                                                     needs_nodes=False)
