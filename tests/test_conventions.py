"""Every calling convention grades a correct and a faulty example for real."""

import pytest

from grader.tasks import load_course

from conftest import DATA

CONVENTIONS = DATA / "conventions"
FAULTY = {
    "helpers": ("strikt", "alphabeta", "strict-cut"),
    "negamax-sign": ("ohne-negation", "Value", "no-negation"),
    "multi-agent": ("gleichheit", "AlphaBetaAgent", "equality-cut"),
    "multi-player": ("abwechselnd", "expectimax", "chance-as-min"),
}


@pytest.mark.parametrize("convention", sorted(FAULTY))
def test_a_correct_solution_gets_full_marks(convention, grade):
    course = load_course(CONVENTIONS / convention / "tasks.yaml")
    result = grade(CONVENTIONS / convention / "korrekt", course)
    assert [(v.check.id, v.reason) for v in result.verdicts if not v.passed] == []


@pytest.mark.parametrize("convention", sorted(FAULTY))
def test_a_faulty_solution_is_caught_and_its_mistake_named(convention, grade):
    student, function, mistake = FAULTY[convention]
    course = load_course(CONVENTIONS / convention / "tasks.yaml")
    result = grade(CONVENTIONS / convention / student, course)
    failed = [v for v in result.verdicts if not v.passed]
    assert failed and {v.check.function for v in failed} >= {function}
    assert any(mistake in (v.facts.get("diagnosis") or ()) for v in failed)


def test_helpers_values_are_from_xs_point_of_view_as_on_the_sheet(prepared, grade):
    from grader.batch import prepare
    from grader.checks.common import search_call
    course = load_course(CONVENTIONS / "helpers" / "tasks.yaml")
    _, answers = prepare(course)
    answer = answers[search_call(course.task("ttt-b"), "minimax")][0]
    assert (answer["value"], answer["action"], len(answer["visits"])) == (-1, 7, 38)


def test_multi_agent_files_load_with_the_stand_in_modules(grade):
    course = load_course(CONVENTIONS / "multi-agent" / "tasks.yaml")
    result = grade(CONVENTIONS / "multi-agent" / "korrekt", course)
    assert result.score == result.max_score == 6


def test_conventions_that_return_no_value_or_no_action_refuse_such_checks(tmp_path):
    from grader.tasks import TaskFileError
    (tmp_path / "t.yaml").write_text(
        "tasks:\n  - id: t\n    convention: multi-agent\n    module: multiAgents\n"
        "    game: tree\n    tree: {A: {B: [1], C: [2]}}\n    functions: [MinimaxAgent]\n"
        "    checks: [{kind: value}]\n")
    with pytest.raises(TaskFileError, match=r"t.yaml:8: a value check cannot judge"):
        load_course(tmp_path / "t.yaml")


RANDOM = {"helpers": ("random/alphabeta/random-trees", "strikt"),
          "negamax-sign": ("random/Value/random-trees", "ohne-negation")}


@pytest.mark.parametrize("convention", sorted(RANDOM))
def test_random_trees_grade_the_sheet_conventions_and_shrink_their_mistakes(convention, grade):
    from grader.report.messages import Catalogue
    check_id, faulty = RANDOM[convention]
    course = load_course(CONVENTIONS / convention / "tasks.yaml")
    correct = {v.check.id: v for v in grade(CONVENTIONS / convention / "korrekt", course).verdicts}
    assert correct[check_id].passed and correct[check_id].facts["total"] >= 100
    verdict = next(v for v in grade(CONVENTIONS / convention / faulty, course).verdicts
                   if v.check.id == check_id)
    assert not verdict.passed and verdict.facts["shrunk"]
    assert verdict.facts["example"]["nodes"] <= 5
    text = Catalogue("en").text("example.text", **verdict.facts)
    assert ("action" in text) == (convention == "helpers"), "Value(state, sign) has no action"


@pytest.mark.parametrize("convention, function", [("helpers", "alphabeta"),
                                                  ("negamax-sign", "Value")])
def test_functions_without_a_depth_refuse_a_search_depth(tmp_path, convention, function):
    from grader.tasks import TaskFileError
    (tmp_path / "t.yaml").write_text(
        f"tasks:\n  - id: t\n    convention: {convention}\n    module: m\n"
        f"    functions: [{function}]\n    reference: {{{function}: "
        f"{'alphabeta' if function == 'alphabeta' else 'negamax'}}}\n"
        "    checks:\n      - {kind: random-trees,\n         search_depth: 2}\n")
    with pytest.raises(TaskFileError, match=rf"t.yaml:9: search_depth cannot be used with the "
                                            rf"{convention} convention: its functions take no "
                                            "depth"):
        load_course(tmp_path / "t.yaml")
