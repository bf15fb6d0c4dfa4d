"""Minimal counterexamples for random-tree failures.

When a student's search disagrees with the reference on a random tree, the parent reduces
that tree step by step (delta debugging on the tree itself): each step tries smaller variants
in a fixed order and keeps the first on which the search still disagrees, until no variant
does.  The variants, in this order:

* an inner node turned into a leaf (with its heuristic value, or one of its leaf children in
  its place), a child dropped;
* a subtree moved up in place of its ancestor as many plies above as the player cycle is long
  (two for MAX/MIN), so that every node keeps its player (a chain of single children
  shortened);
* a multi-agent leaf's lose mark dropped, a value rounded (to the leading digit, to the
  nearest power of ten), set to 0, 1 or -1, or halved.

Each variant is searched by the student's code in the still-running child and by the
reference in the parent (``disagrees``); a variant tried once is never tried again.  The work
is bounded by the number of distinct trees tried (``probes``), so the same student code gives
the same counterexample every time, on a busy machine too.

Measured with ``bench/shrinking.py`` on the mistake catalogue, this pass alone gives
counterexamples as small as Hypothesis's shrinker did (which the grader used first), in about
a tenth of the time: Hypothesis spent most of it in its own machinery, several milliseconds
per tree, where one tree costs the child and the reference about one.
"""

from __future__ import annotations

import json
import time


def shrink(failing: dict, disagrees, probes: int = 400, seconds: float = 60.0) -> dict:
    """A small tree on which ``disagrees(tree)`` holds, no larger than ``failing`` (on which
    it holds).  ``seconds`` is only a safety net; ``probes`` bounds the work."""
    deadline = time.monotonic() + seconds
    reduced = _greedy(failing, disagrees, probes, deadline)
    tidy = renamed(reduced)
    return tidy if disagrees(tidy) else reduced


def renamed(tree: dict) -> dict:
    """The same tree with its nodes named by position (A, A1, A2, A2.1, ...), as a task file's
    lists of bare numbers would name them."""
    nodes: dict[str, dict] = {}

    def copy(old: str, new: str) -> None:
        node = dict(tree["nodes"][old])
        if node.get("children"):
            separator = "." if new[-1].isdigit() else ""
            children = node["children"]
            node["children"] = [f"{new}{separator}{i}" for i in range(1, len(children) + 1)]
            nodes[new] = node
            for child_old, child_new in zip(children, node["children"]):
                copy(child_old, child_new)
        else:
            nodes[new] = node

    copy(tree["root"], "A")
    return {**tree, "root": "A", "nodes": nodes}


def _greedy(tree: dict, disagrees, probes: int, deadline: float) -> dict:
    """Keep the first smaller variant that still disagrees, until none does or the budget of
    distinct trees is spent."""
    current, tried = tree, set()
    improved = True
    while improved:
        improved = False
        for candidate in _smaller(current):
            key = json.dumps(candidate, sort_keys=True)
            if key in tried:
                continue
            if len(tried) >= probes or time.monotonic() > deadline:
                return current
            tried.add(key)
            if disagrees(candidate):
                current, improved = candidate, True
                break
    return current


def _smaller(tree: dict):
    nodes, root = tree["nodes"], tree["root"]
    plies = len(tree.get("players") or ("MAX", "MIN"))
    for name, node in nodes.items():
        children = node.get("children") or []
        if name != root and children:
            yield _replace(tree, name, {"value": node.get("eval", 0) or 0})
            for child in children:
                if not nodes[child].get("children"):
                    yield _replace(tree, name, nodes[child])
        if len(children) > 1:
            for child in children:
                yield _without(tree, name, child)
    for name in nodes:
        for below in _descendants(nodes, name, plies):
            if nodes[below].get("children") or name != root:
                yield _moved_up(tree, name, below)
    for name, node in nodes.items():
        if node.get("outcome"):
            yield _replace(tree, name, {k: v for k, v in node.items() if k != "outcome"})
        for key in ("value", "eval"):
            value = node.get(key)
            if value not in (None, 0):
                for simpler in dict.fromkeys((*_rounded(value), 0, 1, -1, int(value / 2))):
                    if simpler != value:
                        yield _replace(tree, name, {**node, key: simpler})


def _rounded(value) -> tuple:
    """Rounder numbers near ``value``: its leading digit kept (-10593 → -10000, 730 → 700),
    and the power of ten nearest to it (-10593 → -10000, 730 → 1000)."""
    if not isinstance(value, int) or abs(value) < 10:
        return ()
    digits = len(str(abs(value))) - 1
    sign = 1 if value > 0 else -1
    leading = sign * (abs(value) // 10 ** digits) * 10 ** digits
    power = sign * 10 ** (digits + (abs(value) >= 5 * 10 ** digits))
    return (leading, power)


def _descendants(nodes: dict, name: str, plies: int) -> list:
    """The nodes exactly ``plies`` levels below ``name``."""
    level = [name]
    for _ in range(plies):
        level = [child for parent in level for child in nodes[parent].get("children") or []]
    return level


def _moved_up(tree: dict, name: str, below: str) -> dict:
    """``name``'s subtree replaced by the subtree of ``below`` (under the name ``name``)."""
    nodes = dict(tree["nodes"])
    nodes[name] = nodes[below]
    return _pruned({**tree, "nodes": nodes})


def _replace(tree: dict, name: str, node: dict) -> dict:
    nodes = dict(tree["nodes"])
    nodes[name] = node
    return _pruned({**tree, "nodes": nodes})


def _without(tree: dict, parent: str, child: str) -> dict:
    nodes = dict(tree["nodes"])
    nodes[parent] = {**nodes[parent], "children": [c for c in nodes[parent]["children"] if c != child]}
    return _pruned({**tree, "nodes": nodes})


def _pruned(tree: dict) -> dict:
    """Drop the nodes no longer reachable from the root."""
    keep, stack = {}, [tree["root"]]
    while stack:
        name = stack.pop()
        keep[name] = tree["nodes"][name]
        stack.extend(keep[name].get("children") or [])
    return {**tree, "nodes": keep}
