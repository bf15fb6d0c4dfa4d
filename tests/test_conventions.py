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
    "aima": ("tiefe-null", "alphabeta_search", "depth-off-by-one"),
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


def test_agents_that_return_the_action_alone_get_hygiene_checks(grade):
    course = load_course(CONVENTIONS / "multi-agent" / "hygiene.yaml")
    result = grade(CONVENTIONS / "multi-agent" / "korrekt", course)
    assert [v.check.kind for v in result.verdicts] == ["hygiene", "hygiene"]
    assert result.score == result.max_score


def test_the_aima_convention_refuses_a_value_check_and_says_why(tmp_path):
    from grader.tasks import TaskFileError
    (tmp_path / "t.yaml").write_text(
        "tasks:\n  - id: t\n    convention: aima\n    game: tree\n"
        "    tree: {A: {B: [1], C: [2]}}\n    functions: [minmax_decision]\n"
        "    checks: [{kind: action}, {kind: value}]\n")
    with pytest.raises(TaskFileError, match=r"t.yaml:7: a value check cannot judge the aima "
                       r"convention \(its functions return the action alone, no value\); "
                       r"judge the action, the visited nodes, their count or the horizon"):
        load_course(tmp_path / "t.yaml")


# -- multi-agent: what real students write ------------------------------------------------
MULTI_AGENT = CONVENTIONS / "multi-agent"


@pytest.fixture
def standins():
    """The stand-in modules util, game and pacman, imported as a student's file imports them
    (and forgotten afterwards, so that no other test sees them)."""
    import importlib
    import sys
    from grader.conventions import STANDINS
    names = ("util", "game", "pacman")
    saved = {name: sys.modules.pop(name) for name in names if name in sys.modules}
    sys.path.insert(0, STANDINS)
    try:
        yield {name: importlib.import_module(name) for name in names}
    finally:
        sys.path.remove(STANDINS)
        for name in names:
            sys.modules.pop(name, None)
        sys.modules.update(saved)


def test_the_stand_ins_define_every_public_name_of_the_pacman_projects_modules(standins):
    import yaml
    originals = yaml.safe_load((MULTI_AGENT / "original-names.yaml").read_text())
    missing = {module: [n for n in names if not hasattr(standins[module], n)]
               for module, names in originals.items()}
    assert missing == {"util": [], "game": [], "pacman": []}


def test_the_stand_ins_pure_helpers_work_and_their_stubs_say_they_are_stand_ins(standins):
    from grader.conventions.stubs import StandInUnavailable
    util, game, pacman = standins["util"], standins["game"], standins["pacman"]
    queue = util.PriorityQueue()
    for item, priority in (("b", 2), ("a", 1), ("c", 2)):
        queue.push(item, priority)
    queue.update("c", 0)
    assert [queue.pop() for _ in range(3)] == ["c", "a", "b"]
    counter = util.Counter({"x": 2, "y": 3})
    assert (counter["z"], counter.argMax(), counter.totalCount()) == (0, "y", 5)
    assert util.manhattanDistance((0, 0), (2, -3)) == 5
    assert game.Actions.directionToVector(game.Directions.NORTH) == (0, 1)
    assert game.Actions.vectorToDirection((-1, 0)) == game.Directions.WEST
    assert game.Directions.REVERSE[game.Directions.EAST] == game.Directions.WEST
    assert pacman.parseAgentArgs("depth=3,evalFn=better") == {"depth": "3", "evalFn": "better"}

    class AnnotatedState(pacman.GameState):   # naming and subclassing a stub is fine
        pass
    for use, standin in ((lambda: game.Grid(3, 3), "game.Grid"),
                         (lambda: AnnotatedState(), "pacman.GameState"),
                         (lambda: pacman.runGames([], []), "pacman.runGames"),
                         (lambda: pacman.PacmanRules.getLegalActions(None), "pacman.PacmanRules"),
                         (lambda: util.TimeoutFunction(print, 1), "util.TimeoutFunction")):
        with pytest.raises(StandInUnavailable, match=r"is a stand-in in this grader: .* is "
                                                     r"not available during grading") as caught:
            use()
        assert caught.value.standin == standin


def test_get_legal_actions_answers_for_an_agent_not_to_move_as_the_original_does():
    import json
    from grader.conventions.multi_agent import TreeGameState
    from grader.games import make_game
    course = load_course(MULTI_AGENT / "tasks.yaml")
    game, root = make_game(json.loads(course.task("two-ghosts").game_spec))
    state = TreeGameState(game, root)                     # agent 0 to move
    assert state.getLegalActions(1) == state.getLegalActions(2) == ["left", "right"]
    leaf = state
    for agent, action in ((0, "left"), (1, "left-g1"), (2, "a"), (0, "a1")):
        assert leaf.getLegalActions((agent + 1) % 3) == leaf.getLegalActions(agent)
        leaf = leaf.generateSuccessor(agent, action)
    assert [leaf.getLegalActions(agent) for agent in range(3)] == [[], [], []]
    with pytest.raises(ValueError, match="it is agent 0's turn"):
        state.generateSuccessor(1, "left")     # a tree node has moves for one agent only
    with pytest.raises(ValueError, match=r"no agent 3: agents are numbered 0\.\.2"):
        state.getLegalActions(3)


LEVELS = ("bubblewrap", "container", "process")


def _level_works(level):
    from grader.sandbox.bubblewrap import bubblewrap_works
    from grader.sandbox.levels import container_works
    return {"bubblewrap": bubblewrap_works, "container": container_works,
            "process": lambda: True}[level]()


@pytest.mark.parametrize("level", LEVELS)
def test_a_real_students_file_with_unused_imports_and_numpy_gets_full_marks(level, child_script):
    """`from game import Agent, AgentState, Grid, Actions, Directions`, `import numpy` (the
    course provides it), getLegalActions(agentIndex) of an agent not to move as the terminal
    test: full marks at every isolation level."""
    from grader.batch import budget_of, prepare
    from grader.grading import grade_submission
    if not _level_works(level):
        pytest.skip(f"the {level} level does not work here")
    course = load_course(MULTI_AGENT / "tasks.yaml")
    assert course.packages == ("numpy",)
    plan, answers = prepare(course)
    result = grade_submission(plan, answers, child_script, MULTI_AGENT / "echt",
                              budget_of(course), level)
    assert [(v.check.id, v.reason, v.facts) for v in result.verdicts if not v.passed] == []
    assert result.score == result.max_score == 6


def _feedback(result, course):
    from grader.report.messages import Catalogue
    from grader.report.views import student_view
    return str(student_view(result, course, Catalogue("en"), html=False))


def test_a_package_the_course_does_not_provide_is_named_with_the_line_that_uses_it(grade):
    course = load_course(MULTI_AGENT / "tasks.yaml")
    result = grade(MULTI_AGENT / "fremdes-paket", course)
    assert result.score == 0
    minimax = [v for v in result.verdicts if v.check.function == "MinimaxAgent"]
    assert {(v.reason, v.facts["package"], v.facts["used"], v.facts["line"])
            for v in minimax} == {("item.error", "pandas", "pandas.Series", 29)}
    assert ("Your function uses pandas.Series (multiAgents.py, line 29): this course does not "
            "provide the package pandas (it provides: numpy).") in _feedback(result, course)


def test_an_unused_import_of_a_package_the_course_does_not_provide_loads(grade):
    """An editor's auto-import nobody uses (pkg_resources) loads, as the project's own
    autograder loads it; an import guarded by `except ImportError` keeps its fallback."""
    course = load_course(MULTI_AGENT / "tasks.yaml")
    result = grade(MULTI_AGENT / "unbenutzter-import", course)
    assert [(v.check.id, v.reason) for v in result.verdicts if not v.passed] == []


def test_numpy_is_out_of_reach_when_the_course_does_not_provide_it(grade):
    from dataclasses import replace
    course = replace(load_course(MULTI_AGENT / "tasks.yaml"), packages=())
    result = grade(MULTI_AGENT / "echt", course)
    assert {(v.reason, v.facts.get("package")) for v in result.verdicts} == {
        ("item.error", "numpy")}
    assert ("Your function uses numpy.array (multiAgents.py, line 56): this course does not "
            "provide the package numpy (it provides: none).") in _feedback(result, course)


def test_a_stand_in_used_during_the_search_says_it_is_a_stand_in(grade):
    course = load_course(MULTI_AGENT / "tasks.yaml")
    result = grade(MULTI_AGENT / "platzhalter", course)
    minimax = [v for v in result.verdicts if v.check.function == "MinimaxAgent"]
    assert {(v.reason, v.facts.get("standin")) for v in minimax} == {("item.error", "game.Grid")}
    assert ("Your function uses game.Grid (multiAgents.py, line 19): game.Grid is a stand-in in "
            "this grader and not available during grading") in _feedback(result, course)


@pytest.mark.parametrize("packages, message", [
    ("[no-such-package-anywhere]", r"t.yaml:3: package 'no-such-package-anywhere' is not "
                                   r"installed in the grader's environment"),
    ("numpy", r"t.yaml:3: 'packages' must be a list of package names"),
    ("[gametree-grader]", r"t.yaml:3: gametree-grader is the grader itself"),
    ("['numpy; rm -rf /']", r"t.yaml:3: 'numpy; rm -rf /' is not a package name"),
    ("[json]", r"t.yaml:3: json is part of Python's standard library"),
])
def test_course_packages_are_checked_with_file_and_line(tmp_path, packages, message):
    from grader.tasks import TaskFileError
    (tmp_path / "t.yaml").write_text(
        f"course:\n  title: t\n  packages: {packages}\n"
        "tasks:\n  - id: t\n    game: tree\n    tree: {A: {B: [1], C: [2]}}\n"
        "    functions: [minimax]\n    checks: [{kind: value}]\n")
    with pytest.raises(TaskFileError, match=message):
        load_course(tmp_path / "t.yaml")


def test_numpy_scalars_a_student_returns_are_plain_numbers():
    import numpy as np
    from grader.sandbox.child import plain
    assert plain([np.int64(3), np.float32(1.5), np.bool_(True), np.float64("nan")]) == [
        3, 1.5, True, {"__float__": "nan"}]
    assert plain(np.array([1, 2]))["__unsupported__"] == "ndarray"


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
