"""Reference answers of the searches: per input the root's ``value`` (the root player's view),
the first optimal ``action``, every root action with its exact value (``action_values``) and
the ``optimal_actions`` among them, the nodes visited in order (``visits``) and where
``utility`` and ``evaluate`` were asked; max^n's vectors, quiescence's extended horizon, and
a move ordering's replies (``ordering_answers``)."""

from __future__ import annotations

import inspect
from functools import lru_cache

from ..games import make_rules
from .bounded import make_game
from .facts import (adapt, explicit_tree, explicit_tree_facts, facts_and_action_values,
                    search_options, tree_facts)
from .numbers import same_number
from .proof import PROVEN_SEARCHES, search_facts


def answer_maxn(spec: dict, depth) -> dict:
    """max^n's answer: the root's vector and action, every node's vector (``values``), each
    root action with its child's vector, and as ``optimal_actions`` those whose vector is as
    good for the root player (its component, or its coalition's sum) as the chosen one."""
    from reference.minimax import maxn
    options = search_options("maxn", spec)
    game, root = make_game(spec)
    value, action = maxn(game, root, depth, **options)
    log = game.visit_log()
    facts = tree_facts(spec, depth)
    walker, _ = make_game(spec)
    values = {}
    for name in [facts["root"], *facts["siblings"]]:
        values[name] = maxn(make_game(spec)[0], name, None, **options)[0]
    children = [node for node, (parent, _) in sorted(facts["siblings"].items(),
                                                     key=lambda item: item[1][1])
                if parent == facts["root"]]
    actions = make_rules(spec).actions(make_rules(spec).initial_state())
    player = walker.to_move(root)
    team = dict((m, g) for g in options["alliances"] or () for m in g).get(player, [player])
    players = list(walker.players())

    def score(vector):
        return sum(vector[players.index(member)] for member in team)
    action_values = [[a, values[child]] for a, child in zip(actions, children)]
    return {
        "value": value,
        "action": action,
        **{**facts, "values": values},
        "chance": "CHANCE" in (spec.get("players") or ()),
        "action_values": action_values,
        "optimal_actions": [a for a, v in action_values if same_number(score(v), score(value))],
        "visits": log["visits"],
        "utility_calls": log["utility_calls"],
        "evaluate_calls": log["evaluate_calls"],
    }


# The random-tree checks search the same trees with minimax, alpha-beta and negamax: a tree's
# rules and its walk (the facts and the root's action values) follow from its input text, the
# depth and the combining rule alone, so the answers of one tree share them (the walks and
# rules were two thirds of those checks' reference answers).  Kept for the trees of the last
# few calls, and read only: every answer copies what it changes (``adapt``).
WALKS_KEPT = 1024
_WALKS: dict[tuple, tuple] = {}


def _walked(spec: dict, depth, chance: bool, text: str | None) -> tuple:
    """``(rules, facts, exact action values)`` of a tree (``rules`` None for other games and
    for explicit trees walked on their nodes: made by the game itself where needed), shared
    by the answers of one input text (``text``; None: not shared)."""
    key = (text, depth, chance)
    walked = _WALKS.get(key) if text is not None else None
    if walked is None:
        if not chance and _searchable(spec, text):
            # an explicit tree the specialised searches take: walked on its nodes, without
            # the rules object (making it and asking it were most of the walk)
            walked = (None, *explicit_tree_facts(spec, depth))
        else:
            # A tree's rules are plain data, read by the search and the walk: made once (a
            # tree's are the costliest to make, and two makes were a sixth of computing its
            # answers).
            rules = make_rules(spec) if spec.get("kind") == "tree" else None
            walked = (rules, *facts_and_action_values(spec, depth, chance=chance,
                                                      rules=rules))
        if text is not None:
            if len(_WALKS) >= WALKS_KEPT:
                _WALKS.clear()
            _WALKS[key] = walked
    return walked


# Whether an input is an explicit tree walked and searched on its nodes (``explicit_tree``),
# by its text: asked once per tree, not per search.
_SEARCHABLE: dict[str, bool] = {}


def _searchable(spec: dict, text: str | None) -> bool:
    if text is None:
        return explicit_tree(spec)
    known = _SEARCHABLE.get(text)
    if known is None:
        if len(_SEARCHABLE) >= WALKS_KEPT:
            _SEARCHABLE.clear()
        known = _SEARCHABLE[text] = explicit_tree(spec)
    return known


@lru_cache(maxsize=None)
def _takes_pruning_rule(search) -> bool:
    """Whether a model search takes the task's cut rule (the pruning searches)."""
    return "prune_on_equality" in inspect.signature(search).parameters


def answer_search(reference: str, spec: dict, depth, prune_on_equality: bool,
                  convention: str = "game", text: str | None = None) -> dict:
    """The reference answer of one search on one input (``text``: the input's canonical
    JSON text, when the caller has it: answers of the same text share the tree's walk)."""
    from reference import explicit_trees
    from reference.search import SEARCHES
    from reference.minimax import action_values
    if reference == "maxn":
        return answer_maxn(spec, depth)
    if reference == "quiescence":
        return answer_quiescence(spec, depth, prune_on_equality)
    search = SEARCHES[reference]
    chance = reference == "expectimax"
    rules, facts, exact = _walked(spec, depth, chance, text)
    if (explicit_trees.GENERAL.get(reference) is search and (depth is None or depth >= 0)
            and _searchable(spec, text)):
        # The same search on the tree's nodes, without a game object.  Bounded by the walk
        # before it, which counts every node within the horizon against the reference's
        # limit: the search visits some of them, each once (a negative depth, which the
        # walk and minimax read differently, is left to the bounded general search).
        value, action, log = explicit_trees.search(reference, spec, depth, prune_on_equality)
    else:
        game, root = make_game(spec, rules=rules)
        if _takes_pruning_rule(search):
            value, action = search(game, root, depth, prune_on_equality=prune_on_equality)
        else:
            value, action = search(game, root, depth)
        log = game.visit_log()
    if exact is None:    # a root the walk does not search on: the model solution's own walk
        values_game, values_root = make_game(spec)
        exact = action_values(values_game, values_root, depth, chance=chance)
    # the searches after alpha-beta are judged against plain alpha-beta and minimax, and by
    # what their visits prove (grader/answers/proof.py)
    extra = search_facts(spec, depth, prune_on_equality) if reference in PROVEN_SEARCHES else {}
    return adapt({
        **extra,
        "value": value,
        "action": action,
        **facts,
        "action_values": [[a, v] for a, v in exact.items()],
        "optimal_actions": [a for a, v in exact.items() if same_number(v, value)],
        "visits": log["visits"],
        "utility_calls": log["utility_calls"],
        "evaluate_calls": log["evaluate_calls"],
    }, convention, spec)


def search_with_orders(spec: dict, depth, orders: dict, prune_on_equality: bool) -> dict:
    """``{"value", "action", "count", "visits"}`` of the reference alpha-beta on a game spec,
    trying the children of the node named ``n`` in the order ``orders[n]`` (the game's order
    where ``orders`` has none); also what the ``ordering`` check runs on a student's orders."""
    from reference.techniques import alphabeta_ordered
    game, root = make_game(spec)
    value, action = alphabeta_ordered(game, root, depth, orders, prune_on_equality)
    visits = game.visit_log()["visits"]
    return {"value": value, "action": action, "count": len(visits), "visits": visits}


def ordering_answers(items: list, depth, prune_on_equality: bool, reference: str = "order"):
    """The answers of an ``ordering`` call: per position (item) the node's name, its actions
    in the game's order and the model ordering's reply (``returned``); the root's answer
    (the first item) also holds the task's search with the game's own order (``plain``) and
    with the model ordering (``model``), and what the check needs to search again with a
    student's orders (``spec``, ``depth``, ``prune_on_equality``)."""
    from reference.techniques import MOVE_ORDERINGS
    from ..conventions.ordering import position
    ordering = MOVE_ORDERINGS[reference]
    answers, model_orders = [], {}
    for item in items:
        game, state, actions = position(item)
        name = game.node_of(state)
        returned = list(ordering(game, state, list(actions)))
        model_orders[name] = returned
        answers.append({"node": name, "moves": list(item["moves"]), "actions": list(actions),
                        "returned": returned})
    if answers:
        spec = items[0]["game"]
        plain = search_with_orders(spec, depth, {}, prune_on_equality)
        model = search_with_orders(spec, depth, model_orders, prune_on_equality)
        answers[0]["search"] = {
            "spec": spec, "depth": depth, "prune_on_equality": prune_on_equality,
            "plain": {key: plain[key] for key in ("value", "action", "count")},
            "model": {key: model[key] for key in ("value", "action", "count")}}
    return answers


def answer_quiescence(spec: dict, depth, prune_on_equality: bool) -> dict:
    """Quiescence search's answer: as a search's, with the tree facts of its extended horizon
    (``horizon`` holds the nodes it evaluates, also beyond the depth) and the nodes beyond the
    horizon (``extension``) and the noisy ones it searches on (``noisy``)."""
    from reference.quiescence import quiescence
    options = search_options("quiescence", spec)
    game, root = make_game(spec)
    value, action = quiescence(game, root, depth, prune_on_equality, **options)
    log = game.visit_log()
    facts = tree_facts(spec, depth, **options)
    children = {parent_position[1]: node for node, parent_position in facts["siblings"].items()
                if parent_position[0] == facts["root"]}
    actions = make_rules(spec).actions(make_rules(spec).initial_state())
    action_values = [[a, facts["values"][children[i]]] for i, a in enumerate(actions)]
    extension = set(facts["extension"])
    return {
        "value": value,
        "action": action,
        **facts,
        "action_values": action_values,
        "optimal_actions": [a for a, v in action_values if same_number(v, value)],
        "visits": log["visits"],
        # how many nodes beyond the horizon it visits: what the quiescence check compares
        "extension_visits": sum(1 for node in log["visits"] if node in extension),
        "utility_calls": log["utility_calls"],
        "evaluate_calls": log["evaluate_calls"],
    }
