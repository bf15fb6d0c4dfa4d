"""Minimal counterexamples for random-tree failures, shrunk with Hypothesis from the parent.

When a student's search disagrees with the reference on a random tree, the parent asks
Hypothesis to ``find`` a tree on which they disagree, drawn from a strategy of small trees
whose every choice shrinks towards fewer nodes and smaller values (leaves rather than inner
nodes, one child rather than many, 0 rather than other numbers).  Each candidate is searched
by the student's code in the still-running child and by the reference in the parent;
Hypothesis's shrinker then reduces the first disagreement to a minimal one.  If no candidate
disagrees within the budget, the smallest failing tree of the check is reduced greedily
instead (dropping children, turning inner nodes into leaves, simplifying values); the same
greedy pass also polishes Hypothesis's result, whose encoding drops later children first.

Hypothesis runs derandomized and without a database, so the same student code gives the
same counterexample every time.
"""

from __future__ import annotations

import time

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample, Unsatisfiable


# Hypothesis is thread-safe since 6.136, so submissions graded at once in threads of one
# process (a Dask worker's) shrink at once; a local batch shrinks in its worker processes.
SMALL = st.integers(-4, 4)
VALUES = st.one_of(SMALL, st.integers(-10**9, 10**9))


class _OutOfBudget(Exception):
    pass


@st.composite
def small_trees(draw, max_depth: int = 4, max_children: int = 3, values=VALUES,
                players=None):
    """Trees of at most ``max_depth`` plies; every inner node has a heuristic value.

    ``players``: the player cycle of a multi-agent tree (kept from the failing tree, so the
    counterexample has as many agents); its leaves are win states or, shrinking last, lose
    states."""
    nodes: dict[str, dict] = {}

    def build(name: str, level: int) -> None:
        inner = level == 0 or (level < max_depth and draw(st.booleans()))
        if not inner:
            nodes[name] = {"value": draw(values)}
            if players is not None and draw(st.booleans()):
                nodes[name]["outcome"] = "lose"
            return
        count = draw(st.integers(1, max_children))
        children = [f"{name}{'.' if name[-1].isdigit() else ''}{i}" for i in range(1, count + 1)]
        nodes[name] = {"children": children, "eval": draw(values)}
        for child in children:
            build(child, level + 1)

    build("A", 0)
    if players is not None:
        return {"kind": "tree", "root": "A", "players": list(players), "nodes": nodes}
    return {"kind": "tree", "root": "A", "nodes": nodes}


def shrink(failing: dict, disagrees, probes: int = 400, seconds: float = 60.0) -> dict:
    """A small tree on which ``disagrees(tree)`` holds, no larger than ``failing``.

    The work is bounded by the number of trees tried (``probes``), so that the same student
    code gives the same counterexample on a busy machine; ``seconds`` is only a safety net.
    """
    deadline = time.monotonic() + seconds
    count = 0

    def condition(tree: dict) -> bool:
        nonlocal count
        count += 1
        if count > probes or time.monotonic() > deadline:
            raise _OutOfBudget
        return disagrees(tree)

    found = None
    try:
        found = find(small_trees(players=failing.get("players")), condition, settings=settings(
            database=None, derandomize=True, max_examples=150, deadline=None,
            phases=(Phase.generate, Phase.shrink),
            suppress_health_check=list(HealthCheck)))
    except (NoSuchExample, Unsatisfiable, _OutOfBudget):
        found = None
    except Exception:  # noqa: BLE001 - e.g. FlakyFailure: student code that is not deterministic
        # A search that answers differently for the same tree cannot be shrunk reliably;
        # the greedy pass below still reduces the failing tree, judging each tree once.
        found = None
    # Hypothesis drops the last children first; a greedy pass also drops earlier ones.
    reduced = _greedy(found if found is not None else failing, disagrees, probes, deadline)
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
    """Delta-debugging on the tree itself: keep any smaller variant that still disagrees."""
    current = tree
    improved = True
    while improved and probes > 0 and time.monotonic() < deadline:
        improved = False
        for candidate in _smaller(current):
            probes -= 1
            if probes < 0 or time.monotonic() > deadline:
                break
            if disagrees(candidate):
                current, improved = candidate, True
                break
    return current


def _smaller(tree: dict):
    nodes = tree["nodes"]
    for name, node in nodes.items():
        children = node.get("children") or []
        if name != tree["root"] and children:
            yield _replace(tree, name, {"value": node.get("eval", 0) or 0})
        if len(children) > 1:
            for child in children:
                yield _without(tree, name, child)
    for name, node in nodes.items():
        if node.get("outcome"):
            yield _replace(tree, name, {k: v for k, v in node.items() if k != "outcome"})
        for key in ("value", "eval"):
            if node.get(key) not in (None, 0):
                for simpler in (0, 1, -1, int(node[key] / 2)):
                    if simpler != node[key]:
                        yield _replace(tree, name, {**node, key: simpler})


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
