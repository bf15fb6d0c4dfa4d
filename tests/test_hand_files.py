"""Answer files are the student's, so hostile: each of tests/data/hand/feindlich is graded in
one batch with `grader grade`, next to a correct student, and each gets a clear message at
its file and line; none stops the batch or is run, built or believed.

The hostile files are named ``aufgabe1.yml`` (the answer file may end in .yaml, .yml or
.json): the suite reads every ``*.yaml`` under tests/data as a candidate task file, and the
task-file loader, which reads the instructor's files, expands aliases."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from grader.cli import main
from grader.hand import notation
from grader.hand.answer_file import AnswerFileError, parse

from conftest import DATA, ROOT

HOSTILE = DATA / "hand" / "feindlich"


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hand-batch")
    submissions = folder / "submissions"
    shutil.copytree(HOSTILE, submissions)
    shutil.copytree(ROOT / "courses" / "von-hand" / "submissions" / "loesung-des-blatts",
                    submissions / "loesung-des-blatts")
    out = folder / "out"
    assert main(["grade", "--tasks", str(ROOT / "courses" / "von-hand" / "tasks"),
                 "--submissions", str(submissions), "--out", str(out), "--lang", "en",
                 "--jobs", "2"]) == 0
    results = {p.name: json.loads((p / "results.json").read_text())
               for p in out.iterdir() if (p / "results.json").exists()}
    feedback = {p.name: (p / "feedback.md").read_text() for p in out.iterdir()
                if (p / "feedback.md").exists()}
    return out, results, feedback


def test_every_hostile_file_is_graded_and_none_is_an_internal_error(batch):
    _, results, _ = batch
    assert set(results) == {p.name for p in HOSTILE.iterdir()} | {"loesung-des-blatts"}
    for name, record in results.items():
        assert not record["extra_data"]["needs_person"] or name == "loesung-des-blatts", name
        assert all("internal" not in (t.get("output") or "") for t in record["tests"]), name
    assert results["loesung-des-blatts"]["score"] == 26


@pytest.mark.parametrize("student, message", [
    ("alias-bombe", "aufgabe1.yml:1: anchors and aliases (&, *) are not needed"),
    ("tag", "aufgabe1.yml:3: tags such as !!python/object/apply"),
    ("tief", "aufgabe1.yml:1: nested more than 6 levels deep"),
    ("zu-gross", "the answer file is larger than 64 KiB"),
    ("latin1", "aufgabe1.yml:3: this line is not UTF-8 text; save the file as UTF-8"),
    ("nul", "aufgabe1.yml:3: the file holds a NUL byte"),
    ("zwei-dokumente", "aufgabe1.yml:2: a second document (---)"),
    ("ordner-statt-datei", "your submission has no answer file aufgabe1.yaml"),
    ("zwei-dateien", "there are several answer files (aufgabe1.json, aufgabe1.yml)"),
    ("liste-statt-fragen", "aufgabe1.yml:1: an answer file is a list of questions with "
                           "their answers"),
])
def test_a_file_that_cannot_be_used_says_why_and_where(batch, student, message):
    _, results, feedback = batch
    assert message in feedback[student]
    assert results[student]["score"] == 0


def test_nan_huge_numbers_and_infinite_values_cost_their_fields_only(batch):
    _, results, feedback = batch
    text = feedback["nan-und-riesig"]
    assert "Line 2: “.nan” (not a number) is no answer." in text
    assert "Line 3: “1e400” is too large to be a value of this tree." in text
    assert "Line 4: “123456789012345678901234567890” is too large" in text
    assert "Line 6: “-.inf”: a node's value is a finite number" in text
    values = next(t for t in results["nan-und-riesig"]["tests"]
                  if "hand-values" in t["tags"])
    assert values["score"] == pytest.approx(2.0), "D and G are read and right"


def test_wrong_shapes_are_named_at_their_lines_and_the_rest_is_read(batch):
    text = batch[2]["falsche-formen"]
    for expected in ("Line 1: the answers of this question are a list of “node: answer” lines.",
                     "Line 3: “banana” is not an interval",
                     "Line 4: “Q” is not a node of your tree.",
                     "Line 5: “[3]” is not an interval",
                     "Line 6: “[3, inf, 7]” is not an interval",
                     "Line 9: G is not a child of A.",
                     "Line 9: “Z” is not a node of your tree.",
                     "Line 11: an order names each of E, F, G exactly once; you wrote F, F, G.",
                     "Line 12: E1 is a leaf",
                     "“lieblingsfarbe” is not a question of this exercise"):
        assert expected in text, expected
    cuts = next(t for t in batch[1]["falsche-formen"]["tests"] if "hand-cuts" in t["tags"])
    assert cuts["score"] == pytest.approx(1.0), "C->G was read: one of three cut edges"


def test_json_and_utf16_files_are_read_like_yaml(batch):
    _, results, _ = batch
    assert results["json"]["score"] == 26
    assert results["utf16"]["score"] == 26


def test_markup_in_an_answer_file_is_shown_never_interpreted(batch):
    out, _, _ = batch
    page = (out / "markup" / "feedback.html").read_text()
    assert "<script>alert(1)" not in page and "<img src=x" not in page
    assert "&lt;img src=x onerror=alert(2)&gt;" in page


def test_no_tag_was_ever_run():
    assert not Path("/tmp/gehackt").exists()


def test_an_alias_bomb_is_refused_before_anything_is_built():
    text = (HOSTILE / "alias-bombe" / "aufgabe1.yml").read_text()
    with pytest.raises(AnswerFileError) as error:
        parse(text)
    assert (error.value.key, error.value.line) == ("alias", 1)


@pytest.mark.parametrize("written, value", [
    ("-inf", -float("inf")), ("−∞", -float("inf")), ("-unendlich", -float("inf")),
    ("+∞", float("inf")), ("inf", float("inf")), ("2,5", 2.5), ("−3", -3), ("1e3", 1000.0)])
def test_the_ways_of_writing_a_bound(written, value):
    assert notation.number(written, infinite=True) == (value, None)


@pytest.mark.parametrize("written", ["[3, inf]", "(3, ∞)", "3, +inf", "[3; inf]",
                                     "α=3, β=inf", ["3", ".inf"], {"alpha": "3", "β": "∞"}])
def test_the_ways_of_writing_an_interval(written):
    assert notation.interval(written) == ([3, float("inf")], None)


@pytest.mark.parametrize("written", ["C->G", "C -> G", "c→g", "(C, G)", "G", "g", "C-G"])
def test_the_ways_of_writing_an_edge(written):
    names = notation.Names(["A", "C", "G"])
    assert notation.edge(written, names, {"C": "A", "G": "C"}) == ("G", None)
