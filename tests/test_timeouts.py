"""A function that did not finish once is not called again in that submission: its later
checks say why, and the submission's other functions are graded as usual."""

from conftest import ROOT


def test_after_a_timeout_the_function_is_not_called_again(grade):
    result = grade(ROOT / "submissions" / "endlosschleife")
    negamax = [v for v in result.verdicts if v.check.function == "negamax"]
    timed_out = [v for v in negamax if v.reason == "call.timeout"]
    # only the first call of negamax ran into its limit (its checks share that one call)
    assert timed_out and len({v.check.task_id for v in timed_out}) == 1
    later = [v for v in negamax if v.reason != "call.timeout"]
    assert later and all(v.reason == "call.after-timeout" for v in later)
    assert later[0].facts == {"function": "negamax", "seconds": 1}
    others = [v for v in result.verdicts if v.check.function in ("minimax", "alphabeta")]
    assert others and all(v.passed for v in others)
