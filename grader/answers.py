"""Reference answers: what the model solutions return for each call, computed once per task
and reused for every student.

For a search call, per input: the root ``value`` (the root player's view), the first optimal
``action``, every root action with its exact value (``action_values``) and the ``optimal_actions``
among them, the nodes visited in order (``visits``) and where ``utility`` and ``evaluate`` were
asked.  For a plain call (e.g. an evaluation function): the ``value`` returned.  For a
move ordering (``ordering`` convention): the model ordering's reply per position, see
``ordering_answers``.  For a ``grader.play.series.RoundRobin`` (a ``rating`` check's
reference): the record of the baselines' games among themselves, played here.
"""

from __future__ import annotations

import functools
import inspect
import json

from .calls import Call
from .checks.common import same_number
from .games import RecordingGame, make_rules

# A reference search that visits more nodes than this is stopped: a task that searches Connect
# Four on 7x6 to the end of the game (no depth:) would otherwise never finish, and the batch
# with it.  A million nodes is tic-tac-toe from the empty board twice over (549,946) and far
# above every bundled task (the largest, Kalah to the end, visits about 20,000); it is reached
# after about a minute (bench: 200,000 visits of Connect Four's minimax in 10 s).
REFERENCE_VISIT_LIMIT = 1_000_000


class ReferenceTooLarge(Exception):
    """A reference search visited more than its limit of nodes."""

    def __init__(self, limit: int):
        self.limit = limit
        super().__init__(f"the reference search visited more than {limit:,} nodes")


class BoundedGame(RecordingGame):
    """The recording game of a search in the parent, stopped after ``limit`` visits (with
    ``too_long(limit)``)."""

    def __init__(self, rules, limit: int, too_long=ReferenceTooLarge):
        super().__init__(rules)
        self._limit, self._too_long = limit, too_long

    def _visit(self, state):
        name = super()._visit(state)
        if len(self._log.visits) > self._limit:
            raise self._too_long(self._limit)
        return name


def make_game(spec, limit: int | None = None):
    """A recording game bounded to ``limit`` visits (the reference's limit unless given), and
    its root: every search this module runs goes through it."""
    game = BoundedGame(make_rules(spec), REFERENCE_VISIT_LIMIT if limit is None else limit)
    return game, game.root()
from .proof import search_facts

# The searches after alpha-beta (reference/transposition.py), judged by what their visits
# prove (alpha-beta with a table cuts by the task's rule: its signature takes it).
PROVEN_SEARCHES = ("alphabeta_tt", "negascout", "mtdf")


def answer_call(call: Call) -> list[dict]:
    from .play.series import RoundRobin
    if isinstance(call, RoundRobin):
        # a rating check's reference: the baselines' games among themselves (trusted code in
        # the parent, no student involved), played once per task like any answer
        return [call.play()]
    # The model solutions are imported only when an answer is computed: a self-check kit's
    # answers come precomputed, and its grader has no ``reference`` package.
    from reference.evaluation import EVALUATIONS
    if call.convention == "plain":
        evaluation = EVALUATIONS[call.reference]
        return [{"value": evaluation(*item)} for item in call.inputs()]
    if call.convention == "by-hand":    # a hand exercise's answer file (grader/hand)
        from .hand.solution import answer_hand
        return [answer_hand(item, call.prune_on_equality) for item in call.inputs()]
    if call.convention == "ordering":   # a move ordering, on the positions of a task's tree
        return ordering_answers(call.inputs(), call.args[0] if call.args else None,
                                call.prune_on_equality, call.reference)
    from reference.deepening import TECHNIQUES
    if call.reference in TECHNIQUES:
        from .deepening_answers import answer_deepening
        return [answer_deepening(call.reference, spec, reference_depth(call, spec),
                                 call.prune_on_equality) for spec in call.inputs()]
    return [answer_search(call.reference, spec, reference_depth(call, spec),
                          call.prune_on_equality, call.convention) for spec in call.inputs()]


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
        from .games.quiet import DEFAULT_EXTENSION
        return {"extension": spec.get("extension", DEFAULT_EXTENSION)}
    if reference != "maxn":
        return {}
    return {"ties": spec.get("ties", "first"), "alliances": spec.get("alliances")}


def answer_maxn(spec: dict, depth) -> dict:
    """max^n's answer: the root's vector and action, every node's vector (``values``), each
    root action with its child's vector, and as ``optimal_actions`` those whose vector is as
    good for the root player (its component, or its coalition's sum) as the chosen one."""
    from reference.search import maxn
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


def answer_search(reference: str, spec: dict, depth, prune_on_equality: bool,
                  convention: str = "game") -> dict:
    from reference.search import SEARCHES, action_values
    if reference == "maxn":
        return answer_maxn(spec, depth)
    if reference == "quiescence":
        return answer_quiescence(spec, depth, prune_on_equality)
    search = SEARCHES[reference]
    game, root = make_game(spec)
    if "prune_on_equality" in inspect.signature(search).parameters:   # the pruning searches
        value, action = search(game, root, depth, prune_on_equality=prune_on_equality)
    else:
        value, action = search(game, root, depth)
    log = game.visit_log()
    values_game, values_root = make_game(spec)
    exact = action_values(values_game, values_root, depth, chance=reference == "expectimax")
    # the searches after alpha-beta are judged against plain alpha-beta and minimax, and by
    # what their visits prove (grader/proof.py)
    extra = search_facts(spec, depth, prune_on_equality) if reference in PROVEN_SEARCHES else {}
    return adapt({
        **extra,
        "value": value,
        "action": action,
        **tree_facts(spec, depth, chance=reference == "expectimax"),
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
    from .conventions.ordering import position
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
    rules = rules or make_rules(spec)
    state = rules.initial_state()
    root = rules.identify(state) or "root"
    player = rules.to_move(state)
    limit = None if extension is None else depth + extension
    siblings, horizon, terminals, values = {}, [], [], {}
    extended, noisy = [], []
    walked = [0]

    def evaluated_at(state, level) -> bool:
        if depth is None or level < depth:
            return False
        return extension is None or level >= limit or rules.is_quiet(state)

    def walk(state, name, level):
        walked[0] += 1
        if walked[0] > REFERENCE_VISIT_LIMIT:
            raise ReferenceTooLarge(REFERENCE_VISIT_LIMIT)
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
            if inner:
                values[name] = _combined(rules, state, player, children, chance)
        return values.get(name)

    walk(state, root, 0)
    facts = {"siblings": siblings, "horizon": sorted(horizon), "terminals": sorted(terminals),
             "root": root, "values": values}
    if extension is not None:
        facts.update(extension=sorted(extended), noisy=sorted(noisy))
    return facts


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


def public_facts(call: Call) -> list[dict]:
    """Per input of a search call, the facts its answer holds that follow from the input
    alone, without the model solutions: the tree's shape within the call's depth (``root``,
    ``siblings``, ``horizon``, ``terminals``; ``extension`` and ``noisy`` for quiescence;
    ``children`` for the principal variation), the values the game gives there (``values``,
    terminal and horizon nodes only), the root's actions (``action_values``, their values
    left out), what the convention's functions return, and for the searches after alpha-beta
    the positions' facts (``grader.proof.position_facts``); iterative deepening's per depth.

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
    for text, spec in zip(call.items, call.inputs()):
        depth = reference_depth(call, spec)
        if call.reference in ("iterative_deepening", "principal_variation"):
            from .deepening_answers import deepening_public_facts
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
    spec = json.loads(spec_text)
    rules = make_rules(spec)
    start = rules.initial_state()
    actions = [] if rules.is_terminal(start) else list(rules.actions(start))
    return (tree_facts(spec, depth, chance=chance, inner=False, extension=extension,
                       rules=rules), actions)


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


class AnswerBook:
    """Reference answers of every call of a course, computed on first use, then shared by the
    whole batch; also the answers of the catalogue's faulty variants (``variant``).

    With a ``cache`` (see ``grader.answer_cache``), answers stored by an earlier run are taken
    from it instead of computed, and ``save`` stores what this run computed.

    A self-check kit's book (``grader.kit.KitAnswers``) answers the same questions from
    precomputed answers, without the model solutions.
    """

    shrinks = True     # the reference can answer new inputs: counterexamples can be shrunk
    sealed = False     # its answers are plain (a kit's are sealed: grader.sealed)

    def __init__(self, cache=None):
        self._answers: dict[str, list[dict]] = {}
        self._variants: dict[tuple, list[dict]] = {}
        self._cache = cache
        self._stored: dict[str, list[dict]] = cache.load() if cache is not None else {}
        self._computed = False       # something the cache does not hold yet

    @classmethod
    def for_course(cls, course, use_cache: bool = True) -> "AnswerBook":
        """A book backed by the course's answer cache (unless ``use_cache`` is false or the
        cache is turned off)."""
        if not use_cache:
            return cls()
        from .answer_cache import AnswerCache
        return cls(AnswerCache.for_course(course))

    def mistakes_of(self, reference: str) -> tuple:
        """The catalogue's mistakes of a model solution (none for one without variants)."""
        from reference.variants import MISTAKES_OF
        return tuple(MISTAKES_OF.get(reference, ()))

    def variant(self, call: Call, mistake: str) -> list[dict]:
        from .mistakes import variant_answers
        key = (call.key(), mistake)
        if key not in self._variants:
            self._variants[key] = variant_answers(call, mistake)
        return self._variants[key]

    def __getitem__(self, call: Call) -> list[dict]:
        key = call.key()
        if key not in self._answers:
            stored = self._stored.get(self._cache.digest(key)) if self._stored else None
            if stored is None:
                stored, self._computed = answer_call(call), True
            self._answers[key] = stored
        return self._answers[key]

    def save(self) -> None:
        """Store the answers computed so far in the cache (with those it held already); a
        cache that cannot be written is skipped: grading never depends on it."""
        if self._cache is None or not self._computed:
            return
        known = {**self._stored,
                 **{self._cache.digest(key): answer for key, answer in self._answers.items()}}
        if self._cache.save(known):
            self._stored, self._computed = known, False
