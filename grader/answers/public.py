"""The facts of a search call's answers that follow from its inputs alone, without the model
solutions: what a self-check kit computes when it checks instead of storing them."""

from __future__ import annotations

import functools

from ..calls import Call
from ..games import make_rules
from .compute import decoded_input
from .facts import (adapt_public, explicit_tree, explicit_tree_facts, reference_depth,
                    search_options, tree_facts)
from .proof import PROVEN_SEARCHES


def public_facts(call: Call) -> list[dict]:
    """Per input of a search call, the facts its answer holds that follow from the input
    alone, without the model solutions: the tree's shape within the call's depth (``root``,
    ``siblings``, ``horizon``, ``terminals``; ``extension`` and ``noisy`` for quiescence;
    ``children`` for the principal variation), the values the game gives there (``values``,
    terminal and horizon nodes only), the root's actions (``action_values``, their values
    left out), what the convention's functions return, and for the searches after alpha-beta
    the positions' facts (``grader.answers.proof.position_facts``); iterative deepening's per depth.

    ``answer_call``'s answers hold the same facts (``tests/test_kit.py`` compares them), so a
    self-check kit computes these when it checks instead of storing them: the kit's files
    name no node of the tree at all.  A plain call's inputs have no such facts."""
    from .sealed import WITHHELD
    if call.convention == "plain":
        return [{} for _ in call.items]
    if call.convention == "ordering":
        raise ValueError("a move ordering's answers are judged with the reference: no kit "
                         "holds them")
    facts = []
    # one decoding of each input, shared with the calls of the same trees (read only)
    for text, spec in zip(call.items, map(decoded_input, call.items)):
        depth = reference_depth(call, spec)
        if call.reference in ("iterative_deepening", "principal_variation"):
            from .deepening import deepening_public_facts
            facts.append({**deepening_public_facts(call.reference, spec, depth)})
            continue
        extension = search_options("quiescence", spec)["extension"] \
            if call.reference == "quiescence" else None
        # a copy: the shape itself is shared by the calls on the same game (minimax,
        # alpha-beta and negamax on one task's tree, or on a random-tree check's trees, walk
        # it once)
        shape, actions = _shape(text, depth, call.reference == "expectimax", extension)
        shape = dict(shape)
        if call.reference == "maxn":
            rules = make_rules(spec)
            # a leaf's value is its utility vector (tree nodes are their own states)
            shape = {**shape, "values": {node: list(rules.utilities(node))
                                         for node in shape["terminals"]},
                     "chance": "CHANCE" in (spec.get("players") or ())}
        if call.reference in PROVEN_SEARCHES:
            from .proof import position_facts
            shape.update(position_facts(spec, depth))
        shape["action_values"] = [[a, WITHHELD] for a in actions]
        facts.append(adapt_public(shape, call.convention, spec))
    return facts


@functools.lru_cache(maxsize=4096)
def _shape(spec_text: str, depth, chance: bool, extension) -> tuple[dict, list]:
    """``tree_facts`` without the inner values, and the root's actions, of a game spec's
    canonical text."""
    spec = decoded_input(spec_text)
    if not chance and extension is None and explicit_tree(spec):
        # walked on its nodes (a random-tree check's trees): the same facts, and the root's
        # actions are its labels or children
        root = spec["nodes"][spec["root"]]
        actions = list(root.get("actions") or root["children"]) if root.get("children") else []
        return explicit_tree_facts(spec, depth, inner=False)[0], actions
    rules = make_rules(spec)
    start = rules.initial_state()
    actions = [] if rules.is_terminal(start) else list(rules.actions(start))
    return (tree_facts(spec, depth, chance=chance, inner=False, extension=extension,
                       rules=rules), actions)
