"""Verdicts are pure functions of (observation, reference answer): no processes needed."""

from grader.calls import ItemOutcome, Observation
from grader.checks import KINDS
from grader.checks.common import search_call

ALPHABETA_ANSWER = None


def observation(returned, visits=(), foreign=0):
    log = {"visits": list(visits), "utility_calls": [], "evaluate_calls": [],
           "foreign_states": foreign}
    return Observation("ok", (ItemOutcome("ok", returned, log),))


def check_of(course, task_id, function, kind):
    task = course.task(task_id)
    return task, next(c for c in task.checks if c.function == function and c.kind == kind)


def judge(course, prepared, task_id, function, kind, obs):
    _, answers = prepared
    task, check = check_of(course, task_id, function, kind)
    call = KINDS[kind].calls(task, check)[0]
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
    assert illegal.reason == "action.illegal"
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
