"""Iterative deepening and the principal variation (issue 12): the model solutions against
minimax, the recorder's rounds (one per search from the root), the checks ``iterations``,
``iteration-visits`` and ``line`` judged without processes, the course courses/vertiefung
graded for real (two correct styles, one student per catalogue mistake, a hard-coded and a
full-depth-only student), and its self-check kit."""

import json
import tempfile
from pathlib import Path

import pytest

from grader.answers.book import AnswerBook
from grader.batch import budget_of
from grader.sandbox.boundary import CallReply, Malformed, decode
from grader.calls import ItemOutcome, Observation
from grader.checks import KINDS
from grader.checks.common import search_call
from grader.checks.line import follow
from grader.answers.deepening import answer_deepening
from grader.games import make_game
from grader.grading import Plan, grade_submission
from grader.answers.heuristics import heuristic_table
from grader.kit import build_kit, load_kit
from grader.answers.pins import verify_pins
from grader.report.messages import Catalogue
from grader.report.views import student_view
from grader.sandbox.staging import stage_runner
from grader.tasks import TaskFileError, load_course
from reference.deepening import iterative_deepening, principal_variation
from reference.evaluation import EVALUATIONS
from reference.minimax import alphabeta, minimax
from reference.variants import MISTAKES_OF

from conftest import DATA, ROOT

COURSE = ROOT / "courses" / "vertiefung"
STUDENTS = COURSE / "submissions"
OTHERS = DATA / "vertiefung"
FUNCTIONS = ("iterative_deepening", "principal_variation")
# One example student per catalogue mistake, named in German as the course's students are.
MISTAKE_STUDENTS = {
    "iterations-from-zero": "iterationen-ab-null",
    "last-iteration-missing": "letzte-iteration-fehlt",
    "first-iteration-action": "zug-der-ersten-iteration",
    "line-reversed": "variante-verkehrt",
    "line-of-last-child": "variante-letztes-kind",
    "line-one-short": "variante-ein-zug-zu-kurz",
}
CORRECT = ("korrekt", "korrekt-tabelle")


def tictactoe(board, depth):
    spec = {"kind": "tictactoe", "board": board, "heuristic": "tictactoe-lines"}
    spec["heuristic_values"] = heuristic_table(spec, depth, EVALUATIONS["tictactoe-lines"])
    return spec


POSITIONS = [
    (tictactoe("X...O....", 3), 3),
    (tictactoe("X..OO..X.", 4), 4),
    (tictactoe(".........", 2), 2),
    ({"kind": "connect4", "columns": 5, "rows": 4, "connect": 4,
      "board": "...../...../..O../.XXO."}, 4),
    ({"kind": "connect4", "columns": 4, "rows": 4, "connect": 3,
      "board": "..../..O./..X./OXXO"}, 5),          # games end on the way
    ({"kind": "kalah", "pits": 3, "stones": 3, "to_move": "MAX"}, 5),   # extra turns
]
POSITION_IDS = ["ttt-z1", "ttt-z3", "ttt-empty", "c4-5x4", "c4-drei", "kalah-3x3"]


# -- the model solutions ---------------------------------------------------------------------
@pytest.mark.parametrize("spec, depth", POSITIONS, ids=POSITION_IDS)
@pytest.mark.parametrize("prune", [True, False], ids=["cut-on-equality", "cut-strictly"])
def test_the_reference_line_is_a_full_line_of_optimal_play(spec, depth, prune):
    answer = answer_deepening("principal_variation", spec, depth, prune)
    value, line = answer["returned"]
    nodes, problem = follow(line, answer)
    assert problem is None, problem
    assert value == answer["values"][answer["root"]]
    assert len(line) == depth or nodes[-1] in answer["terminals"]


@pytest.mark.parametrize("spec, depth", POSITIONS, ids=POSITION_IDS)
def test_each_iteration_of_the_reference_gives_minimax_s_value_and_an_optimal_move(spec, depth):
    game, root = make_game(spec)
    iterations = iterative_deepening(game, root, depth)
    assert len(iterations) == depth
    answer = answer_deepening("iterative_deepening", spec, depth, True)
    for limit, ((value, action), facts) in enumerate(zip(iterations, answer["iterations"]), 1):
        plain, plain_root = make_game(spec)
        assert value == minimax(plain, plain_root, limit)[0] == facts["value"]
        assert action in facts["optimal_actions"]


def test_the_references_refuse_a_search_without_a_depth_limit():
    game, root = make_game(tictactoe("X...O....", 1))
    for search in (iterative_deepening, principal_variation):
        with pytest.raises(ValueError, match="depth limit"):
            search(game, root, None)


def test_the_reference_tries_the_previous_iteration_s_best_move_first():
    spec = tictactoe("X...O....", 3)
    game, root = make_game(spec)
    iterative_deepening(game, root, 3)
    rounds = game.visit_log()["rounds"]
    best_of_first = iterative_deepening(*make_game(spec), 1)[0][1]
    assert [r["visits"][0] for r in rounds[1:]] == [str(best_of_first), "2"]


# -- the recorder's rounds -------------------------------------------------------------------
def test_one_search_has_no_rounds_and_each_iteration_is_one_round():
    spec = tictactoe("X...O....", 3)
    game, root = make_game(spec)
    alphabeta(game, root, 3)
    assert "rounds" not in game.visit_log()
    game, root = make_game(spec)
    for limit in (1, 2, 3):
        minimax(game, root, limit)
    rounds = game.visit_log()["rounds"]
    assert len(rounds) == 3
    for limit, visited in enumerate(rounds, start=1):
        assert "root" not in visited["visits"]
        assert max(len(node.split("-")) for node in visited["visits"]) == limit
        assert set(visited["evaluate_calls"]) <= {n for n in visited["visits"]
                                                  if len(n.split("-")) == limit}


def test_generating_the_root_s_children_before_the_iterations_adds_no_round():
    game, root = make_game(tictactoe("X...O....", 2))
    children = [game.result(root, action) for action in game.actions(root)]
    assert children and "rounds" not in game.visit_log()
    for limit in (1, 2):
        alphabeta(game, root, limit)
    assert len(game.visit_log()["rounds"]) == 2


def test_rounds_pass_the_trust_boundary_and_nothing_else_does():
    log = {"visits": ["root", "1"], "utility_calls": [], "evaluate_calls": ["1"],
           "foreign_states": 0,
           "rounds": [{"visits": ["1"], "utility_calls": [], "evaluate_calls": ["1"]},
                      {"visits": ["1"], "utility_calls": [], "evaluate_calls": ["1"]}]}
    reply = {"status": "ok", "items": [{"status": "ok", "returned": [], "log": log}]}
    decoded = decode(json.dumps(reply).encode(), CallReply)
    assert not isinstance(decoded, Malformed) and len(decoded.items[0].log.rounds) == 2
    log["rounds"][1]["secret"] = 1
    assert isinstance(decode(json.dumps(reply).encode(), CallReply), Malformed)


# -- the judges, without processes -------------------------------------------------------------
@pytest.fixture(scope="module")
def vertiefung():
    return load_course(COURSE / "tasks")


@pytest.fixture(scope="module")
def book():
    return AnswerBook()


def run_in_process(search, spec):
    """An observation of ``search(game, root)`` run here, with the real recording game."""
    game, root = make_game(spec)
    returned = json.loads(json.dumps(search(game, root)))
    return Observation("ok", (ItemOutcome("ok", returned, game.visit_log()),))


def judge(vertiefung, book, task_id, kind, search):
    task = vertiefung.task(task_id)
    check = next(c for c in task.checks if c.kind == kind)
    call = search_call(task, check.function)
    observation = run_in_process(search, call.inputs()[0])
    return KINDS[kind].judge(check, [observation], [book[call]])


def test_the_reference_itself_passes_every_new_check(vertiefung, book):
    for task in vertiefung.tasks:
        depth = task.depth
        for kind, search in (("iterations", lambda g, r: iterative_deepening(g, r, depth)),
                             ("iteration-visits", lambda g, r: iterative_deepening(g, r, depth)),
                             ("line", lambda g, r: principal_variation(g, r, depth))):
            verdict = judge(vertiefung, book, task.id, kind, search)
            assert verdict.passed, (task.id, kind, verdict.reason, verdict.facts)


def test_iterations_with_minimax_and_without_reordering_pass_too(vertiefung, book):
    def plain(game, root):
        return [minimax(game, root, limit) for limit in (1, 2, 3)]
    assert judge(vertiefung, book, "ttt-z1-tiefe3", "iterations", plain).passed
    verdict = judge(vertiefung, book, "ttt-z1-tiefe3", "iteration-visits", plain)
    assert verdict.passed and verdict.facts["counts"] == verdict.facts["minimax"] == [8, 50, 260]


def test_an_iteration_that_evaluates_a_ply_early_or_searches_too_deep_is_named(vertiefung, book):
    def early(game, root):
        return [minimax(game, root, 1), minimax(game, root, 1), minimax(game, root, 3)]
    verdict = judge(vertiefung, book, "ttt-z1-tiefe3", "iteration-visits", early)
    assert (verdict.reason, verdict.facts["iteration"]) == ("iteration-visits.early", 2)

    def deep(game, root):
        return [minimax(game, root, 2), minimax(game, root, 2), minimax(game, root, 3)]
    verdict = judge(vertiefung, book, "ttt-z1-tiefe3", "iteration-visits", deep)
    assert (verdict.reason, verdict.facts["iteration"]) == ("iteration-visits.below", 1)


def test_iterations_that_reuse_the_root_s_children_are_one_round(vertiefung, book):
    """The limit of telling iterations apart: children kept from one iteration for the next
    are never generated again, so the log shows one search, and the feedback says why."""
    def reusing(game, root):
        children = [(a, game.result(root, a)) for a in game.actions(root)]
        results = []
        for limit in (1, 2, 3):
            values = [(minimax(game, child, limit - 1)[0] * -1, a) for a, child in children]
            results.append(max(values, key=lambda pair: pair[0]))
        return results
    verdict = judge(vertiefung, book, "ttt-z1-tiefe3", "iteration-visits", reusing)
    assert (verdict.reason, verdict.facts["counts"]) == ("iteration-visits.rounds", [260])
    assert "game.result" in Catalogue("en").text(f"reason.{verdict.reason}", **verdict.facts)


def test_wrong_iteration_lists_fail_with_what_is_wrong(vertiefung, book):
    def shifted(game, root):      # the values of depth 2, 3 and 3
        return [alphabeta(game, root, limit) for limit in (2, 3, 3)]
    verdict = judge(vertiefung, book, "ttt-z1-tiefe3", "iterations", shifted)
    assert (verdict.reason, verdict.facts["iteration"]) == ("iterations.value", 1)

    def no_list(game, root):
        return alphabeta(game, root, 3)
    assert judge(vertiefung, book, "ttt-z1-tiefe3", "iterations", no_list).reason == \
        "iterations.shape"


def test_any_optimal_line_is_accepted_and_a_line_must_be_earned(vertiefung, book):
    task = vertiefung.task("ttt-z3-tiefe4")
    answer = book[search_call(task, "principal_variation")][0]
    values, root = answer["values"], answer["root"]
    # the last optimal move at every node instead of the first one searched
    node, other = root, []
    while node in answer["children"]:
        action, node = [(a, c) for a, c in answer["children"][node]
                        if values[c] == values[root]][-1]
        other.append(action)
    assert other != answer["returned"][1], "the position has two optimal lines"

    def full_minimax(game, state):   # visits every node within the depth
        return minimax(game, state, task.depth)[0], other
    assert judge(vertiefung, book, task.id, "line", full_minimax).passed

    def pruning(game, state):        # alpha-beta never reaches that line's last node
        return alphabeta(game, state, task.depth)[0], other
    verdict = judge(vertiefung, book, task.id, "line", pruning)
    assert verdict.reason == "line.no-evidence"


@pytest.mark.parametrize("line, reason", [
    ([3, 2, 3, 3, 0], "line.too-long"), ([3, 2, 3], "line.too-short"),
    ([3, 2, 9, 3], "line.illegal"), ([1, 2, 3, 3], "line.not-optimal"),
    ("3-2-3-3", "line.shape")])
def test_a_line_that_is_not_a_principal_variation_fails_with_its_reason(vertiefung, book, line,
                                                                        reason):
    def search(game, state):
        value, _ = alphabeta(game, state, 4)
        return (value, line) if reason != "line.shape" else line
    assert judge(vertiefung, book, "c4-5x4-tiefe4", "line", search).reason == reason


def test_a_hard_coded_reply_earns_none_of_the_new_checks(vertiefung, book):
    for task in vertiefung.tasks:
        reply = {kind: book[search_call(task, function)][0]["returned"]
                 for kind, function in (("iterations", "iterative_deepening"),
                                        ("iteration-visits", "iterative_deepening"),
                                        ("line", "principal_variation"))}
        for kind, returned in reply.items():
            verdict = judge(vertiefung, book, task.id, kind, lambda game, root: returned)
            assert not verdict.passed and verdict.score == 0, (task.id, kind)


# -- pinned answers ----------------------------------------------------------------------------
def test_pins_of_the_techniques_are_verified_at_their_line(tmp_path, book):
    text = (COURSE / "tasks" / "vertiefung.yaml").read_text()
    assert load_course(COURSE / "tasks").task("ttt-z1-tiefe3").pins, "the course pins answers"
    wrong = (text.replace("values: [3, -2, 3]", "values: [3, 3, 3]")
             .replace("line: [8, 1, 6]", "line: [8, 1]")
             .replace("visited: [8, 24, 112]", "visited: [8, 50, 260]"))
    path = tmp_path / "vertiefung.yaml"
    path.write_text(wrong)
    problems = verify_pins(load_course(path), book)
    pinned_at = next(n for n, line in enumerate(wrong.splitlines(), 1) if "[3, 3, 3]" in line)
    messages = {p.message for p in problems}
    assert [p.line for p in problems] == [pinned_at, pinned_at, pinned_at + 1]
    assert any("values are pinned to [3, 3, 3], minimax per depth gives [3, -2, 3]" in m
               for m in messages)
    assert any("visited is pinned to [8, 50, 260]" in m for m in messages)
    assert any("line is pinned to [8, 1], which is no line of optimal play" in m
               for m in messages)
    path.write_text(text.replace("line: [8, 1, 6]", "action: 8"))
    with pytest.raises(TaskFileError, match="unknown key 'action'; known keys here: value, "
                                            "line, visited"):
        load_course(path)


# -- the course, graded for real ---------------------------------------------------------------
@pytest.fixture(scope="module")
def graded(grade, vertiefung):
    folders = [STUDENTS / name for name in (*CORRECT, *MISTAKE_STUDENTS.values())]
    folders += sorted(p for p in OTHERS.iterdir() if p.is_dir())
    return {folder.name: grade(folder, vertiefung) for folder in folders}


def feedback(result, vertiefung) -> str:
    view = student_view(result, vertiefung, Catalogue(vertiefung.language), html=False)
    return "\n".join(str(c["message"]) for task in view["tasks"] for c in task["checks"])


def test_every_catalogue_mistake_has_an_example_student():
    mistakes = {m for function in FUNCTIONS for m in MISTAKES_OF[function]}
    assert set(MISTAKE_STUDENTS) == mistakes
    assert all((STUDENTS / name / "vertiefung.py").is_file() for name in MISTAKE_STUDENTS.values())


@pytest.mark.parametrize("student", CORRECT)
def test_a_correct_student_gets_full_marks_in_either_style(graded, vertiefung, student):
    result = graded[student]
    assert [v.check.id for v in result.verdicts if not v.passed] == []
    assert result.score == result.max_score == vertiefung.max_score == 18


def test_the_feedback_reports_the_visits_of_each_iteration(graded, vertiefung):
    text = feedback(graded["korrekt"], vertiefung)
    assert "besuchte Knoten je Iteration (mit Wurzel) 8 / 24 / 112, Minimax: 8 / 50 / 260" in text
    assert "Principal-Variation [8, 1, 6]" in text


@pytest.mark.parametrize("mistake, student", sorted(MISTAKE_STUDENTS.items()))
def test_each_mistake_is_caught_and_named(graded, vertiefung, mistake, student):
    result = graded[student]
    failed = [v for v in result.verdicts if not v.passed]
    function = next(f for f in FUNCTIONS if mistake in MISTAKES_OF[f])
    assert failed and all(v.check.function == function for v in failed)
    named = {m for v in failed for m in v.facts.get("diagnosis") or ()}
    assert named == {mistake}
    assert Catalogue("de").lookup(f"mistake.{mistake}") in feedback(result, vertiefung)


@pytest.mark.parametrize("student", ["hart-kodiert", "nur-volle-tiefe"])
def test_answers_without_the_search_behind_them_earn_nothing(graded, student):
    result = graded[student]
    assert result.score == 0 and result.problem is None
    assert {v.reason for v in result.verdicts} & {"iterations.no-evidence",
                                                  "iteration-visits.rounds"}


# -- the self-check kit ------------------------------------------------------------------------
def test_the_kit_judges_the_new_checks_without_the_reference(vertiefung, tmp_path):
    build_kit(vertiefung, AnswerBook(), tmp_path / "kit", wheel=False)
    kit = load_kit(tmp_path / "kit")
    assert kit.hidden == 1
    plan = Plan.of(kit.course, only_visible=True)
    with tempfile.TemporaryDirectory() as stage:
        runner = stage_runner(Path(stage))
        right = grade_submission(plan, kit.answers, runner, STUDENTS / "korrekt",
                                 budget_of(kit.course))
        reversed_line = grade_submission(plan, kit.answers, runner,
                                         STUDENTS / "variante-verkehrt", budget_of(kit.course))
    assert right.score == right.max_score == vertiefung.max_score - 1
    named = {m for v in reversed_line.verdicts if not v.passed
             for m in v.facts.get("diagnosis") or ()}
    assert named == {"line-reversed"}


# -- the other style: iterations that keep the game's order ---------------------------------
ID_MISTAKES = [(m, s) for m, s in sorted(MISTAKE_STUDENTS.items())
               if m in MISTAKES_OF["iterative_deepening"]]


def in_game_order(source_folder, folder):
    """The student of ``source_folder`` with iterations that do not try the previous best
    move first: every iteration searches the root's moves in the game's order."""
    text = (source_folder / "vertiefung.py").read_text()
    assert "zuerst=bester_zug" in text
    folder.mkdir()
    (folder / "vertiefung.py").write_text(text.replace(", zuerst=bester_zug", ""))
    return folder


def test_iterations_in_the_game_s_order_get_full_marks(grade, vertiefung, tmp_path):
    result = grade(in_game_order(STUDENTS / "korrekt", tmp_path / "ohne-umsortieren"),
                   vertiefung)
    assert result.score == result.max_score == 18


@pytest.mark.parametrize("mistake, student", ID_MISTAKES)
def test_a_mistake_is_named_in_either_style_of_iterations(grade, vertiefung, tmp_path, mistake,
                                                          student):
    result = grade(in_game_order(STUDENTS / student, tmp_path / student), vertiefung)
    failed = [v for v in result.verdicts if not v.passed]
    assert failed and {m for v in failed for m in v.facts.get("diagnosis") or ()} == {mistake}
