"""The self-check kit: visible checks and their answers only, the same feedback as
``grader check`` on them, and a checker that runs where ``reference`` cannot be imported."""

import gzip
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from grader.answer_cache import AnswerCache
from grader.answers import AnswerBook
from grader.grading import Plan
from grader.kit import KitError, build_kit, load_kit
from grader.tasks import load_course

from conftest import ROOT
from test_mistakes import write_mistaken_student

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


def test_the_answers_are_compressed_and_the_same_course_gives_the_same_bytes(course, kit,
                                                                           tmp_path):
    again = tmp_path / "again"
    build_kit(course, AnswerBook(), again, wheel=False)
    for name in ("kit.json", "kit-answers.json.gz", "kit-variants.json.gz"):
        assert (again / name).read_bytes() == (kit / name).read_bytes(), name
    plain = len(read(kit / "kit-variants.json.gz").encode())
    assert (kit / "kit-variants.json.gz").stat().st_size * 5 < plain


@pytest.fixture(scope="module")
def kit(course, tmp_path_factory):
    folder = tmp_path_factory.mktemp("kit")
    build_kit(course, AnswerBook(), folder, wheel=False)
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
    assert str(ROOT) not in text      # nothing of where the instructor keeps the course


def test_the_kit_s_course_is_the_course_cut_to_its_visible_checks(course, kit):
    loaded = load_kit(kit).course
    visible = [replace(c, file=Path(c.file).name) for t in course.tasks for c in t.checks
               if c.visibility == "visible"]
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


def kit_feedback_as_grader_s(course: Path, folder: Path, tmp_path: Path) -> dict:
    """``grader check`` of ``folder`` with a kit of ``course`` (and no ``reference``) and with
    the task files: both fail, with the same feedback (``assert_same_feedback``); the kit's
    results.json."""
    kit = tmp_path / "kit"
    build_kit(load_course(course), AnswerBook(), kit, wheel=False)
    with_kit = check([str(folder), "--kit", str(kit)], tmp_path / "a-kit", tmp_path,
                     without_reference=True)
    with_tasks = check([str(folder), "--tasks", str(course)], tmp_path / "tasks", tmp_path)
    assert with_kit.returncode == with_tasks.returncode == 1, with_kit.stderr
    mine, theirs = (results_of(tmp_path / side, folder.name) for side in ("a-kit", "tasks"))
    assert_same_feedback(mine, theirs)
    return mine


def assert_same_feedback(with_kit, with_tasks):
    """Every check's points and message agree, but a failed random-tree check's example: the
    kit shows the smallest of its own small trees that fails the same way, the grader a tree
    shrunk with the reference; what the search is told about its mistake agrees all the same."""
    assert with_kit["score"] == with_tasks["score"]
    for mine, theirs in zip(with_kit["tests"], with_tasks["tests"], strict=True):
        assert (mine["name"], mine["score"], mine["status"]) == \
            (theirs["name"], theirs["score"], theirs["status"])
        if mine != theirs and "random-trees" in mine["tags"] and mine["status"] == "failed":
            # the message is the output's first paragraph (the tree drawn follows it)
            message, their_message = (side["output"].split("\n\n")[0]
                                      for side in (mine, theirs))
            named = their_message.rsplit(". ", 1)[-1]
            assert message.endswith(named), (mine["output"], theirs["output"])
        else:
            assert mine == theirs


@pytest.mark.parametrize("student", ["korrekt", "ohne-alphabeta", "strikter-schnitt",
                                     "syntaxfehler"])
def test_a_kit_check_gives_the_feedback_of_grader_check(student, kit, tmp_path):
    folder = ROOT / "submissions" / student
    # (output folders of one length: the terminal output wraps the same way)
    with_kit = check([str(folder), "--kit", str(kit)], tmp_path / "a-kit", tmp_path,
                     without_reference=True)
    with_tasks = check([str(folder), "--tasks", str(ROOT / "tasks")], tmp_path / "tasks",
                       tmp_path)
    assert with_kit.returncode == with_tasks.returncode, with_kit.stderr
    assert_same_feedback(results_of(tmp_path / "a-kit", student),
                         results_of(tmp_path / "tasks", student))
    if student != "strikter-schnitt":   # (its random-tree example differs, see above)
        assert with_kit.stdout == with_tasks.stdout.replace(str(tmp_path / "tasks"),
                                                            str(tmp_path / "a-kit"))


@pytest.mark.parametrize("function, mistake", [("alphabeta", "continue-not-break"),
                                               ("minimax", "swap-min-max"),
                                               ("negamax", "sign-not-flipped"),
                                               ("alphabeta", "strict-cut")])
def test_a_kit_names_the_same_mistakes_without_the_reference(function, mistake, kit, tmp_path):
    folder = tmp_path / "student"
    write_mistaken_student(folder, function, mistake)
    assert check([str(folder), "--kit", str(kit)], tmp_path / "kit", tmp_path,
                 without_reference=True).returncode == 1
    check([str(folder), "--tasks", str(ROOT / "tasks")], tmp_path / "tasks", tmp_path)
    with_kit, with_tasks = (results_of(tmp_path / side, "student") for side in ("kit", "tasks"))
    assert with_kit["score"] < 57
    assert_same_feedback(with_kit, with_tasks)
    assert any("verhält sich" in t["output"] for t in with_kit["tests"])


def test_a_kit_for_other_task_files_or_no_kit_at_all_is_refused_with_what_to_do(kit, tmp_path):
    assert "no kit.json" in check(["--kit", str(tmp_path)], tmp_path / "o", tmp_path).stderr
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "kit.json").write_text('{"format": "something else"}')
    refused = check(["--kit", str(broken)], tmp_path / "o", tmp_path)
    assert refused.returncode == 2 and "not a kit of this grader" in refused.stderr
    with pytest.raises(KitError, match="ask for a new kit"):
        load_kit(broken)


def test_a_failing_random_tree_check_shows_the_smallest_of_the_kit_s_small_trees(kit):
    """Without a reference to shrink against, the kit's small trees (answered in advance)
    give a smaller counterexample than the check's own smallest failing tree."""
    from grader.kit import KitAnswers
    from grader.sandbox.isolation import best_level
    from grader.single import grade_folder
    loaded = load_kit(kit)
    without = KitAnswers(loaded.answers._answers, loaded.answers._mistakes, small={},
                         folder=kit)

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


def test_check_py_installs_the_kit_s_wheel_where_no_grader_is_and_runs_without_reference(
        course, tmp_path):
    """The kit as a student gets it: a Python without the grader runs check.py, which installs
    the kit's wheel (no ``reference/`` in it) into a virtual environment and checks there."""
    import os
    kit = tmp_path / "kit"
    written = build_kit(course, AnswerBook(), kit)
    wheel = [path for path in written if path.suffix == ".whl"]
    assert len(wheel) == 1
    import zipfile
    assert not [n for n in zipfile.ZipFile(wheel[0]).namelist() if n.startswith("reference")]
    plain_python = Path(sys.base_prefix) / "bin" / "python3"
    environment = {**os.environ, "GRADER_CACHE_DIR": str(tmp_path / "cache")}
    environment.pop("PYTHONPATH", None)
    assert subprocess.run([plain_python, "-c", "import grader"], env=environment, cwd=tmp_path,
                          capture_output=True).returncode != 0, "a Python without the grader"
    done = subprocess.run([plain_python, kit / "check.py", ROOT / "submissions" / "korrekt",
                           "--out", tmp_path / "out", "--lang", "en"], cwd=tmp_path,
                          env=environment, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "installing the grader from the kit" in done.stderr
    assert done.stdout.rstrip().endswith("Points: 57/57")
    assert (tmp_path / "out" / "korrekt" / "feedback.html").is_file()
    installed = tmp_path / "cache" / "kit-0.1.0" / "bin" / "python"
    assert subprocess.run([installed, "-c", "import reference"], capture_output=True,
                          cwd=tmp_path, env=environment).returncode != 0
    refused = subprocess.run([installed, "-m", "grader.cli", "solve", ROOT / "tasks"],
                             capture_output=True, text=True, cwd=tmp_path, env=environment)
    assert refused.returncode == 2 and "only `grader check --kit" in refused.stderr
    # The second run uses the environment made by the first; a faulty submission fails.
    again = subprocess.run([plain_python, kit / "check.py", ROOT / "submissions" / "ohne-alphabeta",
                            "--out", tmp_path / "out"], cwd=tmp_path, env=environment,
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 1 and "installing" not in again.stderr
