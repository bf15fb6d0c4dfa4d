"""Facts of a game tree that follow from its spec and the task's depth alone, and the
conventions' view of an answer: the tree's shape and the reference's values (``tree_facts``),
the depth in plies (``reference_depth``), a model solution's options from the spec
(``search_options``), and an answer as a convention's student code reports it (``adapt``,
``adapt_public``)."""

from __future__ import annotations

from ..calls import Call
from ..games import make_rules
from . import bounded     # its limit is read when a tree is walked (tests lower it)


def reference_depth(call: Call, spec: dict):
    """The depth limit in plies: agents of the multi-agent convention count whole rounds."""
    depth = call.args[0] if call.args else None
    if depth is not None and call.convention == "multi-agent":
        return depth * len(spec.get("players") or ("MAX", "MIN"))
    return depth


def adapt(answer: dict, convention: str, spec: dict) -> dict:
    """A root-player-view answer as the convention's student code reports it."""
    if convention == "helpers":
        # The sheet's values are from the first player's view (X, or MAX) even when the
        # other player moves at the root.
        if _second_player_moves(spec) and answer.get("value") is not None:
            answer = {**answer, "value": -answer["value"],
                      "action_values": [[a, -v] for a, v in answer.get("action_values", [])],
                      "values": {n: -v for n, v in answer.get("values", {}).items()}}
    elif convention == "negamax-sign":
        answer = {**answer, "returns_action": False}
    elif convention in ("multi-agent", "aima"):   # the action alone
        answer = {**answer, "returns_value": False}
    return answer


def _second_player_moves(spec: dict) -> bool:
    """Whether another player than the first (X, or MAX) moves at the root."""
    rules = make_rules(spec)
    return rules.to_move(rules.initial_state()) != rules.players[0]


def search_options(reference: str, spec: dict) -> dict:
    """The task's options of a model solution that the game spec carries: max^n's tie rule
    and alliances (none for the two-player searches)."""
    if reference == "quiescence":
        from ..games.quiet import DEFAULT_EXTENSION
        return {"extension": spec.get("extension", DEFAULT_EXTENSION)}
    if reference != "maxn":
        return {}
    return {"ties": spec.get("ties", "first"), "alliances": spec.get("alliances")}


def tree_facts(spec: dict, depth, chance: bool = False, inner: bool = True,
               extension: int | None = None, rules=None) -> dict:
    """The shape of the game tree within ``depth`` plies (all of it when ``depth`` is None):

    * ``siblings``: node -> [parent, position among its siblings in action order];
    * ``horizon``: the non-terminal nodes exactly ``depth`` plies down (to be evaluated);
    * ``terminals``: the terminal nodes within the horizon (to be scored with utility);
    * ``values``: every node's value from the root player's view, by the reference's rule:
      the root player maximises, the others minimise (``chance``: they average, as
      ``expectimax`` does).  With ``inner=False`` only the terminal and horizon nodes' values,
      those the game gives (what a self-check kit computes: ``public_facts``).

    With ``extension`` (a quiescence search's rule, ``reference/quiescence.py``) the horizon
    is extended at noisy positions: a position at least ``depth`` plies down is evaluated when
    it is quiet or ``depth + extension`` plies down, and searched on otherwise; ``horizon``
    then holds every node evaluated, ``extension`` the nodes below ``depth`` and ``noisy``
    the noisy nodes searched on.

    Walks the game's rules directly (no recording game: a kit does this at check time), with
    the nodes named as the recording game names them, and stops past the reference's limit
    (``rules``: the spec's, made already).
    """
    return _walked_tree(spec, depth, chance, inner, extension, rules)[0]


def facts_and_action_values(spec: dict, depth, chance: bool = False,
                            rules=None) -> tuple[dict, dict | None]:
    """``tree_facts(spec, depth, chance)``, and the root's actions with their values by the
    same rule (what ``reference.minimax.action_values`` computes, in its order), from the
    same walk: the root's children are valued on the way, and a second search of the whole
    tree for them cost a third of computing a search's answers.  None for the actions when
    the root is not searched on (terminal, or at the horizon already: depth 0); ``rules``:
    the spec's, made already."""
    return _walked_tree(spec, depth, chance, True, None, rules)


def _walked_tree(spec: dict, depth, chance: bool, inner: bool, extension: int | None,
                 rules) -> tuple[dict, dict | None]:
    rules = rules or make_rules(spec)
    state = rules.initial_state()
    root = rules.identify(state) or "root"
    player = rules.to_move(state)
    limit = None if extension is None else depth + extension
    siblings, horizon, terminals, values = {}, [], [], {}
    extended, noisy = [], []
    walked = [0]
    root_actions = []      # (action, value) of the root's children, in action order

    def evaluated_at(state, level) -> bool:
        if depth is None or level < depth:
            return False
        return extension is None or level >= limit or rules.is_quiet(state)

    def walk(state, name, level):
        walked[0] += 1
        if walked[0] > bounded.REFERENCE_VISIT_LIMIT:
            raise bounded.ReferenceTooLarge(bounded.REFERENCE_VISIT_LIMIT)
        if extension is not None and level > depth:
            extended.append(name)
        if rules.is_terminal(state):
            terminals.append(name)
            values[name] = rules.utility(state, player)
        elif evaluated_at(state, level):
            horizon.append(name)
            values[name] = rules.evaluate(state, player)
        else:
            if extension is not None and level >= depth:
                noisy.append(name)
            children = []
            for position, action in enumerate(rules.actions(state)):
                child = rules.result(state, action)
                child_name = rules.node_name(name, action, child)
                siblings[child_name] = [name, position]
                children.append(walk(child, child_name, level + 1))
                if level == 0:
                    root_actions.append((action, children[-1]))
            if inner:
                values[name] = _combined(rules, state, player, children, chance)
        return values.get(name)

    walk(state, root, 0)
    facts = {"siblings": siblings, "horizon": sorted(horizon), "terminals": sorted(terminals),
             "root": root, "values": values}
    if extension is not None:
        facts.update(extension=sorted(extended), noisy=sorted(noisy))
    searched = not rules.is_terminal(state) and not evaluated_at(state, 0)
    return facts, (dict(root_actions) if searched and inner else None)


def explicit_tree(spec: dict) -> bool:
    """Whether ``spec`` is an explicit tree (``grader/games/tree.py``) whose facts can be
    walked on its nodes (``explicit_tree_facts``) and searched on them
    (``reference.explicit_trees``) exactly as its rules and recording game give them: one or
    more players taking turns by depth, none of them ``CHANCE``; scalar values; every node
    reached by one path (a tree, not a graph), the root by none; action labels, where given,
    one per child and all different.  False for anything else."""
    if spec.get("kind") != "tree":
        return False
    cycle = spec.get("players") or ("MAX", "MIN")
    if not cycle or "CHANCE" in cycle:
        return False
    nodes, root = spec.get("nodes"), spec.get("root")
    if type(nodes) is not dict or root not in nodes:
        return False
    reached, named = 0, set()
    for node in nodes.values():
        if type(node) is not dict or isinstance(node.get("value"), list):
            return False
        children = node.get("children")
        if children:
            labels = node.get("actions")
            if labels and (len(labels) != len(children) or len(set(labels)) != len(labels)):
                return False
            reached += len(children)
            named.update(children)
    # a tree: no node is the child of two nodes (or twice of one), the root of none
    return len(named) == reached and root not in named and named <= nodes.keys()


def explicit_tree_facts(spec: dict, depth, inner: bool = True) -> tuple[dict, dict | None]:
    """``facts_and_action_values(spec, depth)`` of an ``explicit_tree``, walked on its nodes:
    the same facts and values, in the same order, without the rules object (making it and
    asking it were most of the walk).  ``inner=False``: the inner nodes' values left out, and
    no action values, as ``tree_facts(spec, depth, inner=False)`` (a self-check kit's)."""
    nodes, root = spec["nodes"], spec["root"]
    cycle = tuple(spec.get("players") or ("MAX", "MIN"))
    turns, player = len(cycle), cycle[0]
    max_view = player == "MAX"     # TreeRules._signed: MAX's values as written
    siblings, horizon, terminals, values = {}, [], [], {}
    limit = bounded.REFERENCE_VISIT_LIMIT
    walked = [0]
    root_actions = []

    def walk(name, level):
        walked[0] += 1
        if walked[0] > limit:
            raise bounded.ReferenceTooLarge(limit)
        node = nodes[name]
        children = node.get("children")
        if not children:
            terminals.append(name)
            value = node["value"]
            values[name] = value if max_view else -value
        elif depth is not None and level >= depth:
            horizon.append(name)
            value = node.get("eval") or 0
            values[name] = value if max_view else -value
        else:
            labels = node.get("actions") or children
            found = []
            for position, (action, child) in enumerate(zip(labels, children)):
                siblings[child] = [name, position]
                found.append(walk(child, level + 1))
                if level == 0:
                    root_actions.append((action, found[-1]))
            if inner:
                values[name] = max(found) if cycle[level % turns] == player else min(found)
        return values.get(name)

    walk(root, 0)
    facts = {"siblings": siblings, "horizon": sorted(horizon), "terminals": sorted(terminals),
             "root": root, "values": values}
    searched = bool(nodes[root].get("children")) and not (depth is not None and depth <= 0)
    return facts, (dict(root_actions) if searched and inner else None)


def _combined(rules, state, player, children: list, chance: bool):
    """An inner node's value from its children's: the root player maximises, the others
    minimise (``chance``: average, weighted by the edges' probabilities where a tree gives
    unequal ones)."""
    if rules.to_move(state) == player:
        return max(children)
    if not chance:
        return min(children)
    actions = rules.actions(state)
    own = getattr(rules, "probability", None)
    weights = [own(state, a) if own else 1 / len(actions) for a in actions]
    if len(set(weights)) <= 1:
        return sum(children) / len(children)
    return sum(w * v for w, v in zip(weights, children))


def adapt_public(facts: dict, convention: str, spec: dict) -> dict:
    """``adapt`` for the public facts: the values the game gives, as the convention's student
    code reports them, and what its functions return."""
    if convention == "helpers" and _second_player_moves(spec):
        facts = {**facts, "values": {n: -v for n, v in facts["values"].items()}}
    elif convention == "negamax-sign":
        facts = {**facts, "returns_action": False}
    elif convention == "multi-agent":
        facts = {**facts, "returns_value": False}
    return facts
