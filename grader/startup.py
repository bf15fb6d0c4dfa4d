"""What the grader does first when it is started as a program with ``python -m``: take the
folder Python put first on the import path off it.

``python -m grader`` and ``python -m grader.cli`` (as run_autograder and scripts call it) put
the current folder first on ``sys.path``, before the standard library and the installed
packages.  Started inside a student's folder, the grader would then import a student's
``argparse.py``, ``json.py`` or ``yaml.py`` in place of its own, in its own process, as whoever
runs it.  The grader needs nothing from that folder (it is installed), so the entry is
dropped before anything else is imported: by ``grader/__main__.py``, and by
``grader/cli/__init__.py`` while Python imports that package to find ``grader.cli.__main__``.
(A ``grader/`` folder there is imported by Python itself, before this runs: inside a
student's folder use the ``grader`` command or ``python -I -m grader.cli``.)

This module must import nothing: it runs before the grader's first import.
"""

import sys


def leave_start_folder() -> None:
    """Drop ``sys.path[0]``, the current folder ``python -m`` put there; under ``-I`` or
    ``-P`` (``PYTHONSAFEPATH``) Python put nothing there, and nothing is dropped."""
    if sys.path and not sys.flags.isolated and not getattr(sys.flags, "safe_path", False):
        del sys.path[0]
