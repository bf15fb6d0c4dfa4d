"""Quiescence search: the games' noisy rules, the task files that set them, the reference
against a brute force of the test's own, the quiescence check as a pure function, and the
course ``ruhesuche`` graded for real (two correct students written differently, one student
per catalogue mistake, and students that do no search)."""

import json
import random

import pytest

from grader.calls import ItemOutcome, Observation
from grader.checks import KINDS
from grader.checks.common import search_call
from grader.games import make_game, make_rules
from grader.report.messages import Catalogue
from grader.report.writers import render_student
from grader.tasks import TaskFileError, load_course
from reference.quiescence import quiescence
from reference.variants import MISTAKES_OF, run

from conftest import DATA, ROOT
from test_kalah import Position

COURSE = ROOT / "courses" / "ruhesuche" / "tasks"
STUDENTS = ROOT / "courses" / "ruhesuche" / "submissions"
FAULTY = {"horizont-unruhig": "noisy-evaluated", "ohne-grenze": "extension-unbounded",
          "falsche-sicht": "extension-wrong-view"}
CORRECT = ("korrekt", "korrekt-hilfsfunktion", "korrekt-negamax")


def kalah(board, to_move="MAX", noisy="captures"):
    return make_rules({"kind": "kalah", "board": board, "to_move": to_move, "noisy": noisy})


# -- the games' noisy rules -------------------------------------------------------------
def test_a_kalah_position_is_noisy_when_the_mover_can_capture():
    # MAX's stone from pit 0 lands in the empty pit 1, facing pit 5 with 2 stones
    rules = kalah([1, 0, 2, 0, 1, 2, 0, 0])
    assert rules.noisy_actions(rules.initial_state()) == [0]
    assert not rules.is_quiet(rules.initial_state())
    # opposite an empty pit nothing is captured: quiet
    rules = kalah([1, 0, 2, 0, 1, 0, 0, 0])
    assert rules.noisy_actions(rules.initial_state()) == []
    assert rules.is_quiet(rules.initial_state())


def test_extra_turns_are_noisy_only_where_the_task_says_so():
    start = ((3, 3, 3, 0, 3, 3, 3, 0), "MAX")           # pit 0's last stone: MAX's store
    assert kalah([3, 3, 3, 0, 3, 3, 3, 0]).noisy_actions(start) == []
    both = kalah([3, 3, 3, 0, 3, 3, 3, 0], noisy="captures-and-extra-turns")
    assert both.noisy_actions(start) == [0]
    # MIN's too: the stone from pit 6 lands in MIN's store 7
    assert both.noisy_actions(((1, 1, 0, 0, 2, 0, 1, 0), "MIN")) == [6]


def test_terminal_positions_are_quiet_and_a_task_without_a_rule_has_none():
    over = kalah([0, 0, 0, 4, 1, 2, 0, 3])
    assert over.is_quiet(over.initial_state()) and over.noisy_actions(over.initial_state()) == []
    plain = make_rules({"kind": "kalah", "pits": 3, "stones": 3})
    with pytest.raises(ValueError, match="defines no noisy positions"):
        plain.is_quiet(plain.initial_state())
    with pytest.raises(ValueError, match="unknown noisy rule 'threats'"):
        kalah([3, 3, 3, 0, 3, 3, 3, 0], noisy="threats")


def test_a_connect_four_position_is_noisy_when_the_mover_can_complete_a_line():
    spec = {"kind": "connect4", "columns": 4, "rows": 3, "connect": 3, "noisy": "threats"}
    rules = make_rules({**spec, "board": "..../O.../XX.O"})     # X to move wins in column 2
    assert rules.noisy_actions(rules.initial_state()) == [2]
    # O to move cannot complete a line (X's threat is not O's move): quiet
    rules = make_rules({**spec, "board": "..../..../XX.O"})
    assert rules.to_move(rules.initial_state()) == "O" and rules.is_quiet(rules.initial_state())


def test_the_recording_game_offers_is_quiet_and_counts_it_as_a_visit():
    game, root = make_game({"kind": "kalah", "board": [1, 0, 2, 0, 1, 2, 0, 0],
                            "noisy": "captures"})
    child = game.result(root, 2)
    assert game.is_quiet(child) is False and game.noisy_actions(child) == [4]
    assert game.visit_log()["visits"] == ["2"]
    other, state = make_game({"kind": "tictactoe", "board": "X.O/.X./..O"})
    with pytest.raises(AttributeError, match="noisy: rule"):
        other.is_quiet(state)


# -- task files -------------------------------------------------------------------------
def test_quiescence_task_file_errors_are_reported_with_file_and_line():
    with pytest.raises(TaskFileError) as error:
        load_course(DATA / "ruhesuche" / "bad.yaml")
    problems = {(p.line, p.message) for p in error.value.problems}
    assert all(str(DATA / "ruhesuche" / "bad.yaml") == p.file for p in error.value.problems)
    expected = {10: "noisy: needs a game that defines noisy positions; tictactoe does not",
                18: "unknown noisy rule 'threats' for kalah; use one of captures, "
                    "captures-and-extra-turns",
                27: "extension must be a whole number of plies from 1 to 10",
                35: "extension: is how far a noisy position extends the horizon",
                43: "quiescence: a quiescence search needs the task to say which positions "
                    "are noisy",
                49: "a quiescence search extends the horizon of a depth-limited search",
                59: "a random-trees check does not apply to quiescence",
                67: "a quiescence check does not apply to minimax",
                75: "a horizon check does not apply to quiescence"}
    for line, fragment in expected.items():
        assert any(at == line and fragment in message for at, message in problems), \
            (line, sorted(problems))
    assert len(problems) == len(expected), sorted(problems)


def test_solve_lists_the_quiescence_answers(capsys):
    from grader.cli import main
    assert main(["solve", str(COURSE), "--json", "--no-cache"]) == 0
    rows = {row["task"]: row for row in json.loads(capsys.readouterr().out)}
    assert (rows["ruhe-zusatzzug"]["function"], rows["ruhe-zusatzzug"]["value"],
            rows["ruhe-zusatzzug"]["move"], rows["ruhe-zusatzzug"]["visited"]) == \
        ("quiescence", 1, 2, 30)


def test_a_function_of_another_name_with_the_quiescence_reference_needs_the_rule_too(tmp_path):
    text = (DATA / "ruhesuche" / "bad.yaml").read_text().split("  - id: extension-zero")[0]
    text = text.replace("modules: {quiescence: ruhesuche, minimax: minimax}",
                        "modules: {ruhig: ruhesuche, minimax: minimax}")
    text += ("  - id: renamed\n    game: kalah\n    pits: 3\n    stones: 3\n    depth: 2\n"
             "    functions: [ruhig]\n    reference: {ruhig: quiescence}\n"
             "    checks: [{kind: value}]\n")
    (tmp_path / "renamed.yaml").write_text(text)
    with pytest.raises(TaskFileError) as error:
        load_course(tmp_path / "renamed.yaml")
    assert any("ruhig: a quiescence search needs the task to say which positions are noisy"
               in p.message for p in error.value.problems), error.value.problems


def test_the_course_carries_the_rule_in_its_game_specs():
    course = load_course(COURSE)
    spec = json.loads(course.task("ruhe-zusatzzug").game_spec)
    assert spec == {"kind": "kalah", "board": [2, 3, 4, 1, 3, 3, 4, 2], "to_move": "MAX",
                    "noisy": "captures-and-extra-turns", "extension": 2}
    assert {c.kind for c in course.task("ruhe-schlagen").checks} == \
        {"value", "action", "visited", "quiescence", "count"}


# -- the reference against a brute force of the test's own ------------------------------
def sow(position, pit):
    """The sides after sowing ``pit`` (before any capture) and where the last stone landed:
    ``"store"`` or ``(side, index)``, in the test's own Kalah (each side's pits from its
    owner's left, the stores apart)."""
    n, me = len(position.sides[0]), position.mover
    sides = [list(position.sides[0]), list(position.sides[1])]
    hand, sides[me][pit] = sides[me][pit], 0
    side, index = me, pit
    while hand:
        index += 1
        if index == n:                      # past the last pit: a store, or the other side
            if side == me:
                hand -= 1
                if not hand:
                    return sides, "store"
            side, index = 1 - side, -1
            continue
        sides[side][index] += 1
        hand -= 1
    return sides, (side, index)


def noisy_move(position, pit, rule):
    """A capture (the last stone alone in a pit of the mover's, stones opposite) or, with
    ``captures-and-extra-turns``, a last stone in the mover's own store."""
    sides, landing = sow(position, pit)
    if landing == "store":
        return rule == "captures-and-extra-turns"
    (side, index), me, n = landing, position.mover, len(position.sides[0])
    return side == me and sides[me][index] == 1 and sides[1 - me][n - 1 - index] > 0


def brute_force(position, depth, extension, rule, root):
    """(root value, [(action, value)]): minimax (no pruning) under the quiescence rule, store
    differences at the horizon, from the root mover's view."""
    def diff(p):
        return p.stores[root] - p.stores[1 - root]

    def value(p, ply):
        if p.over():
            return diff(p) + sum(p.sides[root]) - sum(p.sides[1 - root])
        quiet = not any(noisy_move(p, m, rule) for m in p.moves())
        if ply >= depth and (ply >= depth + extension or quiet):
            return diff(p)
        values = [value(p.play(m), ply + 1) for m in p.moves()]
        return max(values) if p.mover == root else min(values)

    children = [(position.action(m), value(position.play(m), 1)) for m in position.moves()]
    return max(v for _, v in children), children


def test_the_independent_noisy_rule_agrees_with_the_games_on_random_positions():
    rng = random.Random(7)
    for _ in range(300):
        pits = rng.choice((2, 3, 4))
        board = [rng.randint(0, 4) for _ in range(2 * pits + 2)]
        to_move = rng.choice(("MAX", "MIN"))
        for rule in ("captures", "captures-and-extra-turns"):
            rules = kalah(board, to_move, rule)
            state = rules.initial_state()
            position = Position.from_board(board, to_move)
            if rules.is_terminal(state):
                continue
            mine = [position.action(m) for m in position.moves() if noisy_move(position, m, rule)]
            assert rules.noisy_actions(state) == mine, (board, to_move, rule)


@pytest.mark.parametrize("task_id", ["ruhe-schlagen", "ruhe-zusatzzug", "ruhe-min-am-zug"])
def test_the_courses_answers_agree_with_an_independent_brute_force(task_id):
    task = load_course(COURSE).task(task_id)
    spec = json.loads(task.game_spec)
    position = Position.from_board(spec["board"], spec["to_move"])
    expected, action_values = brute_force(position, task.depth, spec["extension"],
                                          spec["noisy"], position.mover)
    game, root = make_game(spec)
    assert quiescence(game, root, task.depth, extension=spec["extension"]) == \
        (expected, next(a for a, v in action_values if v == expected))
    pins = {function: dict((k, v) for k, v, _ in fields) for function, fields, _ in task.pins}
    assert pins["quiescence"]["value"] == expected


def test_the_reference_agrees_with_the_brute_force_on_random_positions():
    rng = random.Random(12)
    checked = 0
    while checked < 60:
        pits = rng.choice((2, 3))
        board = [rng.randint(0, 3) for _ in range(2 * pits + 2)]
        to_move, rule = rng.choice(("MAX", "MIN")), rng.choice(("captures",
                                                                 "captures-and-extra-turns"))
        spec = {"kind": "kalah", "board": board, "to_move": to_move, "noisy": rule}
        if make_rules(spec).is_terminal(make_rules(spec).initial_state()):
            continue
        depth, extension = rng.choice((1, 2, 3)), rng.choice((1, 2, 3))
        position = Position.from_board(board, to_move)
        expected, action_values = brute_force(position, depth, extension, rule, position.mover)
        for prune in (True, False):
            game, root = make_game(spec)
            value, action = quiescence(game, root, depth, prune, extension)
            assert (value, action) == (expected, next(a for a, v in action_values
                                                      if v == expected)), (spec, depth)
        checked += 1


def test_every_task_extends_its_horizon_and_every_mistake_shows_on_it():
    from grader.answers.book import AnswerBook
    course, answers = load_course(COURSE), AnswerBook()
    for task in course.tasks:
        call = search_call(task, "quiescence")
        answer = answers[call][0]
        beyond = [n for n in answer["visits"] if n in set(answer["extension"])]
        assert len(beyond) >= 8 and answer["noisy"], task.id
        for mistake in MISTAKES_OF["quiescence"]:
            variant = answers.variant(call, mistake)[0]
            assert (variant["value"], variant["action"], variant["visits"]) != \
                (answer["value"], answer["action"], answer["visits"]), (task.id, mistake)
        # a plain depth-limited search misjudges the first two positions' values
        if task.id != "ruhe-min-am-zug":
            assert answers.variant(call, "noisy-evaluated")[0]["value"] != answer["value"]


def test_the_extension_stops_at_its_limit_however_noisy_the_line():
    spec = json.loads(load_course(COURSE).task("ruhe-zusatzzug").game_spec)
    game, root = make_game(spec)
    quiescence(game, root, 2, extension=2)
    bounded = game.visit_log()["visits"]
    assert max(n.count("-") + 1 for n in bounded if n != "root") == 4
    game, root = make_game(spec)
    run("extension-unbounded", "quiescence", game, root, 2, True, {"extension": 2})
    assert max(n.count("-") + 1 for n in game.visit_log()["visits"] if n != "root") > 4


def load_student(folder):
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"student_{folder.name}",
                                                  folder / "ruhesuche.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.quiescence


def test_connect_four_threats_extend_the_horizon_and_the_correct_students_follow():
    # The students are written for Kalah but ask only the game: on Connect Four with
    # noisy: threats they search exactly the reference's nodes.
    from grader.answers.book import AnswerBook
    task = load_course(DATA / "ruhesuche" / "connect4.yaml").task("c4-drohungen")
    call = search_call(task, "quiescence")
    answers = AnswerBook()
    answer = answers[call][0]
    assert len([n for n in answer["visits"] if n in set(answer["extension"])]) == 32
    assert answers.variant(call, "noisy-evaluated")[0]["visits"] != answer["visits"]
    for student in CORRECT:
        game, root = make_game(json.loads(task.game_spec))
        value, action = load_student(STUDENTS / student)(game, root, task.depth)
        assert (value, action) == (answer["value"], answer["action"]), student
        assert game.visit_log()["visits"] == answer["visits"], student
        assert game.visit_log()["evaluate_calls"] == answer["evaluate_calls"], student


# -- the check, judged without processes ------------------------------------------------
@pytest.fixture(scope="module")
def judged():
    from grader.answers.book import AnswerBook
    course, answers = load_course(COURSE), AnswerBook()
    task = course.task("ruhe-schlagen")
    check = next(c for c in task.checks if c.kind == "quiescence")
    answer = answers[search_call(task, "quiescence")]

    def judge(returned, visits, evaluate_calls, foreign=0):
        log = {"visits": list(visits), "utility_calls": [],
               "evaluate_calls": list(evaluate_calls), "foreign_states": foreign}
        return KINDS["quiescence"].judge(check, [Observation("ok", (ItemOutcome(
            "ok", returned, log),))], [answer])
    return judge, answer[0]


def test_the_references_own_log_passes(judged):
    judge, answer = judged
    verdict = judge([0, 0], answer["visits"], answer["evaluate_calls"])
    assert verdict.passed and verdict.facts["extension"] == 10


def test_no_search_or_a_root_only_search_earns_nothing(judged):
    judge, answer = judged
    assert judge([0, 0], [], []).reason == "search.none"
    assert judge([0, 0], ["root"], []).reason == "search.none"


def test_evaluating_a_noisy_position_is_named(judged):
    judge, answer = judged
    noisy = [n for n in answer["visits"] if n in answer["noisy"]][0]
    verdict = judge([0, 0], answer["visits"], [*answer["evaluate_calls"], noisy])
    assert not verdict.passed and verdict.reason == "quiescence.noisy-evaluated"
    assert verdict.facts["nodes"] == [noisy]


def test_a_quiet_position_left_unevaluated_or_a_node_outside_the_tree_fails(judged):
    judge, answer = judged
    evaluated = answer["evaluate_calls"]
    verdict = judge([0, 0], answer["visits"], evaluated[1:])
    assert verdict.reason == "quiescence.not-evaluated" and verdict.facts["nodes"] == evaluated[:1]
    below = f"{evaluated[0]}-0"
    verdict = judge([0, 0], [*answer["visits"], below], evaluated)
    assert verdict.reason == "quiescence.outside" and verdict.facts["nodes"] == [below]


def test_a_different_number_of_extension_nodes_fails(judged):
    judge, answer = judged
    last_beyond = [n for n in answer["visits"] if n in answer["extension"]
                   and n not in answer["evaluate_calls"]][-1]
    visits = [n for n in answer["visits"] if n != last_beyond]
    verdict = judge([0, 0], visits, answer["evaluate_calls"])
    assert verdict.reason == "quiescence.extension-count"
    assert (verdict.facts["observed"], verdict.facts["reference"]) == (9, 10)


# -- the course, graded for real --------------------------------------------------------
@pytest.fixture(scope="module")
def graded(grade):
    course = load_course(COURSE)
    return course, {student: grade(STUDENTS / student, course)
                    for student in (*CORRECT, *FAULTY)}


def diagnoses(result):
    return {name for v in result.verdicts if not v.passed
            for name in v.facts.get("diagnosis") or ()}


@pytest.mark.parametrize("student", CORRECT)
def test_correct_quiescence_searches_get_full_marks(graded, student):
    course, results = graded
    result = results[student]
    assert result.score == result.max_score == course.max_score == 16
    assert all(v.passed for v in result.verdicts)


def test_the_feedback_states_each_tasks_quiescence_rule(graded):
    course, results = graded
    files = render_student(results["korrekt"], course, Catalogue("de"))
    for page in (files["feedback.md"], files["feedback.html"]):
        assert page.count("höchstens 2 Halbzüge über den Horizont hinaus") == 3
        assert "in der der Spieler am Zug schlagen kann oder einen Zusatzzug hat" in page
    english = render_student(results["korrekt"], course, Catalogue("en"))["feedback.md"]
    assert "a position is noisy (game.is_quiet is false) when the player to move can " \
        "capture;" in english


@pytest.mark.parametrize("student", sorted(FAULTY))
def test_each_catalogue_mistake_is_caught_and_named(graded, student):
    course, results = graded
    result = results[student]
    failed = [v for v in result.verdicts if not v.passed]
    assert {v.check.task_id for v in failed} == {t.id for t in course.tasks}
    assert {v.check.kind for v in failed} >= {"visited", "quiescence"}
    assert diagnoses(result) == {FAULTY[student]}
    for language in ("de", "en"):
        markdown = render_student(result, course, Catalogue(language))["feedback.md"]
        assert Catalogue(language).lookup(f"mistake.{FAULTY[student]}") in markdown


def test_the_quiescence_check_says_what_each_mistake_breaks(graded):
    _, results = graded
    reasons = {student: {v.reason for v in results[student].verdicts
                         if v.check.kind == "quiescence"} for student in FAULTY}
    assert reasons["horizont-unruhig"] == {"quiescence.noisy-evaluated"}
    assert reasons["ohne-grenze"] == {"quiescence.outside"}
    assert reasons["falsche-sicht"] == {"quiescence.extension-count"}


@pytest.mark.parametrize("student", ["hartkodiert", "nur-wurzel", "alles-ohne-evaluate"])
def test_students_that_do_not_search_earn_nothing_on_the_quiescence_check(grade, student):
    course = load_course(COURSE)
    result = grade(DATA / "ruhesuche" / student, course)
    quiet = [v for v in result.verdicts if v.check.kind == "quiescence"]
    assert len(quiet) == 3 and not any(v.passed for v in quiet)
    if student != "alles-ohne-evaluate":    # it walks the tree: its value has evidence
        assert result.score == 0
    else:
        assert {v.reason for v in quiet} == {"quiescence.not-evaluated"}


def test_the_self_check_kit_names_the_mistake_without_the_reference(tmp_path):
    # The kit carries the course as JSON and the answers precomputed: the quiescence check
    # judges from those alone, so the kit runs it like `grader check --tasks`.
    from test_kit import kit_feedback_as_grader_s
    mine = kit_feedback_as_grader_s(COURSE, STUDENTS / "ohne-grenze", tmp_path)
    assert any(Catalogue("de").lookup("mistake.extension-unbounded") in test["output"]
               for test in mine["tests"])
