"""``python -m grader``: the ``grader`` command, started without the current folder on the
import path (``grader.startup``)."""

from grader.startup import leave_start_folder

leave_start_folder()

from grader.cli import program  # noqa: E402 - only once the current folder is off the path

program()
