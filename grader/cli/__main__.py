"""``python -m grader.cli``: the ``grader`` command.  The current folder Python put first on
the import path was taken off it when this package was imported (``grader.cli``), before
anything else was."""

from grader.cli import program

program()
