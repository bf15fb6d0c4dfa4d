"""Standard modules the child-side runner imports only when it needs them, imported as they
would have been at its start.

Every submission's child starts afresh, so the runner imports as little as it can before the
student's code runs: ``traceback`` (an exception to describe), ``inspect`` (a decorated
search's signature), ``ast`` and ``dis`` (an absent package) and ``re`` (a parameter's name
outside ASCII) come later, if at all; with what they import (``re``, ``enum``,
``functools``, ``tokenize``, ...) they were about a third of a child's start.  By then the
student's folder is first on the import path and the student's own modules are in
``sys.modules``: a student's ``token.py`` or ``types.py`` must not stand in for the standard
module inside ``traceback``.  ``standard_module`` imports with the import path and finders of
the runner's start, and with every module of a standard name that the standard library did not
provide set aside meanwhile, then puts them back.

Runs in the child, next to student code: standard library only, never imports ``reference``.
"""

import importlib
import os
import sys

_START = None    # (import path, finders, the standard library's folder) at the runner's start
_IMPORTED = {}   # name -> the standard module imported for the runner


def remember_start():
    """Called by the runner before the student's folder and the course's finders are added:
    what a later ``standard_module`` imports with."""
    global _START
    _START = (list(sys.path), list(sys.meta_path), os.path.dirname(os.__file__) + os.sep)


def standard_module(name):
    """The standard library's module ``name`` (the one imported for the runner before, if
    any)."""
    module = _IMPORTED.get(name)
    if module is not None:
        return module
    if _START is None:      # not in a runner's child (the floor benchmark, tests)
        module = importlib.import_module(name)
    else:
        path, meta_path, folder = _START
        names = getattr(sys, "stdlib_module_names", ())
        set_aside = {key: found for key, found in list(sys.modules.items())
                     if key.partition(".")[0] in names and not _standard(found, folder)}
        saved = sys.path, sys.meta_path
        # new lists, not changed in place: an import in progress may be walking the old ones
        sys.path, sys.meta_path = list(path), list(meta_path)
        for key in set_aside:
            del sys.modules[key]
        try:
            module = importlib.import_module(name)
        finally:
            sys.path, sys.meta_path = saved
            sys.modules.update(set_aside)
    _IMPORTED[name] = module
    return module


def _standard(module, folder):
    """Whether ``module`` is the standard library's: built in, frozen, or from its folder."""
    spec = getattr(module, "__spec__", None)
    origin = getattr(spec, "origin", None)
    if origin in ("built-in", "frozen"):
        return True
    file = getattr(module, "__file__", None)
    return isinstance(file, str) and file.startswith(folder)
