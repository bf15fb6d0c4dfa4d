"""What a submission's source text shows about the mistakes it can have (parent side).

Behaviour alone cannot tell some mistakes apart: alpha-beta that never raises α, that goes on
with ``continue`` at a cut, or that does not pass the window on all amount to "no pruning".
The source can: code without a single ``continue`` statement does not have the mistake
"``continue`` instead of ``break``".  ``ruled_out(folder)`` returns the mistakes whose
characteristic line the submission *demonstrably* lacks, so that the feedback never names
them; where the source leaves any doubt (a file that does not parse, names the predicates do
not recognise), a mistake is not ruled out.

All of the submission's Python files count together, since a student's function may call
helpers in other files.  Nothing here imports or runs student code: it only parses it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

MAX_FILES = 200
MAX_BYTES = 2 << 20

_ALPHA = re.compile(r"alpha|α", re.IGNORECASE)
_BETA = re.compile(r"beta|β", re.IGNORECASE)


def _bound(node) -> str | None:
    """'alpha' or 'beta' when ``node`` is a name (or attribute) that holds that bound."""
    name = node.id if isinstance(node, ast.Name) else (
        node.attr if isinstance(node, ast.Attribute) else None)
    if name is None:
        return None
    alpha, beta = bool(_ALPHA.search(name)), bool(_BETA.search(name))
    if alpha != beta:
        return "alpha" if alpha else "beta"
    return None


class Evidence(ast.NodeVisitor):
    """The facts about a source the predicates below read."""

    def __init__(self):
        self.has_continue = False
        self.passes_window = False     # a call or tuple with α before β
        self.swaps_window = False      # one with β before α, or alpha=β / beta=α
        self.may_reverse = False       # reversed, [::-1], reverse=True, pop, range(a, b, -1), i -= 1

    def visit_Continue(self, node):
        self.has_continue = True

    def _sequence(self, elements):
        bounds = [b for b in map(_bound, elements) if b]
        if "alpha" in bounds and "beta" in bounds:
            if bounds.index("beta") < bounds.index("alpha"):
                self.swaps_window = True
            else:
                self.passes_window = True

    def visit_Call(self, node):
        self._sequence(node.args)
        for keyword in node.keywords:
            if keyword.arg and _bound(ast.Name(keyword.arg)) and _bound(keyword.value) \
                    and _bound(ast.Name(keyword.arg)) != _bound(keyword.value):
                self.swaps_window = True
            if keyword.arg == "reverse":
                self.may_reverse = True
        function = node.func
        name = function.id if isinstance(function, ast.Name) else (
            function.attr if isinstance(function, ast.Attribute) else None)
        if name in ("reversed", "reverse", "pop", "popleft", "insert", "appendleft") or (
                name == "range" and len(node.args) == 3):
            self.may_reverse = True
        self.generic_visit(node)

    def visit_Tuple(self, node):
        self._sequence(node.elts)
        self.generic_visit(node)

    visit_List = visit_Tuple

    def visit_AugAssign(self, node):
        if isinstance(node.op, ast.Sub):  # an index walking backwards
            self.may_reverse = True
        self.generic_visit(node)

    def visit_Subscript(self, node):
        if isinstance(node.slice, ast.Slice) and node.slice.step is not None:
            self.may_reverse = True
        self.generic_visit(node)


# Per mistake: given the evidence, whether the source demonstrably lacks its line.  Only
# lines whose absence shows: code that raises α may still skip that in some nodes, so an
# `α = max(α, v)` does not rule out "α never raised".
LACKS = {
    "continue-not-break": lambda e: not e.has_continue,
    "alpha-beta-swapped": lambda e: e.passes_window and not e.swaps_window,
    "reverse-children": lambda e: not e.may_reverse,
}


def evidence(folder: Path) -> Evidence | None:
    """The evidence of every Python file under ``folder``, or None when some file could not
    be read or parsed (then nothing is demonstrable)."""
    found = Evidence()
    files = sorted(p for p in folder.rglob("*.py") if p.is_file() and not p.is_symlink())
    if not files or len(files) > MAX_FILES:
        return None
    for path in files:
        try:
            if path.stat().st_size > MAX_BYTES:
                return None
            tree = ast.parse(path.read_bytes(), filename=str(path))
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        try:
            found.visit(tree)
        except RecursionError:
            return None
    return found


def ruled_out(folder: Path | None) -> set[str]:
    """The catalogue mistakes the source under ``folder`` demonstrably does not have."""
    if folder is None or not folder.is_dir():
        return set()
    found = evidence(folder)
    if found is None:
        return set()
    return {mistake for mistake, lacks in LACKS.items() if lacks(found)}
