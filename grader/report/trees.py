"""Pictures of a search: the game tree in textbook notation, or a visit-sequence table.

``tree_layout`` places the nodes of a tree (MAX ▲, MIN ▼, chance ○, leaves as boxes), one row
per ply labelled with the player who moves there, and marks every node by who visited it:
both the student and the reference, only the student (the reference prunes it), only the
reference (the student pruned it), or neither (cut by both); edges into nodes the reference
never visits are drawn struck through.  The SVG itself is written by ``templates/tree.svg.j2``;
``text_tree`` gives the same marks as indented text for Markdown.

n-player trees (``spec["vector"]``) draw their players' nodes as diamonds ◆ with the node's
utility vector beside it, leaves as boxes wide enough for their vector, and wider gaps; the
edges of chance nodes with given probabilities (``p=``) carry them as labels.  Searches of more than
``MAX_DRAWN`` nodes get ``sequence_rows`` instead: the two visit sequences side by side up to
the first divergence.
"""

from __future__ import annotations

MAX_DRAWN = 60
NODE_GAP = 46
VECTOR_NODE_GAP = 64      # n-player trees: room for "(1, 2, 6)" under each leaf
ROW_HEIGHT = 78
MARGIN = 30
LABEL_WIDTH = 58


def _children(spec: dict, name: str) -> list[str]:
    return spec["nodes"][name].get("children") or []


def _labels(spec: dict, name: str) -> list[str]:
    node = spec["nodes"][name]
    return node.get("actions") or node.get("children") or []


def _probabilities(spec: dict, name: str) -> list:
    return spec["nodes"][name].get("probabilities") or []


def _shape(spec: dict, player: str) -> str:
    if player == "CHANCE":
        return "chance"
    if spec.get("vector"):
        return "player"
    return "max" if player == "MAX" else "min"


def drawable(spec: dict | None) -> bool:
    return bool(spec) and spec.get("kind") == "tree" and len(spec["nodes"]) <= MAX_DRAWN


def visit_state(name: str, expected: set, observed: set) -> str:
    if name in expected and name in observed:
        return "both"
    if name in observed:
        return "extra"
    if name in expected:
        return "missing"
    return "neither"


def tree_layout(spec: dict, values: dict, expected: list, observed: list,
                first: dict | None = None) -> dict:
    expected_set, observed_set = set(expected), set(observed)
    players = spec.get("players") or ["MAX", "MIN"]
    first_nodes = {first.get("expected"), first.get("observed")} - {None} if first else set()
    nodes, edges, depth_of, placed = [], [], {}, {}
    next_leaf_x = [MARGIN + LABEL_WIDTH]
    gap = VECTOR_NODE_GAP if spec.get("vector") else NODE_GAP

    def place(name: str, depth: int) -> float:
        depth_of[name] = depth
        children = _children(spec, name)
        y = MARGIN + depth * ROW_HEIGHT
        if children:
            xs = [place(child, depth + 1) for child in children]
            x = (xs[0] + xs[-1]) / 2
        else:
            x = next_leaf_x[0]
            next_leaf_x[0] += gap
        player = players[depth % len(players)]
        shape = "leaf" if not children else _shape(spec, player)
        value = _short(values.get(name))
        placed[name] = {"name": name, "x": x, "y": y, "shape": shape,
                        "value": value, "box": max(28, 6 * len(value) + 8),
                        "state": visit_state(name, expected_set, observed_set),
                        "first": name in first_nodes}
        nodes.append(placed[name])
        probabilities = _probabilities(spec, name)
        for index, (child, label) in enumerate(zip(children, _labels(spec, name))):
            child_node = placed[child]
            label = label if label != child else ""
            if probabilities:
                label = " ".join(filter(None, [label, _short(probabilities[index])]))
            edges.append({"x1": x, "y1": y + 14, "x2": child_node["x"], "y2": child_node["y"] - 14,
                          "label": label,
                          "cut": child not in expected_set,
                          "taken": child in observed_set})
        return x

    place(spec["root"], 0)
    depth = max(depth_of.values())
    rows = [{"y": MARGIN + d * ROW_HEIGHT, "player": players[d % len(players)]}
            for d in range(depth + 1)]
    return {"nodes": nodes, "edges": edges, "rows": rows,
            "width": next_leaf_x[0] + MARGIN, "height": MARGIN * 2 + depth * ROW_HEIGHT + 24}


def text_tree(spec: dict, values: dict, expected: list, observed: list) -> list[str]:
    """The tree as indented lines with the same marks, for Markdown."""
    expected_set, observed_set = set(expected), set(observed)
    players = spec.get("players") or ["MAX", "MIN"]
    marks = {"both": "✓", "extra": "✗", "missing": "○", "neither": "✂"}
    symbols = {"MAX": "▲", "MIN": "▼", "CHANCE": "◯"}
    lines = []

    def walk(name: str, depth: int, prefix: str, last: bool, label: str) -> None:
        children = _children(spec, name)
        player = players[depth % len(players)]
        if not children:
            symbol = "■"
        elif spec.get("vector") and player != "CHANCE":
            symbol = f"◆{player}"
        else:
            symbol = symbols.get(player, "▼")
        state = visit_state(name, expected_set, observed_set)
        branch = "" if depth == 0 else ("└─ " if last else "├─ ")
        edge = f"{label} → " if label and label != name else ""
        lines.append(f"{prefix}{branch}{edge}{name} {symbol} {_short(values.get(name))} "
                     f"{marks[state]}")
        extension = "" if depth == 0 else ("   " if last else "│  ")
        probabilities = _probabilities(spec, name)
        for index, (child, child_label) in enumerate(zip(children, _labels(spec, name))):
            if probabilities:
                child_label = " ".join(filter(None, [child_label if child_label != child
                                                     else "", f"p={_short(probabilities[index])}"]))
            walk(child, depth + 1, prefix + extension, index == len(children) - 1, child_label)

    walk(spec["root"], 0, "", True, "")
    return lines


def sequence_rows(expected: list, observed: list, context: int = 3,
                  offset: int = 0) -> list[dict]:
    """Both visit sequences side by side, up to a few rows past the first divergence
    (``offset``: how many visits before the given ones were left out)."""
    first = next((i for i, (a, b) in enumerate(zip(expected, observed)) if a != b),
                 min(len(expected), len(observed)))
    end = min(max(len(expected), len(observed)), first + context + 1)
    start = max(0, first - 2 * context)
    rows = []
    for index in range(start, end):
        want = expected[index] if index < len(expected) else None
        got = observed[index] if index < len(observed) else None
        rows.append({"index": offset + index + 1, "expected": want, "observed": got,
                     "differs": want != got})
    return rows


def _short(value) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):   # a utility vector of an n-player tree
        return "(" + ", ".join(_short(v) for v in value) + ")"
    if isinstance(value, float):
        return f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"
    if isinstance(value, int) and abs(value) >= 10**6:
        return f"{value:.3g}"
    return str(value)
