"""Hand exercises: the minimax values, the alpha-beta run (intervals, returned values, cut
edges, visited nodes), the best child order and the best move on a tree, worked out by a
student on paper or in a form and handed in as an answer file.

No student code runs for them.  The flow is the grader's own, one floor at a time:

* ``taskfile``: a task's ``answers:`` (the answer file's name) and ``variants:`` (one tree
  per student), and the one call that stands for a task's answer file in the plan;
* ``variants``: per-student trees of the task's shape, drawn from its seed and the student's
  key, with the task's constraints (cuts, a deep cut, no ties at the root);
* ``answer_file``: the student's file, read in the parent as hostile input (bounded, no
  aliases, no tags, every scalar read as text) into plain answers with ``file:line`` for
  every problem;
* ``notation``: the ways people write the same answer (``-inf``, ``−∞``, ``-unendlich``;
  ``C->G`` or ``G``; ``[3, inf]`` or ``(3, ∞)``), read one value at a time;
* ``questions``: the pure judging of each question against the reference answer
  (``reference/hand.py``), with follow-on errors and the misconceptions that fit;
* ``sheets``: ``grader sheets``: printable sheets, answer templates, answer forms, solution
  pages and the Moodle question bank.

Never imported by code that runs next to student code; only ``questions`` and ``notation``
are needed to judge, and neither imports ``reference``.
"""

BY_HAND = "by-hand"      # the convention of the calls that stand for an answer file
