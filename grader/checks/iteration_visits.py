"""``iteration-visits``: what each iteration of iterative deepening visits.

The recording game splits the visit log into *rounds*, one per search from the root: a round
ends when a child of the root is generated again (``grader/games/recorder.py``).  A search to
depth 1, 2, ..., d must give d rounds, and round k must

* visit nothing below depth k,
* call ``evaluate`` exactly on the non-terminal nodes it visits at depth k (and ``utility``,
  never ``evaluate``, on terminal nodes above it),
* reach depth k's horizon or a terminal node at all (no round passes by doing nothing).

So no round visits more nodes than minimax to depth k, which visits every node within it;
alpha-beta, with or without the previous iteration's best move first, visits fewer.  The
feedback lists each iteration's count of visited nodes (the root included) beside minimax's.
"""

from .verdict import failed, passed
from .common import run_failure, single_search_call
from .iterations import REFERENCES, plies_of, scored, static_sets

KIND = "iteration-visits"
# The options a task file may set: JSON Schema, read by the loader and published (grader.tasks.schema).
OPTIONS = {}
# What a self-check kit keeps, sealed, of this kind's answers (grader.answers.sealed.seal_answer).
SEALED_PARTS = ()


def applies_to(function):
    return function in REFERENCES


def parse_options(item, context, line):
    if not context.depth:
        context.problem(line, f"an {KIND} check needs a depth-limited task (depth: d): "
                        "iterative deepening searches to depth 1, 2, ..., d")
    if context.game == "none":
        context.problem(line, f"an {KIND} check needs the task's game")
    return {}


calls = single_search_call


def rounds_of(log: dict, root) -> list:
    """The rounds of a visit log; a log with one search only has them implicitly."""
    if log.get("rounds"):
        return log["rounds"]
    below_root = [n for n in log.get("visits", ()) if n != root]
    if not below_root:
        return []
    return [{"visits": below_root, "utility_calls": log.get("utility_calls", []),
             "evaluate_calls": log.get("evaluate_calls", [])}]


def round_problem(visits_round: dict, limit: int, plies: dict, horizon: set,
                  terminals: set) -> dict | None:
    """What breaks the rules in round ``limit`` (its depth), or None."""
    visits = visits_round["visits"]
    deeper = [n for n in visits if plies.get(n, limit + 1) > limit]
    if deeper:
        return {"reason": "iteration-visits.below", "nodes": deeper}
    evaluated = list(dict.fromkeys(visits_round["evaluate_calls"]))
    terminal = [n for n in evaluated if n in terminals]
    if terminal:
        return {"reason": "iteration-visits.terminal", "nodes": terminal}
    early = [n for n in evaluated if n not in horizon]
    if early:
        return {"reason": "iteration-visits.early", "nodes": early}
    skipped = [n for n in visits if n in horizon and n not in set(evaluated)]
    if skipped:
        return {"reason": "iteration-visits.not-evaluated", "nodes": skipped}
    if not scored(visits_round, horizon, terminals):
        return {"reason": "iteration-visits.not-reached", "nodes": []}
    return None


def judge(check, observations, answers):
    answer = answers[0][0]
    failure = run_failure(check, observations[0])
    if failure:
        return failure
    log = observations[0].items[0].log or {}
    if log.get("foreign_states"):
        return failed(check, "visited.foreign", count=log["foreign_states"])
    expected = answer["iterations"]
    rounds = rounds_of(log, answer["root"])
    counts = [len(r["visits"]) + 1 for r in rounds]
    minimax = [facts["minimax_visits"] for facts in expected]
    facts = {"counts": counts, "minimax": minimax, "depth": len(expected)}
    if len(rounds) != len(expected):
        # an iteration to depth 0 evaluates the root and generates no children: no round of
        # its own, and no child states kept between iterations either
        return failed(check, "iteration-visits.rounds", observed=len(rounds),
                      root_evaluated=answer["root"] in log.get("evaluate_calls", ()), **facts)
    plies = plies_of(answer["siblings"], answer["root"])
    for number, (visits_round, (horizon, terminals)) in enumerate(
            zip(rounds, static_sets(answer)), start=1):
        problem = round_problem(visits_round, number, plies, horizon, terminals)
        if problem:
            return failed(check, problem["reason"], iteration=number, nodes=problem["nodes"],
                          **facts)
    return passed(check, **facts)
