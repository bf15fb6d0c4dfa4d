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

from . import sourcetree

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

        self.window_calls = 0          # recursive calls checked for passing the window on
        self.window_dropped = False    # one that does not hand on its own α and β
        self.assigns_zero = False      # a name (or one of a tuple's) set to the number 0
        self.strict_bound = False      # a < or > comparison with α or β on one side
        self.foreign_terminal = False  # a terminal test of a state the function making it
                                       # neither takes nor assigns (the root's, say)

    def visit_Continue(self, node):
        self.has_continue = True

    def visit_Assign(self, node):
        values = node.value.elts if isinstance(node.value, (ast.Tuple, ast.List)) else [node.value]
        if any(_is_zero(value) for value in values):
            self.assigns_zero = True
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        if node.value is not None and _is_zero(node.value):
            self.assigns_zero = True
        self.generic_visit(node)

    def visit_Compare(self, node):
        operands = [node.left, *node.comparators]
        for index, operator in enumerate(node.ops):
            if isinstance(operator, (ast.Lt, ast.Gt)) and (
                    _bound(operands[index]) or _bound(operands[index + 1])):
                self.strict_bound = True
        self.generic_visit(node)

    def terminal_tests(self, tree):
        """Whether some terminal test asks about a state the function making it neither takes
        nor assigns: ``game.terminal_test(state)`` in ``max_value(s)``, Pacman's
        ``gameState.isWin()`` in ``value(state, ...)``; a test of something other than a
        plain name is not judged (it may well be the current state)."""
        def walk(node, parameters):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                parameters = _own_names(node)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                subject = None
                if node.func.attr in _TERMINAL_OF_ARGUMENT and node.args:
                    subject = node.args[0]
                elif node.func.attr in _TERMINAL_OF_STATE:
                    subject = node.func.value
                if isinstance(subject, ast.Name) and parameters is not None \
                        and subject.id not in parameters and subject.id != "self":
                    self.foreign_terminal = True
            for child in ast.iter_child_nodes(node):
                walk(child, parameters)
        walk(tree, None)

    def windows(self, tree):
        """Whether the searches hand their own α and β on: in every call, made inside a
        function with α and β parameters, to such a function (by name), the arguments for α
        and β must be the caller's own α and β parameters (in either order: a swap is another
        mistake).  A root call like ``max_value(state, -inf, inf)`` is outside such functions."""
        searches = {}
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = [a.arg for a in node.args.posonlyargs + node.args.args]
                roles = [_bound(ast.Name(name)) for name in names]
                if "alpha" in roles and "beta" in roles:
                    searches.setdefault(node.name, []).append(
                        (node, names, names[roles.index("alpha")], names[roles.index("beta")]))
        for definitions in searches.values():
            for caller, _, alpha, beta in definitions:
                for call in ast.walk(caller):
                    if not isinstance(call, ast.Call):
                        continue
                    callee = call.func.id if isinstance(call.func, ast.Name) else (
                        call.func.attr if isinstance(call.func, ast.Attribute) else None)
                    for _, names, callee_alpha, callee_beta in searches.get(callee, ()):
                        self.window_calls += 1
                        offset = 1 if isinstance(call.func, ast.Attribute) and names \
                            and names[0] in ("self", "cls") else 0
                        for wanted in (callee_alpha, callee_beta):
                            argument = _argument(call, names, wanted, offset)
                            if not (isinstance(argument, ast.Name)
                                    and argument.id in (alpha, beta)):
                                self.window_dropped = True

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


# Terminal tests: of their argument (``game.terminal_test(s)``), or of the object they are
# called on (the Pacman project's ``state.isWin()``).
_TERMINAL_OF_ARGUMENT = {"terminal_test", "is_terminal", "Terminal_Test", "isTerminal",
                         "terminal"}
_TERMINAL_OF_STATE = {"isWin", "isLose", "is_terminal", "isTerminal", "is_over"}


def _own_names(function) -> set:
    """The names a function binds itself: its parameters and what its own body assigns
    (not its nested functions'): the states it has at hand."""
    arguments = function.args
    names = {a.arg for a in (arguments.posonlyargs + arguments.args + arguments.kwonlyargs)}
    names |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a}
    pending = list(function.body) if isinstance(function.body, list) else [function.body]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))
    return names


def _is_zero(node) -> bool:
    return (isinstance(node, ast.Constant) and type(node.value) in (int, float)
            and node.value == 0)


def _argument(call, names, parameter, offset):
    """The expression ``call`` passes for ``parameter`` of a function with ``names``."""
    for keyword in call.keywords:
        if keyword.arg == parameter:
            return keyword.value
    index = names.index(parameter) - offset
    if 0 <= index < len(call.args) and not any(isinstance(a, ast.Starred)
                                               for a in call.args[:index + 1]):
        return call.args[index]
    return None


# Per mistake: given the evidence, whether the source demonstrably lacks its line.  Only
# lines whose absence shows: code that raises α may still skip that in some nodes, so an
# `α = max(α, v)` does not rule out "α never raised".
LACKS = {
    "continue-not-break": lambda e: not e.has_continue,
    "alpha-beta-swapped": lambda e: e.passes_window and not e.swaps_window,
    "reverse-children": lambda e: not e.may_reverse,
    "window-not-passed": lambda e: e.window_calls > 0 and not e.window_dropped,
    # a bound started at 0 needs a 0 given to a name (v = 0, best, move = 0, None)
    "init-zero": lambda e: not e.assigns_zero,
    "init-zero-max": lambda e: not e.assigns_zero,
    # a cut on one side only when strictly beyond the bound needs a strict comparison with it
    "strict-cut-max": lambda e: not e.strict_bound,
    "strict-cut-min": lambda e: not e.strict_bound,
    # testing the root for the end of the game needs a test of a state that is not the
    # function's own parameter
    "root-terminal-test": lambda e: not e.foreign_terminal,
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
            tree = sourcetree.parse(path.read_bytes(), filename=str(path))
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError, SystemError):
            return None
        try:
            found.visit(tree)
            found.windows(tree)
            found.terminal_tests(tree)
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
