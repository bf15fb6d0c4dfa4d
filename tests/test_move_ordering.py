"""Move ordering and killer moves (issue 12): a student's ``order(game, state, actions)`` is
judged by what it does to the reference's alpha-beta (the ``ordering`` check), a student's
``alphabeta_killer`` by its exact visits; the course ``courses/zugsortierung`` graded for
real, its faulty students caught and named, students who do nothing earning nothing, and the
self-check kit leaving the ordering checks to the hand-in."""

import json
import random
from dataclasses import replace

import pytest

from grader.answers.book import AnswerBook
from grader.answers.search import answer_search, search_with_orders
from grader.answers.facts import tree_facts
from grader.batch import budget_of, prepare
from grader.calls import ItemOutcome, Observation
from grader.checks import KINDS
from grader.checks.ordering import MAX_POSITIONS, permutation_problem, positions
from grader.games import make_game, make_rules
from grader.grading import grade_submission
from grader.mistakes import behaves_alike
from grader.report.messages import Catalogue
from grader.report.writers import render_student
from grader.tasks import TaskFileError, load_course
from reference.minimax import minimax
from reference.techniques import alphabeta_killer, order

from conftest import DATA, ROOT

COURSE = ROOT / "courses" / "zugsortierung" / "tasks"
STUDENTS = ROOT / "courses" / "zugsortierung" / "submissions"
CORRECT = ("korrekt", "eigener-stil")
# example student -> (the function with the mistake, the catalogue's mistake)
MISTAKEN = {"falscher-spieler": ("order", "order-wrong-player"),
            "nur-bester-zug": ("order", "order-best-only"),
            "doppelter-zug": ("order", "order-duplicates"),
            "ein-killer": ("alphabeta_killer", "killer-global"),
            "killer-ohne-schnitt": ("alphabeta_killer", "killer-any-best"),
            "ohne-killer": ("alphabeta_killer", "killer-ignored")}
DO_NOTHING = DATA / "zugsortierung"


@pytest.fixture(scope="module")
def course():
    return load_course(COURSE)


@pytest.fixture(scope="module")
def prepared_course(course):
    return prepare(course)


@pytest.fixture(scope="module")
def graded(course, prepared_course, child_script):
    plan, answers = prepared_course
    folders = {name: STUDENTS / name for name in (*CORRECT, *MISTAKEN)}
    folders.update({folder.name: folder for folder in DO_NOTHING.iterdir()})
    return {name: grade_submission(plan, answers, child_script, folder, budget_of(course))
            for name, folder in folders.items()}


def diagnoses(result):
    return {name for v in result.verdicts if not v.passed
            for name in v.facts.get("diagnosis") or ()}


# -- the course, graded for real ------------------------------------------------------------
@pytest.mark.parametrize("student", CORRECT)
def test_correct_orderings_and_killer_searches_get_full_marks(graded, course, student):
    result = graded[student]
    assert [v.reason for v in result.verdicts if not v.passed] == []
    assert result.score == result.max_score == course.max_score


def test_the_ordering_verdict_reports_both_counts_and_the_models(graded):
    facts = {v.check.task_id: v.facts for v in graded["korrekt"].verdicts
             if v.check.kind == "ordering"}
    assert {task: (f["observed"], f["plain"], f["model"], f["at_most"])
            for task, f in facts.items()} == {
        "kalah-sortierung": (70, 210, 70, 140),
        "vier-gewinnt-sortierung": (189, 858, 189, 400)}
    # the other style (extra turns, then captured stones; columns from the centre outwards)
    other = {v.check.task_id: v.facts["observed"] for v in graded["eigener-stil"].verdicts
             if v.check.kind == "ordering"}
    assert other == {"kalah-sortierung": 69, "vier-gewinnt-sortierung": 189}


@pytest.mark.parametrize("student", sorted(MISTAKEN))
def test_each_catalogue_mistake_is_caught_and_named(graded, course, student):
    function, mistake = MISTAKEN[student]
    result = graded[student]
    failed = [v for v in result.verdicts if not v.passed]
    assert failed and {v.check.function for v in failed} == {function}
    assert {v.check.task_id for v in failed} == {t.id for t in course.tasks
                                                 if function in t.functions}
    assert diagnoses(result) == {mistake}
    for language in ("de", "en"):
        catalogue = Catalogue(language)
        page = render_student(result, course, catalogue)["feedback.md"]
        assert catalogue.lookup(f"mistake.{mistake}") in page
        assert catalogue.lookup(f"pseudocode.{mistake}") in page


def test_a_reply_that_is_no_permutation_names_the_position_and_what_is_wrong(graded, course):
    duplicated = next(v for v in graded["doppelter-zug"].verdicts
                      if v.check.task_id == "kalah-sortierung")
    assert duplicated.reason == "ordering.not-permutation"
    assert (duplicated.facts["node"], duplicated.facts["repeated"], duplicated.facts["missing"]) \
        == ("root", [1], [])
    assert duplicated.facts["bad"] == duplicated.facts["positions"] == 228
    dropped = next(v for v in graded["nur-bester-zug"].verdicts
                   if v.check.task_id == "vier-gewinnt-sortierung")
    assert dropped.facts["missing"] == [0, 1, 2, 4, 5, 6] and dropped.facts["repeated"] == []
    page = render_student(graded["nur-bester-zug"], course, Catalogue("en"))["feedback.md"]
    assert "Missing: 0, 1, 2, 4, 5, 6." in page


def test_sorting_for_the_wrong_player_visits_more_than_the_games_own_order(graded):
    verdict = next(v for v in graded["falscher-spieler"].verdicts
                   if v.check.task_id == "vier-gewinnt-sortierung")
    assert verdict.reason == "ordering.too-many"
    assert verdict.facts["observed"] > verdict.facts["plain"] > verdict.facts["at_most"]


@pytest.mark.parametrize("student", ["nichts-tun", "umgekehrt-fest"])
def test_doing_nothing_or_reversing_blindly_earns_nothing(graded, student):
    result = graded[student]
    assert [v.check.id for v in result.verdicts if v.passed] == []
    assert result.score == 0
    reasons = {v.check.task_id: v.reason for v in result.verdicts if v.check.kind == "ordering"}
    if student == "nichts-tun":   # the game's own order: exactly as many nodes, not fewer
        assert set(reasons.values()) == {"ordering.too-many"}
        assert all(v.facts["observed"] == v.facts["plain"] for v in result.verdicts
                   if v.check.kind == "ordering")
    else:   # reversing is a permutation, even a slightly better one in Kalah: not enough
        kalah = next(v for v in result.verdicts if v.check.task_id == "kalah-sortierung")
        assert kalah.facts["plain"] > kalah.facts["observed"] > kalah.facts["at_most"]


# -- the judge, without processes -----------------------------------------------------------
@pytest.fixture(scope="module")
def kalah_ordering(course):
    task = course.task("kalah-sortierung")
    check = next(c for c in task.checks if c.kind == "ordering")
    call = KINDS["ordering"].calls(task, check)[0]
    return check, call, AnswerBook()[call]


def replies(answers, reply_of):
    return Observation("ok", tuple(ItemOutcome("ok", reply_of(a), {"visits": []})
                                   for a in answers))


def test_the_judge_passes_the_model_ordering_and_refuses_the_games_own(kalah_ordering):
    check, _, answers = kalah_ordering
    model = KINDS["ordering"].judge(check, [replies(answers, lambda a: a["returned"])],
                                    [answers])
    assert model.passed and model.facts["observed"] == model.facts["model"] == 70
    same = KINDS["ordering"].judge(check, [replies(answers, lambda a: a["actions"])], [answers])
    assert same.reason == "ordering.too-many" and same.facts["observed"] == 210
    # without at_most the bound is "fewer than the game's own order"
    unbounded = replace(check, options=(("at_most", None),))
    assert KINDS["ordering"].judge(unbounded, [replies(answers, lambda a: a["actions"])],
                                   [answers]).reason == "ordering.not-fewer"
    reversed_order = KINDS["ordering"].judge(
        unbounded, [replies(answers, lambda a: a["actions"][::-1])], [answers])
    assert reversed_order.passed and reversed_order.facts["observed"] == 193


def test_the_judge_names_the_first_position_whose_reply_is_no_permutation(kalah_ordering):
    check, _, answers = kalah_ordering
    wrong_at = answers[5]["node"]

    def reply(answer):
        if answer["node"] == wrong_at:
            return answer["actions"][1:] + [99]
        return answer["returned"]
    verdict = KINDS["ordering"].judge(check, [replies(answers, reply)], [answers])
    assert verdict.reason == "ordering.not-permutation" and verdict.facts["bad"] == 1
    assert verdict.facts["node"] == wrong_at != "root"
    assert verdict.facts["missing"] == answers[5]["actions"][:1]
    assert verdict.facts["foreign"] == [99]
    text = Catalogue("de").text(f"reason.{verdict.reason}", **verdict.facts)
    assert "Keine Züge dieser Stellung: 99." in text


def test_a_failing_position_is_named_with_the_students_error(kalah_ordering):
    check, _, answers = kalah_ordering
    items = [ItemOutcome("ok", a["returned"], {"visits": []}) for a in answers]
    items[3] = ItemOutcome("error", None, None, {"type": "KeyError", "message": "7"})
    verdict = KINDS["ordering"].judge(check, [Observation("ok", tuple(items))], [answers])
    assert verdict.reason == "item.error" and verdict.facts["node"] == answers[3]["node"]
    timeout = KINDS["ordering"].judge(check, [Observation("timeout", error={"seconds": 4})],
                                      [answers])
    assert timeout.reason == "call.timeout"


def test_permutation_problems_tell_missing_repeated_and_foreign_actions():
    assert permutation_problem([2, 0, 1], [0, 1, 2]) is None
    assert permutation_problem("012", [0, 1, 2])["problem"] == "not-list"
    problem = permutation_problem([1, 1, 5], [0, 1, 2])
    assert (problem["missing"], problem["repeated"], problem["foreign"]) == ([0, 2], [1], [5])


def test_the_positions_are_the_interior_nodes_within_the_depth_root_first(course):
    for task_id in ("kalah-sortierung", "vier-gewinnt-sortierung"):
        task = course.task(task_id)
        spec = json.loads(task.game_spec)
        paths = positions(task.game_spec, task.depth)
        facts = tree_facts(spec, task.depth)
        leaves = set(facts["horizon"]) | set(facts["terminals"])
        interior = ["root"] + [n for n in facts["siblings"] if n not in leaves]
        assert paths[0] == ()
        assert sorted("-".join(map(str, p)) or "root" for p in paths) == sorted(interior)


def test_a_game_matches_a_mistake_on_its_whole_reply():
    outcome = ItemOutcome("ok", [1, 0, 1, 2, 3], {"visits": []})
    assert behaves_alike(outcome, {"returned": [1, 0, 1, 2, 3]})
    assert not behaves_alike(outcome, {"returned": [1, 0, 2, 3]})
    assert not behaves_alike(ItemOutcome("error", None, None, {}), {"returned": [1]})


# -- the model solutions --------------------------------------------------------------------
def random_kalah_positions(count, seed):
    rules = make_rules({"kind": "kalah", "pits": 3, "stones": 3})
    generator, found = random.Random(seed), []
    while len(found) < count:
        state = rules.initial_state()
        for _ in range(generator.randrange(0, 8)):
            if rules.is_terminal(state):
                break
            state = rules.result(state, generator.choice(rules.actions(state)))
        if not rules.is_terminal(state):
            found.append({"kind": "kalah", "board": list(state[0]), "to_move": state[1]})
    return found


def test_killer_moves_and_orderings_keep_the_minimax_value():
    for spec in random_kalah_positions(25, seed=12):
        expected = minimax(*make_game(spec), 5)[0]
        assert alphabeta_killer(*make_game(spec), 5)[0] == expected
        game, root = make_game(spec)
        paths = positions(json.dumps(spec), 5)
        orders = {}
        for path in paths:
            state = root
            for move in path:
                state = game.result(state, move)
            orders[game.node_of(state)] = order(game, state, game._rules.actions(state))
        assert search_with_orders(spec, 5, orders, True)["value"] == expected


def test_the_killer_of_a_ply_is_tried_first_where_it_is_legal(course):
    # In the Kalah task the killer search tries some node's children against action order,
    # and only ever by moving one action (the ply's killer) to the front.
    task = course.task("kalah-killer")
    spec = json.loads(task.game_spec)
    killer = answer_search("alphabeta_killer", spec, task.depth, True)
    plain = answer_search("alphabeta", spec, task.depth, True)
    assert killer["value"] == plain["value"] and len(killer["visits"]) < len(plain["visits"])
    siblings = killer["siblings"]
    first_children = {}
    for node in killer["visits"]:
        parent, position = siblings.get(node, (None, None))
        if parent is not None:
            first_children.setdefault(parent, []).append(position)
    reordered = {p: seen for p, seen in first_children.items() if seen != sorted(seen)}
    assert reordered, "killers changed the order somewhere"
    for seen in reordered.values():
        assert seen[1:] == sorted(seen[1:]) and seen[0] > seen[1]


# -- task files ------------------------------------------------------------------------------
def write_task(tmp_path, checks, game="kalah", extra=("pits: 3", "stones: 3", "depth: 4")):
    lines = ["tasks:", "  - id: sortierung", f"    game: {game}",
             *(f"    {line}" for line in extra),
             "    functions: [order]", "    module: zugsortierung", "    checks:",
             f"      - {checks}"]
    (tmp_path / "t.yaml").write_text("\n".join(lines) + "\n")
    return tmp_path / "t.yaml"


def test_ordering_task_file_errors_are_reported_with_file_and_line(tmp_path):
    path = write_task(tmp_path, "{kind: ordering, points: 1, at_most: 0}")
    with pytest.raises(TaskFileError) as error:
        load_course(path)
    assert "t.yaml:10: at_most must be a whole number" in str(error.value)
    tree = write_task(tmp_path, "{kind: ordering, points: 1}", game="tree",
                      extra=("tree: {A: {B: [1, 2], C: [3]}}",))
    with pytest.raises(TaskFileError, match="ordering check needs a game whose positions"):
        load_course(tree)
    huge = write_task(tmp_path, "{kind: ordering, points: 1}",
                      extra=("pits: 6", "stones: 4", "depth: 7"))
    with pytest.raises(TaskFileError, match=f"more than {MAX_POSITIONS} interior nodes"):
        load_course(huge)
    value = write_task(tmp_path, "{kind: value, points: 1}")
    with pytest.raises(TaskFileError, match="value check does not apply"):
        load_course(value)


# -- the self-check kit ---------------------------------------------------------------------
def test_the_kit_leaves_the_ordering_checks_to_the_hand_in(tmp_path):
    from grader.kit import build_kit, load_kit
    from test_kit import check, results_of
    course = load_course(COURSE)
    kit_folder = tmp_path / "kit"
    build_kit(course, AnswerBook(), kit_folder, wheel=False)
    kit = load_kit(kit_folder)
    kinds = {c.kind for task in kit.course.tasks for c in task.checks}
    assert "ordering" not in kinds and {"value", "visited", "count"} <= kinds
    assert kit.hidden == sum(1 for t in course.tasks for c in t.checks if c.kind == "ordering")
    assert {t.id for t in kit.course.tasks} == {"kalah-killer", "vier-gewinnt-killer"}
    run = check([str(STUDENTS / "ein-killer"), "--kit", str(kit_folder)], tmp_path / "out",
                tmp_path, without_reference=True)
    assert run.returncode == 1, run.stderr
    results = results_of(tmp_path / "out", "ein-killer")
    assert any(Catalogue("de").lookup("mistake.killer-global") in test["output"]
               for test in results["tests"])
    assert "2 Tests (verborgene oder nur mit der Musterlösung zu beurteilende) laufen nur bei der " \
        "Bewertung" in " ".join((run.stdout + run.stderr).split())


def test_killer_visits_are_compared_as_a_sequence_never_by_sibling_order(tmp_path):
    lines = ["tasks:", "  - id: killer", "    game: kalah", "    pits: 3", "    stones: 3",
             "    depth: 4", "    functions: [alphabeta_killer]", "    module: killer",
             "    checks:", "      - {kind: visited, points: 1}"]
    (tmp_path / "t.yaml").write_text("\n".join(lines) + "\n")
    check = load_course(tmp_path / "t.yaml").tasks[0].checks[0]
    assert check.option("order") == "sequence"
    (tmp_path / "t.yaml").write_text("\n".join(lines[:-1])
                                     + "\n      - {kind: visited, points: 1, order: siblings}\n")
    with pytest.raises(TaskFileError, match="t.yaml:10: order: siblings cannot judge"):
        load_course(tmp_path / "t.yaml")


def test_the_answer_cache_key_covers_the_techniques_and_the_ordering_convention():
    from grader.answers.cache import answer_sources
    names = {path.relative_to(ROOT).as_posix() for path in answer_sources()}
    assert {"reference/techniques.py", "grader/conventions/ordering.py",
            "grader/checks/ordering.py"} <= names


def test_solve_shows_the_model_orderings_count_next_to_the_games_own(capsys):
    from grader.cli import main
    assert main(["solve", str(COURSE), "--json"]) == 0
    rows = {(row["task"], row["function"]): row for row in json.loads(capsys.readouterr().out)}
    ordering = rows[("kalah-sortierung", "order")]
    assert (ordering["visited"], ordering["plain_visited"]) == (70, 210)
    killer = rows[("kalah-killer", "alphabeta_killer")]
    assert (killer["value"], killer["move"], killer["visited"]) == (2, 0, 184)
