"""``hand-cuts``: the cut edges of the lecture's alpha-beta (from a visited node to a child it
never enters), from the answer file's ``cuts``.  One share per cut edge; an edge named that is
not cut costs a share (an edge inside a subtree already cut off costs nothing).

See ``grader/hand/questions.py`` for the judging and ``grader/hand/taskfile.py`` for the task
file."""

from ..hand import kinds

KIND = "hand-cuts"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {}
JUDGED_WITH_REFERENCE = kinds.JUDGED_WITH_REFERENCE
applies_to, parse_options, calls, judge = kinds.make(KIND, "cuts", ("alphabeta",),
                                                     default_nodes=None,
                                                     needs_nodes=False)
