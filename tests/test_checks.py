"""Verdicts are pure functions of (observation, reference answer): no processes needed."""

from types import SimpleNamespace

from grader.calls import ItemOutcome, Observation
from grader.checks import KINDS
from grader.checks.common import search_call

ALPHABETA_ANSWER = None


def observation(returned, visits=None, foreign=0):
    """An observation of one search; ``visits=None``: it visited what the reference visits
    (``judge`` fills them in), so that only the returned answer is under test."""
    log = {"visits": None if visits is None else list(visits), "utility_calls": [],
           "evaluate_calls": [], "foreign_states": foreign}
    return Observation("ok", (ItemOutcome("ok", returned, log),))


def check_of(course, task_id, function, kind):
    task = course.task(task_id)
    return task, next(c for c in task.checks if c.function == function and c.kind == kind)


def judge(course, prepared, task_id, function, kind, obs):
    _, answers = prepared
    task, check = check_of(course, task_id, function, kind)
    call = KINDS[kind].calls(task, check)[0]
    if obs.status == "ok" and obs.items[0].log and obs.items[0].log["visits"] is None:
        item = obs.items[0]
        log = {**item.log, "visits": list(answers[call][0]["visits"])}
        obs = Observation("ok", (ItemOutcome(item.status, item.returned, log, item.error),))
    return KINDS[kind].judge(check, [obs], [answers[call]])


def reference_visits(course, prepared, task_id, function):
    _, answers = prepared
    return answers[search_call(course.task(task_id), function)][0]["visits"]


def test_value_check_accepts_int_and_float_and_rejects_other_values(course, prepared):
    assert judge(course, prepared, "tree-blatt3", "minimax", "value", observation([3, "B"])).passed
    assert judge(course, prepared, "tree-blatt3", "minimax", "value", observation([3.0, "B"])).passed
    wrong = judge(course, prepared, "tree-blatt3", "minimax", "value", observation([2, "C"]))
    assert not wrong.passed and wrong.reason == "value.wrong"
    assert wrong.facts["expected"] == 3 and wrong.facts["observed"] == 2


def test_values_that_are_not_plain_finite_numbers_are_wrong_answers(course, prepared):
    for returned in ([{"__float__": "nan"}, "B"], [True, "B"], ["3", "B"],
                     [{"__unsupported__": "AlwaysEqual", "repr": "x"}, "B"], None):
        verdict = judge(course, prepared, "tree-blatt3", "minimax", "value", observation(returned))
        assert not verdict.passed and verdict.reason == "result.shape"


def test_action_check_accepts_any_optimal_action_but_first_when_asked(course, prepared):
    ok = judge(course, prepared, "tree-blatt3", "alphabeta", "action", observation([3, "B"]))
    assert ok.passed
    bad = judge(course, prepared, "tree-blatt3", "alphabeta", "action", observation([3, "C"]))
    assert bad.reason == "action.suboptimal" and bad.facts["observed_value"] == 2
    illegal = judge(course, prepared, "tree-blatt3", "alphabeta", "action", observation([3, "Z"]))
    assert illegal.reason == "result.shape" and illegal.facts["problem"] == "action"
    first = judge(course, prepared, "nim-5", "minimax", "action", observation([1, 2]))
    assert first.reason == "action.not-first" or first.reason == "action.suboptimal"


def test_visited_check_names_extra_and_missing_nodes_and_the_first_difference(course, prepared):
    expected = reference_visits(course, prepared, "tree-blatt3", "alphabeta")
    assert judge(course, prepared, "tree-blatt3", "alphabeta", "visited",
                 observation([3, "B"], expected)).passed
    too_many = expected + ["D2", "D3"]
    verdict = judge(course, prepared, "tree-blatt3", "alphabeta", "visited",
                    observation([3, "B"], too_many))
    assert verdict.reason == "visited.differs"
    assert verdict.facts["extra"] == ["D2", "D3"] and verdict.facts["missing"] == []
    assert verdict.facts["first_difference"]["index"] == len(expected) + 1
    missing = [n for n in expected if n != "F3"]
    verdict = judge(course, prepared, "tree-blatt3", "alphabeta", "visited",
                    observation([3, "B"], missing))
    assert verdict.facts["missing"] == ["F3"]


def test_visits_on_states_the_student_built_himself_cannot_pass(course, prepared):
    expected = reference_visits(course, prepared, "tree-blatt3", "alphabeta")
    verdict = judge(course, prepared, "tree-blatt3", "alphabeta", "visited",
                    observation([3, "B"], expected, foreign=4))
    assert verdict.reason == "visited.foreign"


def test_count_check_bounds(course, prepared):
    expected = reference_visits(course, prepared, "ttt-midgame-a", "alphabeta")
    exact = judge(course, prepared, "ttt-midgame-a", "alphabeta", "count",
                  observation([0, 5], expected))
    assert exact.passed and exact.facts["observed"] == 88
    more = judge(course, prepared, "ttt-midgame-a", "alphabeta", "count",
                 observation([0, 5], expected + ["x"]))
    assert more.reason == "count.too-many"
    fewer = judge(course, prepared, "ttt-midgame-a", "alphabeta", "count",
                  observation([0, 5], expected[:-1]))
    assert fewer.reason == "count.too-few"


def test_failed_runs_become_verdicts_that_name_the_cause(course, prepared):
    for status, details in (("timeout", {"seconds": 1.0}), ("crashed", {"detail": "signal SIGSEGV"}),
                            ("missing-function", {"function": "alphabeta", "file": "minimax.py"})):
        verdict = judge(course, prepared, "tree-blatt3", "alphabeta", "value",
                        Observation(status, error=details))
        assert not verdict.passed and verdict.reason == f"call.{status}"
    error = Observation("ok", (ItemOutcome("error", error={"type": "KeyError", "message": "'x'",
                                                            "file": "minimax.py", "line": 7}),))
    verdict = judge(course, prepared, "tree-blatt3", "alphabeta", "value", error)
    assert verdict.reason == "item.error" and verdict.facts["line"] == 7


def test_a_reply_of_the_wrong_shape_earns_nothing_on_any_check_of_its_call(course, prepared):
    visits = reference_visits(course, prepared, "tree-blatt3", "alphabeta")
    for returned in (3, [3, "B", 0], [{"__float__": "nan"}, "B"], [3, None], [3, "Z"], None):
        for kind in ("value", "action", "visited", "count"):
            verdict = judge(course, prepared, "tree-blatt3", "alphabeta", kind,
                            observation(returned, visits))
            assert (verdict.passed, verdict.reason) == (False, "result.shape"), (returned, kind)


def test_nothing_is_credited_without_a_search_that_earns_it(course, prepared):
    # The right answer, returned without searching (or after looking only at the root).
    for visits in ((), ("A",)):
        for kind, reason in (("value", "value.no-evidence"), ("action", "action.no-evidence"),
                             ("visited", "search.none"), ("count", "search.none")):
            verdict = judge(course, prepared, "tree-blatt3", "alphabeta", kind,
                            observation([3, "B"], visits))
            assert (verdict.passed, verdict.reason) == (False, reason), (visits, kind)
    horizon = judge(course, prepared, "tree-depth2", "alphabeta", "horizon",
                    observation([3, "D"], ()))
    assert horizon.reason == "search.none"
    # Searching only other children does not earn the action B, nor a value no leaf has.
    elsewhere = ["A", "C", "E", "E1", "E2", "E3"]
    assert judge(course, prepared, "tree-blatt3", "alphabeta", "action",
                 observation([3, "B"], elsewhere)).reason == "action.no-evidence"
    assert judge(course, prepared, "tree-blatt3", "alphabeta", "value",
                 observation([3, "B"], elsewhere)).reason == "value.no-evidence"
    # A leaf of value 3 (D3) visited is evidence for the value, and B's leaves for B.
    assert judge(course, prepared, "tree-blatt3", "alphabeta", "value",
                 observation([3, "B"], ["A", "D", "D3"])).passed
    assert judge(course, prepared, "tree-blatt3", "alphabeta", "action",
                 observation([3, "B"], ["A", "B", "B1"])).passed


def test_a_value_of_the_other_sign_is_evidence_too(course, prepared):
    # Negamax-style searches see leaf values from the side to move: -3 visited justifies 3.
    from grader.checks.common import value_justified
    answer = {"terminals": ["L"], "horizon": [], "values": {"L": -3}, "root": "A"}
    assert value_justified(3, {"visits": ["A", "L"]}, answer)
    assert not value_justified(4, {"visits": ["A", "L"]}, answer)
    chance = {"terminals": ["L", "M"], "horizon": [], "values": {"L": 1, "M": 5}, "root": "A"}
    assert value_justified(3, {"visits": ["A", "L", "M"]}, chance, chance=True)
    assert not value_justified(7, {"visits": ["A", "L", "M"]}, chance, chance=True)


def test_a_visit_sequence_equal_to_the_reference_is_judged_as_walking_it_would():
    # compare_visits decides an exact copy of the reference's sequence without walking it;
    # the verdict must be the one the walk gives, also where the reference's own sequence
    # visits siblings against action order (B2 before B1 here).
    from grader.checks.common import PerObject
    from grader.checks.visited import compare_visits, sibling_disorder
    check = SimpleNamespace(points=1.0)
    siblings = {"B": ("A", 0), "C": ("A", 1), "B1": ("B", 0), "B2": ("B", 1)}
    in_order, against_order = ["A", "B", "B1", "B2", "C"], ["A", "B", "B2", "B1", "C"]
    for expected in (in_order, against_order):
        log = {"visits": list(expected), "foreign_states": 0}
        verdict = compare_visits(check, expected, log, "siblings", siblings)
        disorder = sibling_disorder(list(expected), siblings)
        assert verdict.passed == (disorder is None)
        assert verdict.facts == {**(disorder or {}), "expected_count": 5, "observed_count": 5,
                                 "first_difference": None}
    computed = []
    cache = PerObject(lambda answer: computed.append(answer) or len(computed))
    first, equal_but_another = ["A"], ["A"]
    assert cache(first) == cache(first) == 1
    assert cache(equal_but_another) == 2   # keyed by identity: another answer is its own


def test_a_search_that_evaluates_only_above_the_horizon_is_told_so(course, prepared):
    _, answers = prepared
    task = course.task("tree-depth2")
    answer = answers[search_call(task, "alphabeta")][0]
    above = [node for node, (parent, _) in answer["siblings"].items()
             if parent == answer["root"] and node not in answer["horizon"]
             and node not in answer["terminals"]]
    assert above
    log = {"visits": [answer["root"], *above], "utility_calls": [], "evaluate_calls": above,
           "foreign_states": 0}
    obs = Observation("ok", (ItemOutcome("ok", [3, "D"], log),))
    for kind in ("horizon", "visited"):
        verdict = judge(course, prepared, "tree-depth2", "alphabeta", kind, obs)
        assert (verdict.passed, verdict.reason) == (False, "search.above-horizon"), kind
        assert verdict.facts["nodes"] == above
    # evaluating nothing at all is still "no search"
    log = {**log, "evaluate_calls": []}
    verdict = judge(course, prepared, "tree-depth2", "alphabeta", "horizon",
                    Observation("ok", (ItemOutcome("ok", [3, "D"], log),)))
    assert verdict.reason == "search.none"
