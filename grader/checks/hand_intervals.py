"""``hand-intervals``: the interval [α, β] with which the lecture's alpha-beta enters each of
the chosen nodes (``nodes: inner`` by default), or that a node is never entered (``-``), from
the answer file's ``intervals``.

See ``grader/hand/questions.py`` for the judging and ``grader/hand/taskfile.py`` for the task
file."""

from ..hand import kinds

KIND = "hand-intervals"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {"nodes": kinds.nodes_option("inner")}
JUDGED_WITH_REFERENCE = kinds.JUDGED_WITH_REFERENCE
applies_to, parse_options, calls, judge = kinds.make(KIND, "intervals", ("alphabeta",),
                                                     default_nodes="inner",
                                                     needs_nodes=False)
