"""The task-file side of hand exercises: a task's ``answers:`` and ``variants:``, the options
of the hand check kinds, and the one call that stands for a task's answer file in the plan.

A hand task is a tree task with the name of the answer file and hand checks::

    - id: aufgabe1
      game: tree
      tree: {A: {B: [8, 7, 3], C: {E: [9, 1, 6], F: [2, 1, 1], G: [6, 5, 2]}, D: [2, 1, 3]}}
      answers: aufgabe1            # aufgabe1.yaml (or .yml, .json) in the submission
      functions: [minimax, alphabeta]
      checks:
        - {kind: hand-values, points: 7}                 # nodes: inner | all | [A, C]
        - {kind: hand-intervals, points: 6}
        - {kind: hand-returns, points: 6}
        - {kind: hand-cuts, points: 3}
        - {kind: hand-visited, points: 1}
        - {kind: hand-order, nodes: [C], points: 2}
        - {kind: hand-move, points: 1}
      variants:                    # optional: one tree per student, same shape
        seed: 2026
        values: [0, 9]             # leaf values drawn from this range (whole numbers)
        cuts: 2                    # at least 2 cut edges ([2, 4]: from 2 to 4)
        deep_cut: true             # a cut at a node two or more levels below the root
        root_ties: false           # no two children of the root with the same value

Problems are reported through the task reader (``file:line``), like every task-file error.
"""

from __future__ import annotations

import json
import re

from ..calls import Call, canonical
from . import BY_HAND

KIND_PREFIX = "hand-"
# Which student function (by its model solution) each question belongs to.
VALUE_SEARCHES = ("minimax", "expectimax", "maxn")
ALPHABETA_QUESTIONS = ("hand-intervals", "hand-returns", "hand-cuts", "hand-visited",
                       "hand-order")
VARIANT_KEYS = ("seed", "values", "cuts", "deep_cut", "root_ties", "visited")
STEM = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MAX_HAND_NODES = 200      # a hand exercise is a tree drawn on a sheet


def module_of(answers: str) -> str:
    """What stands for a hand task's functions where code tasks name their module: the answer
    file's name as a Python name (staging looks for no such module; nothing is imported)."""
    stem = re.sub(r"\.(ya?ml|json)$", "", answers.strip(), flags=re.IGNORECASE)
    name = re.sub(r"\W", "_", stem)
    return name if name.isidentifier() else f"answers_{name}"


def read_task(reader, raw, game: str, game_spec: str | None, depth) -> tuple:
    """``(answers, variants)`` of a task: the answer file's name without suffix (None for a
    task without one) and the canonical JSON of its ``variants:`` (None)."""
    if "answers" not in raw:
        if "variants" in raw:
            reader.problem(raw.line_of("variants"), "variants: draws one tree per student for "
                           "a hand exercise; give the task its answer file (answers: "
                           "aufgabe1)")
        return None, None
    line = raw.line_of("answers")
    answers = raw["answers"]
    if isinstance(answers, str):
        answers = re.sub(r"\.(ya?ml|json)$", "", answers.strip(), flags=re.IGNORECASE)
    if not isinstance(answers, str) or not STEM.match(answers):
        reader.problem(line, "answers: names the answer file a student hands in, without "
                       "folders, e.g. answers: aufgabe1 (for aufgabe1.yaml)")
        return None, None
    if game != "tree":
        reader.problem(line, "a hand exercise is asked on a tree (game: tree)")
        return None, None
    if depth is not None:
        reader.problem(raw.line_of("depth"), "a hand exercise runs the search to the leaves; "
                       "leave out depth")
        return None, None
    if game_spec is None:
        return answers, None
    spec = json.loads(game_spec)
    if len(spec["nodes"]) > MAX_HAND_NODES:
        reader.problem(raw.line_of("tree"), f"a hand exercise's tree has at most "
                       f"{MAX_HAND_NODES} nodes; this one has {len(spec['nodes'])}")
        return None, None
    variants = read_variants(reader, raw, spec) if "variants" in raw else None
    return answers, variants


def read_variants(reader, raw, spec: dict) -> str | None:
    """The task's ``variants:`` as canonical JSON, with its defaults filled in; refused when
    no tree of 20 drawn for sample students meets the constraints."""
    options = raw["variants"]
    line = raw.line_of("variants")
    if not hasattr(options, "line_of"):
        reader.problem(line, "variants: is a mapping, e.g. {seed: 2026, cuts: 2, deep_cut: "
                       "true, root_ties: false}")
        return None
    for key in options:
        if key not in VARIANT_KEYS:
            reader.problem(options.line_of(key), f"unknown key {key!r} in variants; known: "
                           f"{', '.join(VARIANT_KEYS)}")
            return None
    seed = options.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        reader.problem(options.line_of("seed") if "seed" in options else line,
                       "variants need a seed, a whole number (seed: 2026): the same seed and "
                       "student give the same tree every time")
        return None
    if spec.get("vector") or any(p == "CHANCE" for p in spec.get("players") or ()):
        reader.problem(line, "variants are drawn for two-player trees with numbers at the "
                       "leaves")
        return None
    leaves = [node["value"] for node in spec["nodes"].values() if "value" in node]
    result = {"seed": seed, "values": [min(leaves), max(leaves)], "cuts": [0, None],
              "deep_cut": False, "root_ties": True, "visited": [0, None]}
    for key in ("values", "cuts", "visited"):
        if key not in options:
            continue
        value = options[key]
        if isinstance(value, int) and not isinstance(value, bool) and key != "values":
            value = [value, None]
        if (not isinstance(value, list) or len(value) != 2
                or any(isinstance(v, bool) or not isinstance(v, int) for v in value[:1])
                or not (value[1] is None or isinstance(value[1], int))
                or (value[1] is not None and value[1] < value[0])):
            reader.problem(options.line_of(key), f"{key} is a whole number (at least) or a "
                           f"range [low, high] of whole numbers, e.g. {key}: "
                           f"{'[0, 9]' if key == 'values' else '2'}")
            return None
        result[key] = list(value)
    if result["values"][1] is None or result["values"][1] - result["values"][0] < 1:
        reader.problem(options.line_of("values") if "values" in options else line,
                       "values is a range [low, high] of leaf values with low < high")
        return None
    for key in ("deep_cut", "root_ties"):
        if key in options:
            if not isinstance(options[key], bool):
                reader.problem(options.line_of(key), f"{key} must be true or false")
                return None
            result[key] = options[key]
    from .variants import draw, VariantsUnmet
    try:
        for sample in ("a", "b", "c", "d", "e"):
            draw(spec, result, "", sample)
    except VariantsUnmet as error:
        reader.problem(line, f"no tree of this shape meets the variants' constraints "
                       f"({error}) in {error.tries:,} draws; loosen them (fewer cuts, no "
                       "deep_cut, a wider range of values)")
        return None
    return canonical(result)


def node_option(item, context, line, default, kind: str, inner: bool = True):
    """A hand check's ``nodes``: ``inner`` (every inner node), ``all``, or a list of the
    tree's nodes (inner ones where ``inner``)."""
    nodes = item.get("nodes", default)
    spec = json.loads(context.game_spec) if context.game_spec else None
    if nodes in ("inner", "all", "visited") and default is not None:
        return nodes
    if not isinstance(nodes, list) or not nodes or not all(isinstance(n, str) for n in nodes):
        context.problem(item.line_of("nodes") if "nodes" in item else line,
                        f"nodes of a {kind} check is inner, all or a list of the tree's "
                        "nodes, e.g. nodes: [C, D]" if default is not None else
                        f"a {kind} check names its nodes, e.g. nodes: [C]")
        return None
    if spec is not None:
        for name in nodes:
            node = spec["nodes"].get(name)
            if node is None:
                context.problem(item.line_of("nodes"), f"{name!r} is not a node of the tree")
                return None
            if inner and not node.get("children"):
                context.problem(item.line_of("nodes"), f"{name!r} is a leaf; name inner nodes")
                return None
    return list(dict.fromkeys(nodes))


def common_problems(item, context, line, kind: str) -> None:
    """What every hand check needs: a tree it can ask about (that the task names its answer
    file is checked once its checks are read, ``grader.tasks``)."""
    if kind in ALPHABETA_QUESTIONS and context.game_spec is not None:
        spec = json.loads(context.game_spec)
        if any(p == "CHANCE" for p in spec.get("players") or ()):
            context.problem(line, f"the lecture's alpha-beta has no chance nodes: a {kind} "
                            "check cannot be asked on this tree (ask hand-values: expectimax)")
        elif spec.get("vector") and not spec.get("paranoid"):
            context.problem(line, f"alpha-beta on an n-player tree needs paranoid: (the root "
                            f"player against all others): a {kind} check cannot be asked")


def task_call(task) -> Call:
    """The call that stands for the task's answer file: read in the parent, answered by the
    reference's hand solution (``reference/hand.py``).  The same call for every hand check
    of the task, so the file is read once."""
    kinds = {check.kind for check in task.checks}
    spec = json.loads(task.game_spec)
    valuing = next((check.function for check in task.checks if check.kind == "hand-values"),
                   None)
    if valuing is not None:
        value_kind = task.reference_of(valuing)
    elif spec.get("vector") and not spec.get("paranoid"):
        value_kind = "maxn"
    elif any(p == "CHANCE" for p in spec.get("players") or ()):
        value_kind = "expectimax"
    else:
        value_kind = "minimax"
    orders = sorted({node for check in task.checks if check.kind == "hand-order"
                     for node in check.option("nodes") or ()})
    item = {"task": task.id, "tree": spec, "answers": task.answers,
            "values": value_kind if value_kind in VALUE_SEARCHES else "minimax",
            "alphabeta": bool(kinds & set(ALPHABETA_QUESTIONS)), "orders": orders,
            "variants": json.loads(task.variants) if task.variants else None}
    return Call(module=task.answers, function="hand", convention=BY_HAND,
                items=(canonical(item),), time_limit=task.limits.call_seconds,
                prune_on_equality=task.prune_on_equality, reference="hand")


def calls(task, check) -> list:
    return [task_call(task)]
