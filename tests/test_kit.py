"""The self-check kit: visible checks and their answers only, sealed, the same verdicts as
``grader check`` on them (in words that withhold the reference's side), with the checker run
where ``reference`` cannot be imported.  Nothing a file without a search can replay:
tests/test_kit_replay.py; check.py installing the kit's wheel where no grader is:
tests/test_kit_install.py."""

import gzip
import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from grader.answers.cache import AnswerCache
from grader.answers.book import AnswerBook
from grader.answers.public import public_facts
from grader.games import make_rules
from grader.grading import Plan
from grader.kit import KitError, build_kit, load_kit
from grader.report.messages import Catalogue
from grader.tasks import load_course

from conftest import ROOT, kit_once
from test_mistakes import write_mistaken_student

SALT = bytes(range(16))     # a fixed salt: the same kit twice

# Runs a grader command in a fresh interpreter in which `import reference` fails, as it does
# in a student's environment with only the kit's wheel.
WITHOUT_REFERENCE = """
import sys
class NoReference:
    def find_spec(self, name, path=None, target=None):
        if name == "reference" or name.startswith("reference."):
            raise ImportError("no reference in a kit")
sys.meta_path.insert(0, NoReference())
from grader.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture(scope="module")
def course():
    return load_course(ROOT / "tasks")


def read(path) -> str:
    """A kit file's text: its answers are gzipped JSON."""
    data = path.read_bytes()
    return (gzip.decompress(data) if path.suffix == ".gz" else data).decode()


def test_with_the_same_salt_the_same_course_gives_the_same_bytes_and_kits_share_no_digest(
        course, kit, tmp_path, tmp_path_factory):
    names = ("kit.json", "kit-answers.json.gz", "kit-variants.json.gz",
             "kit-small-trees.json.gz")
    build_kit(course, AnswerBook(), tmp_path / "again", wheel=False, salt=SALT)
    for name in names:
        assert (tmp_path / "again" / name).read_bytes() == (kit / name).read_bytes(), name
    # a kit made without a salt draws its own: not one digest in common with another kit (the
    # run's kit of the same course by `grader kit`, which gives no salt)
    other, _ = kit_once(tmp_path_factory, "kit-tasks", ROOT / "tasks")
    assert json.loads((other / "kit.json").read_text())["salt"] != SALT.hex()
    digests = [{value for _, value in plain_content(json.loads(read(folder / name)))
                if isinstance(value, str)}
               for folder in (kit, other)
               for name in ["kit-answers.json.gz"]]
    assert digests[0] and not digests[0] & digests[1]


@pytest.fixture(scope="module")
def kit(course, tmp_path_factory):
    folder = tmp_path_factory.mktemp("kit")
    # through the run's answer cache, as `grader kit` builds: whichever of the two comes
    # first computes the variants' answers, the other reads them (the test above compares
    # this kit with one built from a book without the cache, byte for byte)
    book = AnswerBook.for_course(course)
    build_kit(course, book, folder, wheel=False, salt=SALT)
    book.save()
    return folder


def test_the_kit_holds_no_hidden_check_and_no_answer_only_hidden_checks_need(course, kit):
    files = sorted(kit.glob("*.json")) + sorted(kit.glob("*.json.gz"))
    assert [f.name for f in files] == ["kit.json", "kit-answers.json.gz",
                                       "kit-small-trees.json.gz", "kit-variants.json.gz"]
    text = "\n".join(read(path) for path in files)
    hidden = [c for t in course.tasks for c in t.checks if c.visibility != "visible"]
    assert hidden, "the bundled course has hidden checks"
    for check in hidden:
        assert f'"{check.id}"' not in text
    plan = Plan.of(course)
    held = json.loads(read(kit / "kit-answers.json.gz"))
    variants = json.loads(read(kit / "kit-variants.json.gz"))
    for key in plan.hidden_keys:
        assert AnswerCache.digest(key) not in held and AnswerCache.digest(key) not in variants
    assert set(variants) <= set(held)
    loaded = load_kit(kit)
    assert loaded.hidden == len(hidden)
    assert all(c.visibility == "visible" for t in loaded.course.tasks for c in t.checks)
    assert all(t.pins == () for t in loaded.course.tasks)
    # an evaluate check's pinned value (expect:) is an answer as well
    assert any(c.option("expect") is not None for t in course.tasks for c in t.checks)
    assert all(c.option("expect") is None for t in loaded.course.tasks for c in t.checks)
    assert str(ROOT) not in text      # nothing of where the instructor keeps the course


def test_the_kit_s_course_is_the_course_cut_to_its_visible_checks(course, kit):
    loaded = load_kit(kit).course
    visible = [replace(c, file=Path(c.file).name,
                       options=tuple(o for o in c.options if o[0] != "expect"))
               for t in course.tasks for c in t.checks if c.visibility == "visible"]
    assert [c for t in loaded.tasks for c in t.checks] == visible
    assert Plan.of(loaded).calls == Plan.of(course, only_visible=True).calls


def results_of(out, student):
    data = json.loads((out / student / "results.json").read_text())
    data.pop("execution_time", None)
    data.get("extra_data", {}).pop("seconds", None)
    return data


def check(arguments, out, cwd, without_reference=False):
    command = ([sys.executable, "-c", WITHOUT_REFERENCE] if without_reference
               else [sys.executable, "-m", "grader.cli"])
    return subprocess.run([*command, "check", *arguments, "--out", str(out)], cwd=cwd,
                          capture_output=True, text=True, timeout=240)


def check_here(arguments, out) -> subprocess.CompletedProcess:
    """``grader check`` with the task files, run in this process (the grader's side of a
    comparison needs no fresh interpreter: it may import ``reference``); what it printed, as
    ``check`` gives it.  A third of a subprocess's CPU time was the interpreter's start and
    imports."""
    import contextlib
    import io
    from grader.cli import main
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = main(["check", *arguments, "--out", str(out)])
    return subprocess.CompletedProcess(["grader", "check", *arguments], code,
                                       stdout.getvalue(), stderr.getvalue())


def kit_feedback_as_grader_s(course: Path, folder: Path, tmp_path: Path) -> dict:
    """``grader check`` of ``folder`` with a kit of ``course`` (and no ``reference``) and with
    the task files: both fail, with the same feedback (``assert_same_feedback``); the kit's
    results.json."""
    kit = tmp_path / "kit"
    build_kit(load_course(course), AnswerBook(), kit, wheel=False)
    with_kit = check([str(folder), "--kit", str(kit)], tmp_path / "a-kit", tmp_path,
                     without_reference=True)
    with_tasks = check_here([str(folder), "--tasks", str(course)], tmp_path / "tasks")
    assert with_kit.returncode == with_tasks.returncode == 1, with_kit.stderr
    mine, theirs = (results_of(tmp_path / side, folder.name) for side in ("a-kit", "tasks"))
    assert_same_feedback(mine, theirs)
    return mine


# Where the words of a verdict judged with a kit differ from the grader's: the kit's own
# (kit-ok, kit-reason, kit-example), which withhold the reference's side.
KIT_WORDS = Catalogue("en").entries
# The sentences after a check's message that name a mistake or a signature: the same in a kit.
NAMED = re.compile(r" (Deine (Suche|Zugsortierung) verhält sich|Your (search|move ordering) "
                   r"behaves|Derselbe Fehler wie oben|The same mistake as named above|"
                   r"Die Signatur deiner Funktion|Your function's signature).*$", re.S)


def assert_same_feedback(with_kit, with_tasks):
    """Every check's points and status agree, and its message but where the kit's words differ
    by design: a message that would name the reference's side (its value, its count, its
    visits, a random-tree example's expected answer) is the kit's own, saying where the student
    differs (for a passed check only where the kit has its own words for the kind); the
    mistakes named after it are the grader's all the same."""
    assert with_kit["score"] == with_tasks["score"]
    for mine, theirs in zip(with_kit["tests"], with_tasks["tests"], strict=True):
        assert (mine["name"], mine["score"], mine["status"], mine["tags"]) == \
            (theirs["name"], theirs["score"], theirs["status"], theirs["tags"])
        if mine["output"] == theirs["output"]:
            assert mine == theirs
            continue
        kind = mine["tags"][1]
        if mine["status"] == "passed":
            assert kind in KIT_WORDS["kit-ok"], (mine["output"], theirs["output"])
        # the message is the output's first paragraph (a picture of the search may follow)
        message, their_message = (side["output"].split("\n\n")[0] for side in (mine, theirs))
        named = NAMED.search(their_message)
        if named:
            assert message.endswith(named.group(0)), (mine["output"], theirs["output"])
        else:
            assert not NAMED.search(message), mine["output"]


@pytest.mark.parametrize("student", ["korrekt", "ohne-alphabeta", "strikter-schnitt",
                                     "syntaxfehler"])
def test_a_kit_check_gives_the_feedback_of_grader_check(student, kit, tmp_path):
    folder = ROOT / "submissions" / student
    # (output folders of one length: the terminal output wraps the same way)
    with_kit = check([str(folder), "--kit", str(kit)], tmp_path / "a-kit", tmp_path,
                     without_reference=True)
    with_tasks = check_here([str(folder), "--tasks", str(ROOT / "tasks")], tmp_path / "tasks")
    assert with_kit.returncode == with_tasks.returncode, with_kit.stderr
    assert_same_feedback(results_of(tmp_path / "a-kit", student),
                         results_of(tmp_path / "tasks", student))
    printed = [output.stdout.replace(str(tmp_path / side), "OUT").splitlines()
               for output, side in ((with_kit, "a-kit"), (with_tasks, "tasks"))]
    assert printed[0][-1] == printed[1][-1]      # the points
    if student == "syntaxfehler":   # nothing judged with an answer: the same words
        assert printed[0] == printed[1]


@pytest.mark.parametrize("function, mistake", [("alphabeta", "continue-not-break"),
                                               ("minimax", "swap-min-max"),
                                               ("negamax", "sign-not-flipped"),
                                               ("alphabeta", "strict-cut")])
def test_a_kit_names_the_same_mistakes_without_the_reference(function, mistake, kit, tmp_path):
    folder = tmp_path / "student"
    write_mistaken_student(folder, function, mistake)
    assert check([str(folder), "--kit", str(kit)], tmp_path / "kit", tmp_path,
                 without_reference=True).returncode == 1
    check_here([str(folder), "--tasks", str(ROOT / "tasks")], tmp_path / "tasks")
    with_kit, with_tasks = (results_of(tmp_path / side, "student") for side in ("kit", "tasks"))
    assert with_kit["score"] < 57
    assert_same_feedback(with_kit, with_tasks)
    assert any("verhält sich" in t["output"] for t in with_kit["tests"])


def test_a_kit_for_other_task_files_or_no_kit_at_all_is_refused_with_what_to_do(kit, tmp_path):
    assert "no kit.json" in check_here(["--kit", str(tmp_path)], tmp_path / "o").stderr
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "kit.json").write_text('{"format": "something else"}')
    refused = check_here(["--kit", str(broken)], tmp_path / "o")
    assert refused.returncode == 2 and "not a kit of this grader" in refused.stderr
    with pytest.raises(KitError, match="ask for a new kit"):
        load_kit(broken)


def test_a_failing_random_tree_check_shows_the_smallest_of_the_kit_s_small_trees(kit):
    """Without a reference to shrink against, the kit's small trees (answered in advance)
    give a smaller counterexample than the check's own smallest failing tree."""
    from grader.kit import KitAnswers
    from grader.sandbox.levels import best_level
    from grader.single import grade_folder
    loaded = load_kit(kit)
    without = KitAnswers(loaded.answers._seal, loaded.answers._answers,
                         loaded.answers._mistakes, small={}, folder=kit)

    def example(answers):
        result = grade_folder(loaded.course, ROOT / "submissions" / "strikter-schnitt",
                              best_level(), answers=answers)
        failed = [v for v in result.verdicts if v.check.kind == "random-trees" and not v.passed]
        assert len(failed) == 1
        return failed[0].facts

    own, small = example(without), example(loaded.answers)
    assert not own["shrunk"] and small["shrunk"]
    assert small["example"]["nodes"] < own["example"]["nodes"]
    assert small["example"]["aspect"] == own["example"]["aspect"] == "visits"


# -- what the kit holds: digests, and the facts every student can compute --------------------

@pytest.mark.parametrize("tasks", ["tasks", "courses/vorlesung/tasks",
                                   "courses/vertiefung/tasks", "courses/three-player/tasks",
                                   "tests/data/conventions/helpers/tasks.yaml",
                                   "tests/data/conventions/negamax-sign/tasks.yaml"])
def test_the_facts_a_kit_computes_when_it_checks_are_the_answers_own(tasks):
    """A kit stores no node of the tree: it computes the tree's shape, the values the game
    gives, the root's actions (``public_facts``) when it checks.  They must be exactly what the
    reference's answers hold, or the kit would judge otherwise than the grader."""
    course = load_course(ROOT / tasks)
    book = AnswerBook.for_course(course)
    compared = 0
    for call in Plan.of(course, only_visible=True).calls:
        if call.convention in ("plain", "ordering"):
            continue
        for public, answer in zip(public_facts(call), book[call], strict=True):
            for field, value in public.items():
                compared += 1
                if field == "action_values":
                    assert [a for a, _ in value] == [a for a, _ in answer[field]]
                elif field == "values":
                    assert set(value) == set(answer["terminals"]) | set(answer["horizon"])
                    assert value == {node: answer[field][node] for node in value}
                elif field == "iterations":
                    for mine, theirs in zip(value, answer[field], strict=True):
                        assert {k: v for k, v in mine.items() if k != "action_values"} == \
                            {k: theirs[k] for k in mine if k != "action_values"}
                elif field == "compared":
                    assert value["minimax"] == answer[field]["minimax"]
                else:
                    assert value == answer.get(field, True), (call.reference, field)
    assert compared
    book.save()


def kit_files(folder: Path) -> dict:
    """A kit's files as a student reads them: ``zcat`` and a JSON parser."""
    return {path.name: json.loads(read(path))
            for path in sorted(folder.glob("*.json")) + sorted(folder.glob("*.json.gz"))}


def plain_content(data, key=None):
    """``(key, value)`` of every number and string in parsed JSON, and of every list of strings
    (a visit list): what a harvest can take."""
    if isinstance(data, dict):
        for name, value in data.items():
            yield from plain_content(value, name)
    elif isinstance(data, list):
        if data and all(isinstance(v, str) for v in data):
            yield key, data
        for value in data:
            yield from plain_content(value, key)
    elif isinstance(data, (int, float, str)) and not isinstance(data, bool):
        yield key, data


def test_the_answer_files_hold_no_value_no_move_no_node_and_no_count(course, kit):
    """Everything in the answer files but the inputs (the small trees) and names is a digest:
    no number (a vector's length apart), no action, no node of any tree, no list of nodes."""
    files = kit_files(kit)
    plan = Plan.of(load_kit(kit).course)
    names = set()
    for call in plan.calls:
        for item in call.inputs():
            if isinstance(item, dict) and "kind" in item:
                rules = make_rules(item)
                names.update(getattr(rules, "nodes", {}) or ())
                start = rules.initial_state()
                if not rules.is_terminal(start):
                    names.update(str(a) for a in rules.actions(start))
    small = files["kit-small-trees.json.gz"]
    for entries in small.values():
        for entry in entries:
            entry[1] = []        # the small trees themselves: inputs, not answers
    mistakes = {m for ms in files["kit.json"]["mistakes"].values() for m in ms}
    for name in ("kit-answers.json.gz", "kit-variants.json.gz", "kit-small-trees.json.gz"):
        for key, value in plain_content(files[name]):
            if isinstance(value, list):
                assert key == "v", (name, key, value)    # (grader.cache's encoding of tuples)
                continue
            if isinstance(value, (int, float)):
                assert key == "length", (name, key, value)
                continue
            assert value not in names, (name, key, value)
            assert re.fullmatch(r"[A-Za-z0-9+/=]+", value) or value in mistakes \
                or key in ("error", "$") or value in small, (name, key, value)


def test_a_kit_s_words_name_neither_the_reference_s_value_nor_its_count_nor_its_nodes(
        kit, tmp_path):
    """A student whose minimax returns wrong values and whose alpha-beta visits too many nodes
    is told so, and where the visits first differ, but not the right value, the reference's
    count or a node only the reference visits (the grader's words name all three)."""
    from grader.report.views import student_view
    from grader.sandbox.levels import best_level
    from grader.single import grade_folder
    loaded = load_kit(kit)
    folder = tmp_path / "student"
    write_mistaken_student(folder, "alphabeta", "continue-not-break")
    with (folder / "minimax.py").open("a") as module:     # and minimax swaps min and max
        module.write("\n\ndef minimax(game, state, depth=None):\n    return minimax_family("
                     "game, state, depth, pruning=False, mistake='swap-min-max')\n")
    course = load_course(ROOT / "tasks")
    graded = {verdict.check.id: verdict for verdict in grade_folder(
        course, folder, best_level(), answers=AnswerBook.for_course(course)).verdicts}
    result = grade_folder(loaded.course, folder, best_level(), answers=loaded.answers)
    view = student_view(result, loaded.course, Catalogue("en"), html=False)
    messages = {item["id"]: item["message"] for task in view["tasks"] for item in task["checks"]}
    told = set()
    for verdict in result.verdicts:
        if verdict.passed or verdict.check.kind not in ("value", "count", "visited"):
            continue
        told.add(verdict.check.kind)
        facts, message = graded[verdict.check.id].facts, messages[verdict.check.id]
        words = re.findall(r"-?[\w.]+", message.split(" Your search behaves")[0])
        assert verdict.reason == graded[verdict.check.id].reason
        if verdict.check.kind == "value":
            assert message.startswith(f"Your value at the root is {facts['observed']}; that is "
                                      "not the reference's value."), message
        elif verdict.check.kind == "count":
            assert str(facts["reference"]) not in words, message
        else:
            reference_only = [*facts.get("missing", ()), facts["first_difference"]["expected"]]
            assert not set(map(str, reference_only)) & set(words), message
            first = verdict.facts["first_difference"]
            assert first["index"] == facts["first_difference"]["index"]
            assert (f"you go on with {first['observed']}." if first["ended"] else
                    f"your visit {first['index']}, {first['observed']},") in message, message
    assert told == {"value", "count", "visited"}


def test_the_kit_s_words_are_in_both_catalogues_and_stand_for_a_reason_each():
    """Every kit-ok/kit-reason/kit-example entry is in German and English alike, replaces an
    entry of the grader's (but the shared sentence on the first difference), and renders
    without any fact of the reference's side."""
    german, english = Catalogue("de"), Catalogue("en")
    sections = ("kit-ok", "kit-reason", "kit-example")
    for section in sections:
        assert set(german.entries[section]) == set(english.entries[section]), section
        replaced = {"kit-ok": "ok", "kit-reason": "reason", "kit-example": "example"}[section]
        assert set(english.entries[section]) - {"first-difference"} <= \
            set(english.entries[replaced]), section
    student = {"observed": 5, "observed_value": None, "observed_count": 9, "observed_line": [1],
               "observed_values": [1, 2], "extra": ["X"], "missing": True, "slack": 1,
               "bound": "equal", "first_difference": {"index": 3, "observed": "X",
                                                      "ended": False},
               "board": "X........", "player": "X", "at_most": 4, "iteration": 1, "depth": 2,
               "move": 1, "node": "root", "last": True, "shrunk": False,
               "example": {"nodes": 3, "tree": "{A: [1, 2]}", "aspect": "visits",
                           "observed": {"value": 1, "action": "A1", "visits": ["A", "A1"]},
                           "visits": {"first_difference": {"index": 2, "observed": "A1",
                                                           "ended": False}}}}
    for catalogue in (german, english):
        for section in sections:
            for name in catalogue.entries[section]:
                assert catalogue.text(f"{section}.{name}", **student), (section, name)
