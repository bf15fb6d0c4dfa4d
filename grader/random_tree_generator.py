"""The generator of seeded random game trees, and their YAML rendering; the check that
searches them is ``grader/checks/random_trees.py`` (kind ``random-trees``).

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
from functools import lru_cache
from pathlib import Path


@dataclass(frozen=True)
class Shape:
    branching: tuple = (1, 4)          # children per inner node, inclusive range
    depth: tuple = (1, 5)              # depth of the tree (leaves may end earlier)
    values: tuple = (-10**9, 10**9)    # range of leaf and heuristic values
    ties: float = 0.3                  # share of values drawn from a small range (ties)
    leaf_share: float = 0.15           # chance that a node above the bottom is a leaf
    chains: float = 0.0                # chance that an inner node below the root has one child
    floats: bool = False
    # Multi-agent trees (agent 0 MAX, agents 1..k MIN): ``agents`` is the range of k, drawn per
    # tree; ``depth`` then counts rounds of all agents, leaves are win or lose states (half
    # of them lose), and ``max_nodes`` keeps deep rounds of several agents small enough to run.
    agents: tuple | None = None
    max_nodes: int = 400


def generate(seed: int, count: int, shape: Shape = Shape()) -> list[dict]:
    """The trees of one seed (a new list each time; the trees are made once per process and
    must not be changed by callers)."""
    return list(_trees(seed, count, shape))


def generated_texts(seed: int, count: int, shape: Shape = Shape()) -> tuple:
    """The canonical JSON texts (``grader.calls.canonical``) of ``generate``'s trees: what a
    call sends of them, kept with the trees (encoding a course's 300 trees again was half of
    planning a warm self-check)."""
    return _generated(seed, count, shape)[1]


def _trees(seed: int, count: int, shape: Shape) -> tuple:
    return _generated(seed, count, shape)[0]


@lru_cache(maxsize=64)
def _generated(seed: int, count: int, shape: Shape) -> tuple:
    """``(trees, their canonical texts)``, made once per process."""
    path, kept = _kept_trees(seed, count, shape)
    if kept is not None:
        return kept
    from .calls import canonical
    rng = random.Random(seed)
    trees = tuple(_tree(rng, shape) for _ in range(count))
    texts = tuple(canonical(tree) for tree in trees)
    if path is not None:
        _keep_trees(path, trees, texts)
    return trees, texts


# -- the trees kept in the cache folder beside the answers (grader/cache.py) -----------
# Drawing a course's trees again on every run took longer than reading the answers computed
# on them (the bundled course's 300 trees: about a quarter of a warm self-check's planning).
# A file is found by the digest of the seed, count and shape, this module's source and the
# Python version, so that a change to how trees are drawn never finds an old file.

TREES_FORM = "gametree-grader random trees 2"
KEEP_TREE_FILES = 64


def _kept_trees(seed: int, count: int, shape: Shape) -> tuple:
    """``(path, trees)``: where the trees of ``(seed, count, shape)`` are kept (None where
    the cache is off or not ours) and the trees kept there (None where there are none)."""
    from . import cache as store
    folder = store.private_folder("random-trees")
    if folder is None:
        return None, None
    import hashlib
    import json
    import sys
    try:
        source = Path(__file__).read_bytes()
    except OSError:
        return None, None
    key = hashlib.sha256(json.dumps([TREES_FORM, seed, count, repr(shape),
                                     sys.version]).encode() + source).hexdigest()
    path = folder / f"trees-{key}.json"
    kept = store.kept_json(path, TREES_FORM)
    if kept is None or kept.get("key") != key:
        return path, None
    trees, texts = kept.get("trees"), kept.get("texts")
    if type(trees) is not list or len(trees) != count or not all(
            type(tree) is dict and type(tree.get("nodes")) is dict for tree in trees):
        return path, None
    if type(texts) is not list or len(texts) != count or not all(
            type(text) is str for text in texts):
        return path, None
    return path, (tuple(trees), tuple(texts))


def _keep_trees(path: Path, trees: tuple, texts: tuple) -> None:
    from . import cache as store
    import json
    key = path.name[len("trees-"):-len(".json")]
    try:
        content = json.dumps({"format": TREES_FORM, "key": key, "trees": list(trees),
                              "texts": list(texts)},
                             allow_nan=False, separators=(",", ":")).encode()
    except ValueError:
        return
    if store.keep(path, content):
        store.prune(path.parent, "trees-*.json", KEEP_TREE_FILES)


def horizons(seed: int, count: int, search_depth) -> list:
    """The depth limit of each of ``count`` trees: ``search_depth`` itself when it is a number,
    one drawn per tree from ``[low, high]`` when it is a range (so that horizons of both
    parities meet the same search), ``None`` for each tree when there is none.  Drawn from a
    generator of their own, so adding a range never changes the trees of a seed."""
    if search_depth is None or isinstance(search_depth, int):
        return [search_depth] * count
    rng = random.Random(f"horizons:{seed}")
    return [rng.randint(*search_depth) for _ in range(count)]


def rounds_to_leaves(spec: dict) -> int:
    """The number of rounds of all agents a multi-agent search needs to reach every leaf."""
    agents = len(spec.get("players") or ("MAX", "MIN"))
    deepest, stack = 0, [(spec["root"], 0)]
    while stack:
        name, level = stack.pop()
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in spec["nodes"][name].get("children", ()))
    return max(1, -(-deepest // agents))


def _tree(rng: random.Random, shape: Shape) -> dict:
    players = None
    if shape.agents is not None:
        players = ["MAX"] + ["MIN"] * rng.randint(*shape.agents)
    depth = rng.randint(*shape.depth) * (len(players) if players else 1)
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
        at_bottom = level == depth or (players is not None and len(nodes) >= shape.max_nodes)
        if level > 0 and (at_bottom or rng.random() < shape.leaf_share):
            nodes[name] = {"value": value()}
            if players is not None and rng.random() < 0.5:
                nodes[name]["outcome"] = "lose"
            return
        count = rng.randint(*shape.branching)
        if shape.chains and level > 0 and rng.random() < shape.chains:
            count = 1
        children = [f"{name}{'.' if name[-1].isdigit() else ''}{i}" for i in range(1, count + 1)]
        nodes[name] = {"children": children, "eval": value()}
        for child in children:
            build(child, level + 1)

    build("A", 0)
    if players is not None:
        return {"kind": "tree", "root": "A", "players": players, "nodes": nodes}
    return {"kind": "tree", "root": "A", "nodes": nodes}


def size(spec: dict) -> int:
    return len(spec["nodes"])


def to_pacman(spec: dict, depth: int) -> str:
    """A tree as the Pacman project's tree tests write it (``grader import-trees`` reads
    them back): agents, depth in rounds, start, win and lose states, ``state action next``
    successor lines and ``state value`` evaluation lines; ``;`` stands for a line break."""
    nodes = spec["nodes"]
    agents = len(spec.get("players") or ("MAX", "MIN"))
    level, stack = {spec["root"]: 0}, [spec["root"]]
    while stack:
        name = stack.pop()
        for child in nodes[name].get("children") or []:
            level[child] = level[name] + 1
            stack.append(child)
    successors, evaluation, win, lose = [], [], [], []
    for name, node in nodes.items():
        labels = node.get("actions") or node.get("children") or []
        successors.extend(f"{name} {label} {child}"
                          for label, child in zip(labels, node.get("children") or []))
        if not node.get("children"):
            evaluation.append(f"{name} {node['value']}")
            (lose if node.get("outcome") == "lose" else win).append(name)
        elif level[name] == depth * agents:  # only the horizon's inner states are evaluated
            evaluation.append(f"{name} {node.get('eval') or 0}")
    return (f'num_agents: "{agents}"; depth: "{depth}"; start_state: "{spec["root"]}"; '
            f'win_states: "{" ".join(win)}"; lose_states: "{" ".join(lose)}"; '
            f'successors: "{", ".join(successors)}"; evaluation: "{", ".join(evaluation)}"')


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
