"""What the hand check kinds (``grader/checks/hand_*.py``) share: one module per kind keeps
its name, options and the functions it applies to; the reading of its options, its call and
its judge are the same for all of them and live here."""

from __future__ import annotations

from . import questions, taskfile

# Hand exercises are answered by the answers themselves: a self-check kit would hand them out.
JUDGED_WITH_REFERENCE = True


def nodes_option(default_nodes=None) -> dict:
    """The ``nodes`` option of a hand check kind, as its ``OPTIONS`` declare it (JSON Schema):
    ``inner``, ``all`` or ``visited`` where the kind has a default, or a list of nodes."""
    listed = {"type": "array", "minItems": 1, "items": {"type": "string"}}
    if default_nodes is None:
        return {**listed, "x-required": True, "description": "the nodes asked about, e.g. [C, D]"}
    return {"anyOf": [{"enum": ["inner", "all", "visited"]}, listed], "default": default_nodes,
            "description": "the nodes asked about: inner (every inner node), all, visited, "
                           "or a list such as [C, D]"}


def make(kind: str, question: str, functions: tuple, default_nodes=None,
         needs_nodes: bool = False):
    """The module-level functions of a hand check kind: ``applies_to``, ``parse_options``,
    ``calls`` and ``judge``."""

    def applies_to(function):
        return function in functions

    def parse_options(item, context, line):
        taskfile.common_problems(item, context, line, kind)
        if needs_nodes or "nodes" in item:
            nodes = taskfile.node_option(item, context, line,
                                         None if needs_nodes else default_nodes, kind,
                                         inner=needs_nodes)
            return {"nodes": nodes} if nodes is not None else {}
        return {}

    def judge(check, observations, answers):
        return questions.judge(question, check, observations[0], answers[0][0])

    return applies_to, parse_options, taskfile.calls, judge
