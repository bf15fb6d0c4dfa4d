"""Pictures of a hand exercise: the tree as the sheet prints it, as the solution page fills it
in, and as the feedback draws the student's answers (their values, intervals, returned values
and cut edges, each marked right, follow-on or wrong, the first difference ringed).

The SVG is written by ``templates/hand_tree.svg.j2``; ``text_lines`` gives the same for
Markdown.  A picture is made from the verdicts of the questions the student may see: a hidden
question adds nothing to it (neither the student's answers nor their marks).
"""

from __future__ import annotations

NODE_GAP = 60
VECTOR_GAP = 84
ROW_HEIGHT = 92
MARGIN = 34
LABEL_WIDTH = 52
MARKS = ("right", "follow-on", "wrong", "missing")
SYMBOLS = {"MAX": "▲", "MIN": "▼", "CHANCE": "◯"}
SHEET_GAP = 44           # a sheet's leaves need room for their values only
SHEET_ROW = 62


def layout(drawing: dict, gap: int | None = None, row_height: int = ROW_HEIGHT) -> dict:
    """Where each node of a drawing (``grader.hand.questions.drawing``) goes: one row per
    ply labelled with its player, leaves side by side, a parent above the middle of its
    children."""
    nodes, edges, placed, depth_of = [], [], {}, {}
    gap = gap or (VECTOR_GAP if drawing.get("vector") else NODE_GAP)
    next_x = [MARGIN + LABEL_WIDTH]

    def place(name: str, depth: int) -> float:
        depth_of[name] = depth
        children = drawing["children"].get(name, [])
        y = MARGIN + depth * row_height
        if children:
            xs = [place(child, depth + 1) for child in children]
            x = (xs[0] + xs[-1]) / 2
        else:
            x = next_x[0]
            next_x[0] += gap
        player = drawing["player"].get(name)
        if not children:
            shape = "leaf"
        elif player == "CHANCE":
            shape = "chance"
        elif drawing.get("vector"):
            shape = "player"
        else:
            shape = "max" if player == drawing["player"][drawing["root"]] else "min"
        node = {"name": name, "x": x, "y": y, "shape": shape, "player": player,
                "value": drawing["leaves"].get(name, ""), "value_mark": "",
                "notes": [], "first": False}
        placed[name] = node
        nodes.append(node)
        probabilities = drawing.get("probabilities", {}).get(name) or []
        for index, child in enumerate(children):
            target = placed[child]
            edges.append({"parent": name, "child": child, "x1": x, "y1": y + 15,
                          "x2": target["x"], "y2": target["y"] - 15, "cut": "",
                          "label": probabilities[index] if probabilities else ""})
        return x

    place(drawing["root"], 0)
    depth = max(depth_of.values())
    rows = []
    for level in range(depth + 1):
        movers = [drawing["player"].get(n) for n, d in depth_of.items() if d == level
                  and n in drawing["player"]]
        rows.append({"y": MARGIN + level * row_height, "player": movers[0] if movers else ""})
    return {"nodes": nodes, "edges": edges, "rows": rows, "by_name": placed,
            "width": next_x[0] + MARGIN + 40,
            "height": MARGIN * 2 + depth * row_height + 28}


def blank(drawing: dict) -> dict:
    """The tree as a sheet prints it: leaf values only."""
    return _public(layout(drawing, None if drawing.get("vector") else SHEET_GAP, SHEET_ROW))


def solution(answer: dict, drawing: dict, labels: dict) -> dict:
    """The tree filled in with the reference's answers (the instructor's solution page):
    values, intervals and returned values at the inner nodes, the cut edges."""
    from ..hand.notation import show, show_interval
    picture = layout(drawing)
    run = answer.get("alphabeta")
    for name, node in picture["by_name"].items():
        if node["shape"] == "leaf":
            continue
        node["value"] = show(answer["values"][name])
        if run is not None:
            if name in run["intervals"]:
                node["notes"].append({"text": show_interval(run["intervals"][name]), "mark": ""})
                node["notes"].append({"text": f"{labels['returns']} {show(run['returns'][name])}",
                                      "mark": ""})
            else:
                node["notes"].append({"text": labels["pruned"], "mark": ""})
    if run is not None:
        cut = {child for _, child in run["cut_edges"]}
        for edge in picture["edges"]:
            if edge["child"] in cut:
                edge["cut"] = "right"
    return _public(picture)


def feedback(verdicts: list, labels: dict) -> dict | None:
    """The student's tree from the verdicts of the questions they may see, or None when
    there is nothing to show (no picture, or every shown question right)."""
    shown = [v for v in verdicts if v.facts.get("drawing") and not v.facts.get("unusable")]
    if not shown or all(v.passed and not v.facts.get("follow_on") for v in shown):
        return None
    picture = layout(shown[0].facts["drawing"])
    by_name = picture["by_name"]
    wrong_nodes = set()
    for verdict in shown:
        question = verdict.facts["question"]
        for field in verdict.facts["fields"]:
            node = by_name.get(field["node"])
            mark = field["mark"]
            if question == "cuts":
                child = field["node"].split("→")[-1]
                for edge in picture["edges"]:
                    if edge["child"] == child:
                        edge["cut"] = {"right": "right", "follow-on": "follow-on",
                                       "wrong": "missing", "missing": "missing"}[mark]
                if mark == "wrong":
                    wrong_nodes.add(field["node"].split("→")[0])
                continue
            if node is None:
                continue
            if mark == "wrong":
                wrong_nodes.add(field["node"])
            given = field["given"] if field["given"] is not None else "?"
            if question == "values":
                node["value"], node["value_mark"] = given, mark
            elif question == "intervals":
                node["notes"].insert(0, {"text": given, "mark": mark, "expected": field["expected"]})
            elif question == "returns":
                node["notes"].append({"text": f"{labels['returns']} {given}", "mark": mark,
                                      "expected": field["expected"]})
            elif question == "orders":
                node["notes"].append({"text": f"{labels['order']} {given}", "mark": mark,
                                      "expected": field["expected"]})
            elif question == "move":
                node["notes"].append({"text": f"{labels['move']} {given}", "mark": mark,
                                      "expected": field["expected"]})
        for extra in verdict.facts.get("extras", ()):
            parent, child = extra["edge"].split("→")
            for edge in picture["edges"]:
                if edge["child"] == child and extra["mark"] != "below":
                    edge["cut"] = "wrong" if extra["mark"] == "wrong" else "follow-on"
            if extra["mark"] == "wrong":
                wrong_nodes.add(parent)
    first = next((name for name in _preorder(shown[0].facts["drawing"])
                  if name in wrong_nodes), None)
    if first is not None:
        by_name[first]["first"] = True
    picture["first"] = first
    return _public(picture)


def _preorder(drawing: dict) -> list:
    order, stack = [], [drawing["root"]]
    while stack:
        name = stack.pop()
        order.append(name)
        stack += reversed(drawing["children"].get(name, []))
    return order


def _public(picture: dict) -> dict:
    return {key: value for key, value in picture.items() if key != "by_name"}


def text_lines(picture: dict, drawing: dict) -> list[str]:
    """The picture as indented text (Markdown): each node with the student's answers and
    their marks (✓ right, ↷ follow-on, ✗ wrong, ? missing), cut edges as ✂."""
    symbols = {"right": "✓", "follow-on": "↷", "wrong": "✗", "missing": "?", "": ""}
    nodes = {node["name"]: node for node in picture["nodes"]}
    cuts = {edge["child"]: edge["cut"] for edge in picture["edges"]}
    lines = []

    def walk(name, prefix, last, depth):
        node = nodes[name]
        branch = "" if depth == 0 else ("└─ " if last else "├─ ")
        cut = cuts.get(name)
        edge = f"✂{symbols.get(cut, '')} " if cut else ""
        symbol = "■" if node["shape"] == "leaf" else SYMBOLS.get(node["player"], "◆")
        value = f"{node['value']}{symbols[node['value_mark']]}" if node["value"] else ""
        notes = " ".join(f"{n['text']}{symbols[n['mark']]}" for n in node["notes"])
        ring = " ◯" if node["first"] else ""
        lines.append(f"{prefix}{branch}{edge}{name} {symbol} {value} {notes}".rstrip() + ring)
        children = drawing["children"].get(name, [])
        extension = "" if depth == 0 else ("   " if last else "│  ")
        for index, child in enumerate(children):
            walk(child, prefix + extension, index == len(children) - 1, depth + 1)

    walk(drawing["root"], "", True, 0)
    return lines


def labels_of(catalogue) -> dict:
    """The picture's words in the page's language."""
    return {key: catalogue.text(f"hand.picture_{key}") for key in (
        "returns", "pruned", "order", "move", "right", "follow-on", "wrong", "missing",
        "first", "cut", "title")}


def task_picture(hand: list, catalogue) -> dict | None:
    """The picture a page shows above a hand task's table, or None: of the verdicts ``hand``
    (the hand checks' that the page may show: ``views.hidden_now`` decides)."""
    labels = labels_of(catalogue)
    foreign = next((v.facts for v in hand if v.facts.get("variant_given")), None)
    note = catalogue.text("hand.foreign", given=foreign["variant_given"],
                          variant=foreign["variant"]) if foreign else None
    picture = feedback(hand, labels)
    if picture is None:
        return {"tree": None, "labels": labels, "text": [], "note": note} if note else None
    drawing = next(v.facts["drawing"] for v in hand if v.facts.get("drawing"))
    return {"tree": picture, "labels": labels, "text": text_lines(picture, drawing),
            "note": note}
