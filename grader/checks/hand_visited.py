"""``hand-visited``: the number of nodes the lecture's alpha-beta visits (root and leaves
included), from the answer file's ``visited``.

See ``grader/hand/questions.py`` for the judging and ``grader/hand/taskfile.py`` for the task
file."""

from ..hand import kinds

KIND = "hand-visited"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {}
JUDGED_WITH_REFERENCE = kinds.JUDGED_WITH_REFERENCE
applies_to, parse_options, calls, judge = kinds.make(KIND, "visited", ("alphabeta",),
                                                     default_nodes=None,
                                                     needs_nodes=False)
