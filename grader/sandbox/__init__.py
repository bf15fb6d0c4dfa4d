"""Running student code in a child process.

``child.py`` is the only module here that runs next to student code; it is staged together
with ``grader/games`` and ``grader/conventions`` (and nothing else of the grader) into a
folder of its own, so student code cannot import the reference, the task files or the parent's
modules.  ``launcher.py`` is the parent's side.
"""
