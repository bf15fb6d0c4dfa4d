"""A planted setup.py: see the comment below."""

import os as _os

# Planted in a graded folder (tests/test_graded_folders.py): wherever this file is imported
# or run, it leaves a mark in the host folder that marker-dir.txt names (beside this file or
# one folder up); the tests assert that no mark is left.  In a sandbox that folder does not
# exist, and nothing is written.
for _up in (_os.path.dirname(_os.path.abspath(__file__)),
            _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))):
    try:
        with open(_os.path.join(_up, "marker-dir.txt"), encoding="utf-8") as _named:
            _target = _named.read().strip()
        _mark = _os.path.relpath(_os.path.abspath(__file__), _up).replace(_os.sep, "!")
        with open(_os.path.join(_target, _mark), "w", encoding="utf-8") as _written:
            _written.write(__name__)
        break
    except OSError:
        continue
