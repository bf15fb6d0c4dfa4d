"""The import graph of ``grader/`` and ``reference/`` has no circle.

Every import statement counts, also one inside a function or under ``if TYPE_CHECKING``: a
lazy import that dodges a circle at import time is still a circle in the design (each side
needs the other to be understood, tested or moved).  The graph is read from the sources with
``ast``, relative imports resolved; ``from package import name`` is an edge to the submodule
``package.name`` where there is one, else to the package itself.  Importing ``a.b`` also runs
``a/__init__.py``, but that is no edge of its own: a package that registers its modules (the
check kinds, the games) would otherwise form a circle with every module it registers.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("grader", "reference")
# Stand-ins for student code (the helper modules a course hands out, see
# grader/conventions/standins/): the grader never imports them, a child loads them in place of
# a student's own, and they import each other as a student's modules would.
NOT_THE_GRADERS = ROOT / "grader" / "conventions" / "standins"


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if path.is_relative_to(NOT_THE_GRADERS) or "__pycache__" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def imported(module: str, path: Path, known: dict) -> set[str]:
    """The modules of ``known`` that ``module`` (at ``path``) imports anywhere in its source."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.name
                while name and name not in known:
                    name = name.rpartition(".")[0]
                if name:
                    targets.add(name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1])
                origin = f"{base}.{node.module}" if node.module else base
            else:
                origin = node.module
            for alias in node.names:
                if f"{origin}.{alias.name}" in known:
                    targets.add(f"{origin}.{alias.name}")
                elif origin in known:
                    targets.add(origin)
    targets.discard(module)
    return targets


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {module: imported(module, path, known) for module, path in known.items()}


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def a_cycle(component: frozenset[str], graph: dict[str, set[str]]) -> list[str]:
    """One way round a circle, for the message: from its first module back to it."""
    start = min(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for successor in sorted(graph[node] & component):
                if successor == start:
                    return paths[node] + [start]
                if successor not in paths:
                    paths[successor] = paths[node] + [successor]
                    following.append(successor)
        frontier = following
    return sorted(component)


def test_the_graph_sees_lazy_and_relative_imports():
    """The reader counts an import inside a function, and resolves ``from ..x import y``."""
    graph = import_graph()
    # the child-side runner imports the conventions inside a function; a kind module its
    # verdict relatively
    assert "grader.conventions" in graph["grader.sandbox.child"]
    assert "grader.checks.verdict" in graph["grader.checks.value"]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]


def test_no_import_circle_in_grader_or_reference():
    graph = import_graph()
    found = circles(graph)
    assert not found, "import circles (the modules of each, and one way round it):\n" + "\n".join(
        f"{', '.join(sorted(component))}\n    {' -> '.join(a_cycle(component, graph))}"
        for component in found)
