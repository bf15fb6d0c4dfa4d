"""The reference answer of a by-hand call: the model answers of every question a hand
exercise can ask on the call's tree (``reference.hand.hand_solution``), computed once per
tree like every reference answer (and kept in the answer cache)."""

from __future__ import annotations

from .variants import code_of


def answer_hand(item: dict, prune_on_equality: bool = True) -> dict:
    """The hand solution of ``item``'s tree, as plain data (``±inf`` in intervals), with the
    tree's variant code and the answer file's name."""
    from reference.hand import hand_solution

    from ..answers.bounded import make_game
    spec = item["tree"]
    game, root = make_game(spec)
    solution = hand_solution(game, root, prune_on_equality=prune_on_equality,
                             kind=item["values"], alphabeta=item["alphabeta"],
                             order_nodes=item["orders"], ties=spec.get("ties", "first"),
                             alliances=spec.get("alliances"),
                             paranoid=bool(spec.get("paranoid")),
                             vector=bool(spec.get("vector")))
    return {**solution, "variant": item.get("variant") or code_of(spec),
            "answers": item["answers"], "task": item["task"]}
