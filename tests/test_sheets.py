"""One tree per student (issue 26): `grader sheets` from a roster of 30 writes 30 different
trees that meet the task's constraints, with sheets, templates, forms and solutions; grading
with the same roster finds each student's own tree; the Moodle question bank parses strictly
and every Cloze field says what the reference says on that variant."""

from __future__ import annotations

import base64
import csv
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from grader.answers.book import AnswerBook
from grader.cli import main
from grader.hand.notation import show, show_interval
from grader.hand.sheets import call_for, from_roster
from grader.tasks import load_course

from conftest import ROOT

COURSE = ROOT / "courses" / "von-hand-varianten"
ROSTER = COURSE / "teilnehmer.csv"


@pytest.fixture(scope="module")
def course():
    return load_course(COURSE / "tasks")


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    out = tmp_path_factory.mktemp("sheets") / "blaetter"
    assert main(["sheets", "--tasks", str(COURSE / "tasks"), "--roster", str(ROSTER),
                 "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def solutions(course):
    """Each roster student's key -> the reference's answer on their own tree."""
    book = AnswerBook()
    task = course.task("aufgabe1")
    return {s.key: book[call_for(task, s.key)][0] for s in from_roster(ROSTER)}


def test_thirty_students_get_thirty_different_trees_that_meet_the_constraints(sheets,
                                                                             solutions):
    assert len(solutions) == 30
    trees = {json.dumps(sorted(answer["leaves"].items())) for answer in solutions.values()}
    assert len(trees) == 30, "all different"
    assert len({answer["variant"] for answer in solutions.values()}) == 30
    for answer in solutions.values():
        run = answer["alphabeta"]
        assert len(run["cut_edges"]) >= 2, "at least two cuts"
        assert any(answer["depth"][parent] >= 2 for parent, _ in run["cut_edges"]), "deep cut"
        root = answer["children"][answer["root"]]
        assert len({answer["values"][c] for c in root}) == len(root), "no ties at the root"
        assert set(answer["leaves"]) == {f"{p}{i}" for p in "BEFGD" for i in (1, 2, 3)}, \
            "the sheet's shape"
        assert all(0 <= v <= 9 for v in answer["leaves"].values())


def test_each_student_gets_a_sheet_a_template_a_form_and_the_instructor_the_solutions(
        sheets, solutions):
    rows = list(csv.DictReader((sheets / "variants.csv").open(encoding="utf-8")))
    assert len(rows) == 30
    for row in rows:
        folder = sheets / row["folder"]
        answer = solutions[row["key"]]
        sheet = (folder / "sheet.html").read_text()
        assert row["name"] in sheet and answer["variant"] in sheet
        assert "@page { size: A4" in sheet and "<svg" in sheet
        for leaf, value in answer["leaves"].items():
            assert re.search(rf">{value}</text>\s*<text class=\"name leaf\"[^>]*>{leaf}<", sheet)
        template = (folder / "aufgabe1.yaml").read_text()
        assert f'variant: "{answer["variant"]}"' in template
        assert f'student: "{row["key"]}"' in template
        assert (folder / "aufgabe1-form.html").exists()
        assert (sheets / row["solution"]).exists()
    assert len(list((sheets / "solutions").iterdir())) == 30


def answer_file(answer: dict, key: str) -> str:
    """A student's right answers, written from the reference's answer on their tree."""
    inner = [n for n in answer["order"] if n in answer["children"]]
    run = answer["alphabeta"]
    lines = [f"student: {key}", f"variant: {answer['variant']}", "values:"]
    lines += [f"  {n}: {show(answer['values'][n])}" for n in inner]
    lines += ["intervals:"] + [f'  {n}: "{show_interval(run["intervals"].get(n, "pruned"))}"'
                               for n in inner]
    lines += ["returns:"] + [f'  {n}: "{show(run["returns"].get(n, "pruned"))}"'
                             for n in inner]
    lines += ["cuts: [" + ", ".join(f"{p}->{c}" for p, c in run["cut_edges"]) + "]",
              f"visited: {len(run['visits'])}", "orders:"]
    table = answer["orders"]["C"]
    best = next(order for order, count in table["orders"] if count == table["fewest"])
    lines += [f"  C: [{', '.join(best)}]", f"move: {answer['optimal_moves'][0]}"]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def graded(tmp_path_factory, solutions):
    """The class as Moodle's download names it, each with the right answers on their own
    tree; except that Tara hands in Samir's file."""
    folder = tmp_path_factory.mktemp("varianten")
    submissions = folder / "submissions"
    people = {s.key: s for s in from_roster(ROSTER)}
    for number, (key, answer) in enumerate(solutions.items()):
        person = people[key]
        student = submissions / f"{person.name}_{900100 + number}_assignsubmission_file_"
        student.mkdir(parents=True)
        (student / "aufgabe1.yaml").write_text(answer_file(answer, key), encoding="utf-8")
    copier = next(p for p in submissions.iterdir() if p.name.startswith("Tara Hofmann"))
    source = next(p for p in submissions.iterdir() if p.name.startswith("Samir Krüger"))
    shutil.copy(source / "aufgabe1.yaml", copier / "aufgabe1.yaml")
    out = folder / "out"
    assert main(["grade", "--tasks", str(COURSE / "tasks"), "--submissions", str(submissions),
                 "--out", str(out), "--roster", str(ROSTER), "--jobs", "2"]) == 0
    results = {p.name: json.loads((p / "results.json").read_text())
               for p in out.iterdir() if (p / "results.json").exists()}
    return out, results, submissions


def test_each_students_answer_file_is_graded_against_that_students_tree(graded, course):
    out, results, _ = graded
    assert len(results) == 30
    copier = next(name for name in results if name.startswith("Tara Hofmann"))
    for name, record in results.items():
        if name != copier:
            assert record["score"] == course.max_score, name
    # the same round trip as code: moodle.csv names the roster's users with their grades
    rows = list(csv.DictReader((out / "moodle.csv").open(encoding="utf-8-sig")))
    usernames = {s.key for s in from_roster(ROSTER)}
    assert {row["Username"] for row in rows} == usernames
    assert sorted(float(row["grade"]) for row in rows)[1] == course.max_score


def test_a_classmates_answer_file_does_not_fit_and_the_feedback_says_why(graded, course,
                                                                       solutions):
    out, results, _ = graded
    copier = next(name for name in results if name.startswith("Tara Hofmann"))
    assert results[copier]["score"] < course.max_score
    people = {s.name: s.key for s in from_roster(ROSTER)}
    feedback = (out / copier / "feedback.md").read_text()
    assert (f"Antwortdatei wurde für Variante {solutions[people['Samir Krüger']]['variant']} "
            f"geschrieben, dein Baum ist aber Variante "
            f"{solutions[people['Tara Hofmann']]['variant']}") in feedback
    assert feedback.count("geschrieben, dein Baum ist aber Variante") == 1, "said once"
    assert "richtig nach deinen eigenen Antworten an anderer Stelle;" not in feedback, \
        "answers worked out on another tree earn no follow-on credit"


def test_without_the_roster_the_folder_names_are_the_keys(graded, course, tmp_path):
    _, _, submissions = graded
    out = tmp_path / "out"
    assert main(["grade", "--tasks", str(COURSE / "tasks"), "--submissions", str(submissions),
                 "--out", str(out), "--jobs", "2"]) == 0
    scores = [json.loads(p.read_text())["score"] for p in out.glob("*/results.json")]
    assert len(scores) == 30 and max(scores) < course.max_score, \
        "keyed by folder names, nobody has the tree the roster's key draws"


# -- Moodle ---------------------------------------------------------------------------------

CLOZE = re.compile(r"\{(\d+):(NUMERICAL|MULTICHOICE|SHORTANSWER):(.*?)(?<!\\)\}")


def parse_cloze(body: str, kind: str):
    if kind == "NUMERICAL":
        value, tolerance = body[1:].rsplit(":", 1)
        return {value}
    options = body.split("~")
    if kind == "SHORTANSWER":
        return {option[1:] for option in options}
    return {option[len("%100%"):] for option in options if option.startswith("%100%")}


def expected_fields(answer: dict) -> list:
    """What the reference says, field by field, in the question's order."""
    inner = [n for n in answer["order"] if n in answer["children"]]
    run = answer["alphabeta"]

    def bound(value):
        return "–" if value == "pruned" else show(value).replace("−∞", "−∞")
    fields = [{show(answer["values"][n])} for n in inner]
    for node in inner:
        alpha, beta = run["intervals"].get(node, ["pruned", "pruned"])
        fields += [{bound(alpha)}, {bound(beta)}]
    fields += [{bound(run["returns"].get(n, "pruned"))} for n in inner]
    for node in inner:
        if node not in run["intervals"]:
            fields.append({"nie betreten"})
        elif node in run["cut_after"]:
            fields.append({f"nach {run['cut_after'][node]}"})
        else:
            fields.append({"kein Schnitt"})
    fields.append({str(len(run["visits"]))})
    table = answer["orders"]["C"]
    fields.append({form for order, count in table["orders"] if count == table["fewest"]
                   for form in (", ".join(order), ",".join(order), " ".join(order),
                                "".join(order))})
    fields.append(set(answer["optimal_moves"]))
    return fields


def test_the_moodle_question_bank_parses_strictly_and_every_field_is_the_references(
        sheets, solutions, course):
    root = ET.parse(sheets / "moodle-questions.xml").getroot()     # expat: well-formed XML
    assert root.tag == "quiz"
    categories = [q for q in root if q.get("type") == "category"]
    clozes = [q for q in root if q.get("type") == "cloze"]
    assert len(categories) == 1 and len(clozes) == 30
    assert categories[0].findtext("category/text").endswith("/aufgabe1")
    by_code = {answer["variant"]: answer for answer in solutions.values()}
    task = course.task("aufgabe1")
    for question in clozes:
        code = question.findtext("idnumber").split("-")[-1]
        answer = by_code[code]
        text = question.findtext("questiontext/text")
        found = [(int(w), kind, parse_cloze(body.replace("\\", ""), kind))
                 for w, kind, body in CLOZE.findall(text)]
        expected = expected_fields(answer)
        assert len(found) == len(expected), code
        for (_, _, right), want in zip(found, expected):
            assert right == want, (code, right, want)
        # weights: each question's fields share its points
        weights = [w for w, _, _ in found]
        factor = sum(weights) / task.max_score
        assert sum(weights[:7]) == pytest.approx(7 * factor)       # the values
        assert weights[-1] == pytest.approx(1 * factor)            # the move
        image = question.find("questiontext/file")
        assert image.get("name") in text
        svg = ET.fromstring(base64.b64decode(image.text))
        assert svg.tag.endswith("svg")


def test_a_self_check_finds_the_students_tree_by_the_key_given(solutions, tmp_path):
    student = from_roster(ROSTER)[3]
    folder = tmp_path / "meine-abgabe"
    folder.mkdir()
    (folder / "aufgabe1.yaml").write_text(answer_file(solutions[student.key], student.key))
    check = ["check", str(folder), "--tasks", str(COURSE / "tasks"), "--out",
             str(tmp_path / "out")]
    assert main([*check, "--student", student.key]) == 0
    assert main(check) == 1, "the folder's name draws another tree"
