"""Seeded random game trees for the random-tree check, and their YAML rendering.

``generate(seed, count, shape)`` returns ``count`` tree specs (see ``grader.games.tree``),
the same ones for the same seed and shape on every machine (``random.Random`` is
deterministic across platforms).  Trees mix small values (many ties), large magnitudes and
negative numbers; every inner node carries a heuristic value, so depth-limited searches can
run on them.  ``to_yaml(spec)`` writes a tree the way a task file does, so a counterexample
in the feedback can be pasted into a task file.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Shape:
    branching: tuple = (1, 4)          # children per inner node, inclusive range
    depth: tuple = (1, 5)              # depth of the tree (leaves may end earlier)
    values: tuple = (-10**9, 10**9)    # range of leaf and heuristic values
    ties: float = 0.3                  # share of values drawn from a small range (ties)
    leaf_share: float = 0.15           # chance that a node above the bottom is a leaf
    chains: float = 0.0                # chance that an inner node below the root has one child
    floats: bool = False


def generate(seed: int, count: int, shape: Shape = Shape()) -> list[dict]:
    rng = random.Random(seed)
    return [_tree(rng, shape) for _ in range(count)]


def _tree(rng: random.Random, shape: Shape) -> dict:
    depth = rng.randint(*shape.depth)
    nodes: dict[str, dict] = {}

    def value() -> int | float:
        low, high = shape.values
        roll = rng.random()
        if roll < shape.ties:
            number = rng.randint(max(low, -3), min(high, 3))
        elif roll < 0.6:
            number = rng.randint(max(low, -100), min(high, 100))
        else:
            number = rng.randint(int(low), int(high))
        if shape.floats:
            return number + rng.choice((0.0, 0.25, 0.5, -0.5))
        return number

    def build(name: str, level: int) -> None:
        at_bottom = level == depth
        if level > 0 and (at_bottom or rng.random() < shape.leaf_share):
            nodes[name] = {"value": value()}
            return
        count = rng.randint(*shape.branching)
        if shape.chains and level > 0 and rng.random() < shape.chains:
            count = 1
        children = [f"{name}{'.' if name[-1].isdigit() else ''}{i}" for i in range(1, count + 1)]
        nodes[name] = {"children": children, "eval": value()}
        for child in children:
            build(child, level + 1)

    build("A", 0)
    return {"kind": "tree", "root": "A", "nodes": nodes}


def size(spec: dict) -> int:
    return len(spec["nodes"])


def to_yaml(spec: dict, with_eval: bool = False) -> str:
    """``{A: {B: [8, 7, 3], C: [2, 4]}}``: flow YAML in the task file's tree notation."""
    nodes = spec["nodes"]

    def auto_named(parent: str, children: list) -> bool:
        separator = "." if parent[-1].isdigit() else ""
        return all(c == f"{parent}{separator}{i}" for i, c in enumerate(children, start=1))

    def key(name: str) -> str:
        node = nodes[name]
        if with_eval and node.get("eval") is not None:
            return f'"{name} ({node["eval"]})"'
        return name

    def body(name: str) -> str:
        node = nodes[name]
        if not node.get("children"):
            return str(node["value"])
        children = node["children"]
        if auto_named(name, children) and not (with_eval and any(
                nodes[c].get("eval") is not None and nodes[c].get("children") for c in children)):
            return "[" + ", ".join(body(c) for c in children) + "]"
        return "{" + ", ".join(f"{key(c)}: {body(c)}" for c in children) + "}"

    return "{" + f"{key(spec['root'])}: {body(spec['root'])}" + "}"
