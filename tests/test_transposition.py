"""Transposition tables, NegaScout and MTD(f): the references against plain alpha-beta, the
``table`` and ``window`` checks judged without processes, their task-file errors, and the
course ``courses/transposition`` graded for real (two correct students in different styles,
one student per catalogue mistake, plain alpha-beta handed in, answers learnt by heart)."""

import json
import random

import pytest

from grader.answers.search import answer_search
from grader.calls import ItemOutcome, Observation
from grader.checks import KINDS
from grader.checks.common import search_call
from grader.games import make_game, make_rules
from grader.answers.pins import verify_pins
from grader.answers.book import AnswerBook
from grader.answers.proof import proven_bounds
from grader.report.messages import Catalogue
from grader.report.writers import render_student
from grader.tasks import Check, TaskFileError, load_course
from reference.minimax import alphabeta, minimax
from reference.transposition import alphabeta_tt, least_saving_visits, mtdf, negascout
from reference.transposition_variants import FAMILIES, MISTAKES_OF

from conftest import DATA, ROOT

COURSE = ROOT / "courses" / "transposition" / "tasks"
STUDENTS = ROOT / "courses" / "transposition" / "submissions"
CORRECT = ("korrekt", "korrekt-negamax")
# example student -> (function, the mistake it makes)
FAULTY = {"schranke-als-exakt": ("alphabeta_tt", "tt-bound-as-exact"),
          # the same mistake in the negamax form, the table asked after is_terminal
          "schranke-als-exakt-negamax": ("alphabeta_tt", "tt-bound-as-exact-late"),
          "flags-vertauscht": ("alphabeta_tt", "tt-flags-swapped"),
          "tabelle-ohne-tiefe": ("alphabeta_tt", "tt-ignores-depth"),
          "negascout-ohne-nachsuche": ("negascout", "negascout-no-research"),
          "mtdf-ohne-flags": ("mtdf", "mtdf-bound-as-exact")}


def searched(search, spec, depth, **options):
    game, root = make_game(spec)
    value, action = search(game, root, depth, **options)
    return value, action, game.visit_log()


def tictactoe_positions(free, count, seed):
    rng = random.Random(seed)
    rules = make_rules({"kind": "tictactoe", "board": "........."})
    found = []
    while len(found) < count:
        state = rules.initial_state()
        for _ in range(9 - free):
            state = rules.result(state, rng.choice(rules.actions(state)))
            if rules.is_terminal(state):
                break
        if not rules.is_terminal(state) and state not in found:
            found.append(state)
    return [{"kind": "tictactoe", "board": board} for board in found]


# -- the references ---------------------------------------------------------------------
@pytest.mark.parametrize("spec, depth", [
    *[(spec, None) for spec in tictactoe_positions(6, 8, seed=3)],
    ({"kind": "kalah", "pits": 3, "stones": 3}, 6),
    ({"kind": "kalah", "pits": 2, "stones": 3}, None),
    ({"kind": "kalah", "board": [0, 2, 3, 3, 6, 2, 0, 2], "to_move": "MIN"}, 5),
    ({"kind": "connect4", "columns": 4, "rows": 4, "connect": 3,
      "board": "..../..O./..X./OXXO"}, None),
])
def test_the_searches_after_alpha_beta_find_alpha_betas_value_and_action(spec, depth):
    value, action, plain = searched(alphabeta, spec, depth)
    for search in (alphabeta_tt, negascout, mtdf):
        assert searched(search, spec, depth)[:2] == (value, action), search.__name__
    with_table = searched(alphabeta_tt, spec, depth)[2]
    assert len(with_table["visits"]) <= len(plain["visits"])
    game, root = make_game(spec)
    least_saving_visits(game, root, depth)
    assert len(game.visit_log()["visits"]) <= len(plain["visits"])


def test_a_table_saves_nodes_where_positions_recur():
    spec = {"kind": "tictactoe", "board": "X...OX..."}
    _, _, plain = searched(alphabeta, spec, None)
    _, _, with_table = searched(alphabeta_tt, spec, None)
    assert (len(plain["visits"]), len(with_table["visits"])) == (241, 125)


def test_the_null_window_searches_refuse_values_that_are_not_whole_numbers():
    spec = {"kind": "connect4", "board": "......./......./......./...O.../..XX.../..OXO.."}
    for search in (negascout, mtdf):
        with pytest.raises(ValueError, match="whole-number values"):
            searched(search, spec, 2)


@pytest.mark.parametrize("function", sorted(FAMILIES))
def test_each_family_without_a_mistake_is_the_reference_call_for_call(function):
    reference = {"alphabeta_tt": alphabeta_tt, "negascout": negascout, "mtdf": mtdf}[function]
    for spec, depth in [({"kind": "tictactoe", "board": "X...O...."}, 4),
                        ({"kind": "kalah", "board": [0, 2, 3, 3, 6, 2, 0, 2],
                          "to_move": "MIN"}, 5)]:
        assert searched(reference, spec, depth) == searched(FAMILIES[function], spec, depth)


@pytest.mark.parametrize("spec, depth", [({"kind": "tictactoe", "board": "X...OX..."}, None),
                                         ({"kind": "tictactoe", "board": "X...O...."}, 4)])
def test_the_late_form_of_a_table_is_the_most_frugal_table(spec, depth):
    # The catalogue's second form of each table mistake is the table that asks is_terminal
    # first and keeps no leaves: without a mistake, least_saving_visits call for call.
    game, root = make_game(spec)
    value, action = least_saving_visits(game, root, depth)
    late = searched(lambda g, s, d: FAMILIES["alphabeta_tt"](g, s, d, late=True), spec, depth)
    assert late == (value, action, game.visit_log())


def test_the_table_rule_keeps_entries_of_shallower_searches_out():
    # In this Kalah position a state recurs with more plies left than when it was stored:
    # the reference does not use that entry, the variant that ignores the depth does.
    spec = {"kind": "kalah", "board": [0, 2, 3, 3, 6, 2, 0, 2], "to_move": "MIN"}
    assert searched(alphabeta_tt, spec, 5)[0] == searched(alphabeta, spec, 5)[0] == 2
    assert searched(lambda g, s, d: FAMILIES["alphabeta_tt"](g, s, d,
                                                             mistake="tt-ignores-depth"),
                    spec, 5)[0] == 1


# -- the checks, judged without processes -----------------------------------------------
@pytest.fixture(scope="module")
def tt_course():
    return load_course(COURSE)


@pytest.fixture(scope="module")
def book():
    return AnswerBook()


def judged(course, book, task_id, function, kind, search, **options):
    """The verdict of the task's ``kind`` check of ``function`` on what ``search`` does."""
    task = course.task(task_id)
    check = next(c for c in task.checks if c.kind == kind and c.function == function)
    if options:
        check = Check(**{**check.__dict__, "options": tuple(sorted(options.items()))})
    spec = json.loads(task.game_spec)
    value, action, log = searched(search, spec, task.depth)
    observation = Observation("ok", (ItemOutcome("ok", [value, action], log),))
    return KINDS[kind].judge(check, [observation], [book[search_call(task, function)]])


def only_first_line(game, state, depth):
    """Walks down the first actions to one leaf and answers the reference's value."""
    node, left = state, depth
    while not game.is_terminal(node) and left != 0:
        node = game.result(node, game.actions(node)[0])
        left = None if left is None else left - 1
    game.is_terminal(node)
    return 0, 1


def test_a_table_check_passes_the_reference_and_the_most_frugal_table(tt_course, book):
    for search in (alphabeta_tt, least_saving_visits):
        verdict = judged(tt_course, book, "tt-ttt-ende", "alphabeta_tt", "table", search)
        assert verdict.passed, verdict
    verdict = judged(tt_course, book, "tt-ttt-ende", "alphabeta_tt", "table", least_saving_visits)
    assert (verdict.facts["observed"], verdict.facts["compared"]) == (177, 241)


def test_plain_alpha_beta_earns_no_table_points_where_a_table_saves(tt_course, book):
    verdict = judged(tt_course, book, "tt-ttt-ende", "alphabeta_tt", "table", alphabeta)
    assert (verdict.passed, verdict.reason) == (False, "table.no-saving")
    assert verdict.facts["observed"] == verdict.facts["compared"] == 241
    text = Catalogue("en").text(f"reason.{verdict.reason}", **verdict.facts)
    assert "You visit 241 nodes, as many as plain alpha-beta without a table (241)" in text
    # where even the most frugal table saves nothing, no saving is asked for
    verdict = judged(tt_course, book, "tt-kalah-tiefe5", "alphabeta_tt", "table", alphabeta)
    assert verdict.passed, verdict


def test_more_nodes_than_plain_alpha_beta_or_than_at_most_fail_the_table_check(tt_course, book):
    verdict = judged(tt_course, book, "tt-ttt-ende", "alphabeta_tt", "table", minimax)
    assert (verdict.reason, verdict.facts["observed"], verdict.facts["compared"]) == \
        ("table.too-many", 1277, 241)
    verdict = judged(tt_course, book, "tt-ttt-ende", "alphabeta_tt", "table", alphabeta_tt,
                     at_most=124)
    assert (verdict.reason, verdict.facts["at_most"]) == ("table.at-most", 124)
    assert judged(tt_course, book, "tt-ttt-ende", "alphabeta_tt", "table", alphabeta_tt,
                  at_most=125).passed


def test_a_right_value_without_a_search_that_proves_it_earns_nothing(tt_course, book):
    for kind, function in (("table", "alphabeta_tt"), ("window", "negascout"),
                           ("window", "mtdf")):
        verdict = judged(tt_course, book, "tt-ttt-ende", function, kind, only_first_line)
        assert (verdict.passed, verdict.reason) == (False, f"{kind}.no-proof"), verdict


def test_a_wrong_value_fails_the_table_and_the_window_check(tt_course, book):
    def wrong(game, state, depth):
        value, action = alphabeta(game, state, depth)
        return value + 1, action
    for kind, function in (("table", "alphabeta_tt"), ("window", "mtdf")):
        verdict = judged(tt_course, book, "tt-ttt-tiefe4", function, kind, wrong)
        assert (verdict.reason, verdict.facts["expected"], verdict.facts["observed_value"]) \
            == (f"{kind}.value", -1, 0)


def test_a_window_check_bounds_the_count_by_minimax_and_passes_every_correct_search(tt_course,
                                                                                  book):
    for search in (negascout, mtdf, alphabeta, minimax):
        verdict = judged(tt_course, book, "tt-kalah-tiefe5", "negascout", "window", search)
        assert verdict.passed and verdict.facts["compared"] == 107, (search, verdict)
    verdict = judged(tt_course, book, "tt-kalah-tiefe5", "mtdf", "window", mtdf, at_most=71)
    assert verdict.reason == "window.at-most"


def test_proofs_follow_transpositions_to_the_first_node_of_a_position(book, tt_course):
    task = tt_course.task("tt-ttt-ende")
    answer = book[search_call(task, "alphabeta_tt")][0]
    _, _, log = searched(alphabeta_tt, json.loads(task.game_spec), None)
    assert proven_bounds(log["visits"], answer) == (0, 0)
    # without the transpositions the table's visits prove far less
    bare = {**answer, "transposed": {}}
    assert proven_bounds(log["visits"], bare) != (0, 0)
    assert proven_bounds(["root"], answer) == (float("-inf"), float("inf"))


# -- task files -------------------------------------------------------------------------
def test_table_and_window_checks_refuse_what_they_cannot_judge():
    path = DATA / "transposition" / "bad.yaml"
    with pytest.raises(TaskFileError) as error:
        load_course(path)
    problems = {(p.line, p.message) for p in error.value.problems}
    assert any(line == 8 and "a table check needs a game with positions that recur" in m
               for line, m in problems), problems
    assert any(line == 14 and "a table check does not apply to alphabeta" in m
               for line, m in problems), problems
    assert any(line == 21 and "at_most must be a whole number of nodes >= 1" in m
               for line, m in problems), problems
    # exact visits are no fair check of a table: visited, count and horizon are refused
    assert any(line == 28 and "a visited check does not apply to alphabeta_tt" in m
               for line, m in problems), problems
    assert len(problems) == 4, problems


def test_a_task_where_a_deeper_entry_changes_the_value_is_refused(book):
    problems = verify_pins(load_course(DATA / "transposition" / "unfair.yaml"), book)
    assert [(p.line, "with its table the reference finds 8, plain alpha-beta 6" in p.message)
            for p in problems] == [(4, True)]


def test_the_courses_pins_match_the_reference(tt_course, book):
    assert verify_pins(tt_course, book) == []
    assert {task.id for task in tt_course.tasks} == {
        "tt-ttt-ende", "tt-ttt-tiefe4", "tt-kalah-tiefe5", "tt-kalah-tiefe5-zweite",
        "tt-c4-tiefe4"}


def test_the_answers_carry_the_counts_the_checks_compare_with():
    spec = {"kind": "tictactoe", "board": "X...OX..."}
    answer = answer_search("alphabeta_tt", spec, None, True)
    assert answer["compared"] == {"alphabeta": 241, "minimax": 1277}
    assert answer["least_saving"] == 177 and len(answer["visits"]) == 125
    assert "transposed" in answer and "min_nodes" in answer
    assert "transposed" not in answer_search("alphabeta", spec, None, True)


# -- the tt_course, graded for real --------------------------------------------------------
@pytest.fixture(scope="module")
def graded(grade, tt_course):
    students = {name: STUDENTS / name for name in (*CORRECT, *FAULTY)}
    students.update({name: DATA / "transposition" / name
                     for name in ("ohne-tabelle", "auswendig", "tabelle-global")})
    return {name: grade(folder, tt_course) for name, folder in students.items()}


def diagnoses(result):
    return {name for v in result.verdicts if not v.passed
            for name in v.facts.get("diagnosis") or ()}


@pytest.mark.parametrize("student", CORRECT)
def test_correct_tables_of_either_style_get_full_marks(graded, tt_course, student):
    result = graded[student]
    assert [v.check.id for v in result.verdicts if not v.passed] == []
    assert result.score == result.max_score == tt_course.max_score


@pytest.mark.parametrize("student", sorted(FAULTY))
def test_each_mistake_is_caught_and_named(graded, tt_course, student):
    function, mistake = FAULTY[student]
    result = graded[student]
    failed = [v for v in result.verdicts if not v.passed]
    assert failed and {v.check.function for v in failed} == {function}
    assert diagnoses(result) == {mistake}
    for language in ("de", "en"):
        catalogue = Catalogue(language)
        page = render_student(result, tt_course, catalogue)["feedback.md"]
        assert catalogue.lookup(f"mistake.{mistake}") in page
    assert mistake in MISTAKES_OF[function]


def test_plain_alpha_beta_handed_in_loses_the_table_points_where_a_table_saves(graded):
    result = graded["ohne-tabelle"]
    failed = {v.check.id: v.reason for v in result.verdicts if not v.passed}
    assert failed == {"tt-ttt-ende/alphabeta_tt/table": "table.no-saving",
                      "tt-ttt-tiefe4/alphabeta_tt/table": "table.no-saving",
                      "tt-c4-tiefe4/alphabeta_tt/table": "table.no-saving"}


def test_a_table_kept_between_calls_fails_hygiene_and_the_next_task(graded):
    # The repeated call finds the root in the old table and searches nothing; the next task
    # on the same board with a depth limit takes the entries searched to the end.
    result = graded["tabelle-global"]
    failed = {v.check.id: v.reason for v in result.verdicts if not v.passed}
    assert failed == {"tt-ttt-ende/alphabeta_tt/hygiene": "search.none",
                      "tt-ttt-tiefe4/alphabeta_tt/value": "value.wrong",
                      "tt-ttt-tiefe4/alphabeta_tt/action": "action.suboptimal",
                      "tt-ttt-tiefe4/alphabeta_tt/table": "table.value"}


def test_answers_learnt_by_heart_earn_nothing_on_the_table_and_window_checks(graded):
    result = graded["auswendig"]
    new = [v for v in result.verdicts if v.check.kind in ("table", "window")]
    assert new and all(v.score == 0 for v in new)
    assert {v.reason for v in new} <= {"table.no-proof", "window.no-proof", "table.value",
                                       "window.value"}


def test_the_self_check_kit_judges_tables_without_the_reference(tmp_path):
    # The table and window checks judge from the precomputed answer alone: the kit carries
    # them, and names the mistake as `grader check --tasks` does.
    from test_kit import kit_feedback_as_grader_s
    mine = kit_feedback_as_grader_s(COURSE, STUDENTS / "schranke-als-exakt", tmp_path)
    assert any(Catalogue("de").lookup("mistake.tt-bound-as-exact") in test["output"]
               for test in mine["tests"])


def test_the_answer_cache_key_covers_the_new_modules():
    # A changed table rule or proof must never be answered from a stale cache.
    from grader.answers.cache import answer_sources
    sources = {path.relative_to(ROOT).as_posix() for path in answer_sources()}
    assert {"reference/transposition.py", "reference/transposition_variants.py",
            "grader/answers/proof.py"} <= sources
