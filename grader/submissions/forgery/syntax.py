"""The forgery scan of a file's syntax tree (``ast.parse``, which runs nothing): every place
that reaches for the runner, aliases followed within the file, a literal given to ``exec``
scanned as code in its turn.  A file that does not parse goes to ``tokens.py``."""

from __future__ import annotations

import ast
import collections
import warnings

from ... import sourcetree
from .rules import (ATTR_CALLS, ATTRIBUTES, BUILTIN_NAMES, BUILTINS, DESCRIPTOR, DYNAMIC,
                    DYNAMIC_TARGETS, EXEC_CALLS, FD_CALLS, FD_KEYWORDS, IMPORT_CALLS,
                    MAX_EXEC_DEPTH, MODULE_ALIASES, MODULES, MUTATORS, NAMES, OPEN_CALLS,
                    PATCHED, RUNNER, STANDARD_STREAMS, string_findings)
from .tokens import scan_tokens


def scan_source(text: str, depth: int = 0) -> list[tuple[int, str, str]]:
    """(line, kind, what) for one file's text: from its syntax tree, or token by token when
    it does not parse."""
    try:
        with warnings.catch_warnings():  # invalid escapes and the like are not our business
            warnings.simplefilter("ignore")
            tree = sourcetree.parse(text)  # not ast.parse: see sourcetree
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return scan_tokens(text)
    try:
        return TreeScan(tree, depth).run()
    except RecursionError:  # absurdly deep expressions: the tokens still say enough
        return scan_tokens(text)


def _unparse(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except Exception:
        return "…"
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:39] + "…"


SCANNED_NODES = {ast.Import, ast.ImportFrom, ast.Name, ast.Attribute, ast.Subscript, ast.Call,
                 ast.Constant, ast.JoinedStr}


class TreeScan:
    """One parsed file: aliases first, then every node."""

    def __init__(self, tree: ast.Module, depth: int):
        self.tree = tree
        self.depth = depth
        self.found: list[tuple[int, str, str]] = []
        self.parents: dict[int, ast.AST] = {}
        self.nodes: list[ast.AST] = []
        self.of_type: dict[type, list] = {}
        # One breadth-first pass (outer constructs before inner ones, so the first finding
        # on a line names the whole construct), remembering parents and nodes by type.
        queue = collections.deque([tree])
        pop, push, AST = queue.popleft, queue.append, ast.AST  # local names: this loop is hot
        parents, nodes, of_type = self.parents, self.nodes, self.of_type
        while queue:
            node = pop()
            nodes.append(node)
            kind = type(node)
            if kind in of_type:
                of_type[kind].append(node)
            else:
                of_type[kind] = [node]
            for field in node._fields:
                value = getattr(node, field, None)
                if isinstance(value, list):
                    for item in value:
                        if isinstance(item, AST):
                            parents[id(item)] = node
                            push(item)
                elif isinstance(value, AST):
                    parents[id(value)] = node
                    push(value)
        self.bound = self._bound_names()
        self.aliases: dict[str, str] = {}
        self.fd_names: set[str] = set()
        self._collect_aliases()

    def _all(self, *types: type) -> list:
        """The nodes of these types, in traversal order."""
        if len(types) == 1:
            return self.of_type.get(types[0], [])
        return [node for node in self.nodes if type(node) in types]

    # -- what names mean -------------------------------------------------------------
    def _bound_names(self) -> set[str]:
        """Names the file binds itself, other than by import (assignments, defs, parameters,
        loop and with targets): such a name is the student's, not a built-in."""
        bound = {node.id for node in self._all(ast.Name) if not isinstance(node.ctx, ast.Load)}
        bound.update(node.name for node in self._all(ast.FunctionDef, ast.AsyncFunctionDef,
                                                     ast.ClassDef))
        bound.update(node.arg for node in self._all(ast.arg))
        bound.update(node.name for node in self._all(ast.ExceptHandler) if node.name)
        return bound

    def _collect_aliases(self) -> None:
        assignments = []
        for node in self._all(ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign,
                              ast.NamedExpr):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    name = _normal(alias.name)
                    if alias.asname:
                        self.aliases[alias.asname] = name
                    else:
                        top = alias.name.split(".")[0]
                        self.aliases[top] = _normal(top)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                module = _normal(node.module)
                for alias in node.names:
                    if alias.name == "*":
                        for qualified in list(NAMES) + list(FD_CALLS):
                            owner, _, attribute = qualified.rpartition(".")
                            if owner == module and attribute not in self.bound:
                                self.aliases[attribute] = qualified
                    else:
                        self.aliases[alias.asname or alias.name] = f"{module}.{alias.name}"
            elif isinstance(node, ast.Assign):
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
                if targets:
                    assignments.append((targets, node.value))
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None \
                    and isinstance(node.target, ast.Name):
                assignments.append(([node.target.id], node.value))
        # To a fixed point, so that ``s = sys`` then ``g = s._getframe`` is followed.
        for _ in range(10):
            changed = False
            for targets, value in assignments:
                qualified = self.qualify(value)
                for target in targets:
                    if qualified and self.aliases.get(target) != qualified:
                        self.aliases[target] = qualified
                        changed = True
                    if target not in self.fd_names and self.fd_like(value):
                        self.fd_names.add(target)
                        changed = True
            if not changed:
                break

    def qualify(self, node: ast.AST) -> str | None:
        """The dotted name an expression stands for (``"sys._getframe"``, ``"gc"``), or None."""
        if isinstance(node, ast.Name):
            if node.id in self.aliases:
                return self.aliases[node.id]
            if node.id in BUILTIN_NAMES and node.id not in self.bound:
                return "builtins" if node.id == "__builtins__" else "builtins." + node.id
            return None
        if isinstance(node, ast.Attribute):
            base = self.qualify(node.value)
            return f"{base}.{node.attr}" if base else None
        if isinstance(node, ast.Call):
            function = self.qualify(node.func)
            first = node.args[0] if node.args else None
            literal = first.value if isinstance(first, ast.Constant) and isinstance(
                first.value, str) else None
            if function in IMPORT_CALLS and literal:
                if function == "builtins.__import__" and len(node.args) < 4:
                    literal = literal.split(".")[0]
                return _normal(literal)
            if function == "builtins.getattr" and len(node.args) >= 2:
                base = self.qualify(node.args[0])
                name = node.args[1]
                if base and isinstance(name, ast.Constant) and isinstance(name.value, str):
                    return f"{base}.{name.value}"
            if function == "builtins.vars" and first is not None:
                return self.qualify(first)
            if function == "sys.modules.get" and literal:
                return _normal(literal)
            return None
        if isinstance(node, ast.Subscript):
            base = self.qualify(node.value)
            key = node.slice
            if not base or not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                return None
            if base == "sys.modules":
                return _normal(key.value)
            return f"{base.removesuffix('.__dict__')}.{key.value}"
        return None

    def fd_like(self, node: ast.AST) -> bool:
        """Whether an expression looks like a descriptor number other than 1 and 2."""
        if isinstance(node, ast.Constant):
            return type(node.value) is int and node.value not in (1, 2)
        if isinstance(node, ast.Name):
            return node.id in self.fd_names
        if isinstance(node, ast.Call):
            function = self.qualify(node.func)
            if function == "builtins.int":
                return True
            if isinstance(node.func, ast.Attribute) and node.func.attr == "fileno":
                return self.qualify(node.func.value) not in STANDARD_STREAMS
            return function == "os.dup"
        return False

    def standard_fd(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return type(node.value) is int and node.value in (1, 2)
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "fileno" and not node.args
                and self.qualify(node.func.value) in STANDARD_STREAMS)

    # -- the scan --------------------------------------------------------------------
    def run(self) -> list[tuple[int, str, str]]:
        for node in self.nodes:
            if type(node) not in SCANNED_NODES:
                continue
            line = node.lineno
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self._module_use(line, _normal(alias.name), f"import {alias.name}")
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                module = _normal(node.module)
                self._module_use(line, module, f"from {node.module} import …")
                for alias in node.names:
                    self._name_use(line, f"{module}.{alias.name}",
                                   f"from {node.module} import {alias.name}")
            elif isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
                self._reference(node, line)
            elif isinstance(node, ast.Call):
                self._reference(node, line)
                self._call(node, line)
            elif isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
                if self._main_guard(node):
                    continue
                value = node.value if isinstance(node.value, str) else node.value.decode(
                    "latin-1")
                for kind, what in string_findings(value, repr(node.value)):
                    self.found.append((line, kind, what))
            elif isinstance(node, ast.JoinedStr):
                pattern = "".join(v.value if isinstance(v, ast.Constant) else "{}"
                                  for v in node.values)
                for kind, what in string_findings(pattern, _unparse(node)):
                    self.found.append((line, kind, what))
        return self.found

    def _module_use(self, line: int, module: str, what: str) -> None:
        top = module.split(".")[0]
        if top in MODULES:
            self.found.append((line, MODULES[top], what))

    def _name_use(self, line: int, qualified: str, what: str) -> None:
        if qualified in NAMES:
            self.found.append((line, NAMES[qualified], what))

    def _reference(self, node: ast.AST, line: int) -> None:
        """Names, attributes and subscripts: the module, name and attribute tables, and
        stores into a module the runner uses."""
        context = getattr(node, "ctx", None)
        if isinstance(node, ast.Attribute) and node.attr in ATTRIBUTES:
            self.found.append((line, ATTRIBUTES[node.attr], _unparse(node)))
        # A name being bound is not a use: ``g = sys._getframe`` is reported at its value.
        bound_here = isinstance(node, ast.Name) and not isinstance(context, ast.Load)
        qualified = None if bound_here else self.qualify(node)
        if qualified:
            written = _unparse(node)
            # Through an alias, say both: what the student wrote and what it is.
            what = qualified if written == qualified else f"{written} ({qualified})"
            if qualified == "sys.modules" and self._harmless_modules_use(node):
                pass
            elif qualified in NAMES:
                self.found.append((line, NAMES[qualified], what))
            else:
                self._module_use(line, qualified, what)
        if isinstance(context, (ast.Store, ast.Del)) and isinstance(
                node, (ast.Attribute, ast.Subscript)):
            owner = self.qualify(node.value)
            verb = "del " if isinstance(context, ast.Del) else ""
            if owner:
                self._patch(line, owner.removesuffix(".__dict__"),
                            f"{verb}{_unparse(node)}{'' if verb else ' = …'}",
                            subscript=isinstance(node, ast.Subscript))

    def _main_guard(self, node: ast.Constant) -> bool:
        """The ``"__main__"`` of ``if __name__ == "__main__":``."""
        parent = self.parents.get(id(node))
        return node.value == "__main__" and isinstance(parent, ast.Compare) and any(
            isinstance(side, ast.Name) and side.id == "__name__"
            for side in [parent.left, *parent.comparators])

    def _harmless_modules_use(self, node: ast.AST) -> bool:
        """``sys.modules[__name__]`` (a module's own entry) and ``name in sys.modules``."""
        parent = self.parents.get(id(node))
        if isinstance(parent, ast.Subscript) and parent.value is node and isinstance(
                parent.ctx, ast.Load) and isinstance(parent.slice, ast.Name) \
                and parent.slice.id == "__name__":
            return True
        return isinstance(parent, ast.Compare) and node in parent.comparators and all(
            isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops)

    def _patch(self, line: int, owner: str, what: str, subscript: bool = False) -> None:
        """A write into ``owner`` (a qualified name)."""
        top = owner.split(".")[0]
        if top == "builtins":
            self.found.append((line, BUILTINS, what))
        elif top in PATCHED and not (subscript and owner == "os.environ"):
            self.found.append((line, RUNNER, what))

    def _call(self, node: ast.Call, line: int) -> None:
        function = self.qualify(node.func)
        if function is None:
            return
        args = node.args
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        if function in FD_CALLS:
            candidates = [args[i] for i in FD_CALLS[function] if i < len(args)]
            candidates += [v for k, v in keywords.items() if k in FD_KEYWORDS]
            for candidate in candidates:
                if not self.standard_fd(candidate):
                    shown = _shown_call(node, function, candidate)
                    self.found.append((line, DESCRIPTOR, shown))
                    break
        elif function in OPEN_CALLS:
            target = args[0] if args else keywords.get("file")
            closefd = keywords.get("closefd")
            descriptor = target is not None and (self.fd_like(target) or (
                isinstance(closefd, ast.Constant) and closefd.value is False))
            if descriptor and not self.standard_fd(target):
                self.found.append((line, DESCRIPTOR, _shown_call(node, function, target)))
        elif function in EXEC_CALLS:
            self._exec(node, function, line)
        elif function in IMPORT_CALLS:
            if args and not (isinstance(args[0], ast.Constant) and isinstance(
                    args[0].value, str)):
                shown = function.removeprefix("builtins.")
                self.found.append((line, DYNAMIC, f"{shown}({_unparse(args[0])})"))
        elif function in ATTR_CALLS and args:
            owner = self.qualify(args[0])
            name = args[1] if len(args) > 1 else None
            literal = isinstance(name, ast.Constant) and isinstance(name.value, str)
            if owner and owner.split(".")[0] in DYNAMIC_TARGETS and name is not None \
                    and not literal:
                self.found.append((line, DYNAMIC, f"{function.removeprefix('builtins.')}("
                                                  f"{owner}, {_unparse(name)})"))
            if owner and function != "builtins.getattr":
                shown = f"{function.removeprefix('builtins.')}({owner}, …)"
                self._patch(line, owner.removesuffix(".__dict__"), shown)
        else:
            owner, _, method = function.rpartition(".")
            if method in MUTATORS and owner.removesuffix(".__dict__").split(".")[0] == \
                    "builtins":
                self.found.append((line, BUILTINS, f"{owner}.{method}(…)"))

    def _exec(self, node: ast.Call, function: str, line: int) -> None:
        """A literal is scanned as code; anything else cannot be seen through."""
        name = function.removeprefix("builtins.")
        source = node.args[0] if node.args else None
        if isinstance(source, ast.Constant) and isinstance(source.value, (str, bytes)):
            if self.depth >= MAX_EXEC_DEPTH:
                self.found.append((line, DYNAMIC, f"{name}(…) nested too deep"))
                return
            text = source.value if isinstance(source.value, str) else source.value.decode(
                "utf-8", errors="replace")
            for _, kind, what in scan_source(text, self.depth + 1):
                self.found.append((line, kind, f"{name}: {what}"))
        elif source is not None:
            self.found.append((line, DYNAMIC, f"{name}({_unparse(source)})"))


def _shown_call(node: ast.Call, function: str, argument: ast.AST) -> str:
    """``os.write(4, …)``: the call as written with its descriptor argument, and what the
    called name stands for when it was reached through an alias."""
    written = _unparse(node.func)
    meant = function.removeprefix("builtins.")
    keyword = next((k.arg for k in node.keywords if k.value is argument), None)
    shown = _unparse(argument) if keyword is None else f"{keyword}={_unparse(argument)}"
    more = len(node.args) + len(node.keywords) > 1
    call = f"{written}({shown}{', …' if more else ''})"
    return call if written == meant else f"{call} ({meant})"


def _normal(module: str) -> str:
    top, dot, rest = module.partition(".")
    return MODULE_ALIASES.get(top, top) + dot + rest if top in MODULE_ALIASES else module
