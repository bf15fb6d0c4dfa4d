"""``ast.parse`` for a submission's source while other threads of the process parse too.

A local batch grades in worker processes (one submission at a time each), but a Dask worker
(``--cluster``) grades in several threads of one process, and so does anything that calls the
grading functions from threads.

CPython 3.11 keeps the AST constructor's recursion bookkeeping in the ``ast`` module's state,
which all threads share.  When another thread builds a syntax tree at the same moment (another
submission's forgery scan, or Hypothesis reading a function's source while it shrinks a
counterexample), ``ast.parse`` of perfectly ordinary code can fail with ``SystemError: AST
constructor recursion depth mismatch``.  That failure says nothing about the code, so the parse
is tried again; only a parse that fails every time raises.

Parsing runs nothing: this module never imports or executes what it parses.
"""

from __future__ import annotations

import ast

ATTEMPTS = 8


def parse(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source, filename)``, tried again after the threads' ``SystemError``."""
    for attempt in range(ATTEMPTS):
        try:
            return ast.parse(source, filename=filename)
        except SystemError:
            if attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")
