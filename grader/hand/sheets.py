"""``grader sheets``: one sheet per student for a course's hand exercises.

For every student (from a roster, the names of a submissions folder, or a list of names) and
every hand task, the student's own tree (``grader.hand.variants``; the task's tree for all
where it draws no variants) and, in ``OUT``:

* ``<student>/sheet.html``: the printable sheet (A4), the tree as SVG, the student's name,
  the variant's code, the questions with their points, the cut rule and how to hand in;
* ``<student>/<answers>.yaml``: the answer template, written for that student and variant;
* ``<student>/<answers>-form.html``: the answer form (the tree drawn, a field per question, a
  button that saves the answer file; plain JavaScript, no network, works from ``file://``);
* ``solutions/<task>-<code>.html``: the instructor's solution page of each variant;
* ``index.html`` and ``variants.csv``: who has which variant, with links;
* ``moodle-questions.xml``: every variant as a Cloze question of a Moodle question bank
  (``grader.lms.moodle_questions``).

The student's key is the one grading looks the tree up by (see ``grader.hand.variants``).
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

from ..calls import canonical
from .taskfile import task_call
from .variants import student_key, variant_item

FOLDER_CHARS = 60


@dataclass(frozen=True)
class Student:
    key: str            # what the tree is drawn from (and grading looks it up by)
    name: str           # what the sheet prints
    folder: str         # the student's folder under OUT


class SheetsError(ValueError):
    """The students or tasks cannot be used: one line per problem."""


def folder_name(text: str) -> str:
    kept = "".join(c if c in "-_." or unicodedata.category(c)[0] in "LN" else "_"
                   for c in unicodedata.normalize("NFC", text))
    return kept.strip("._-")[:FOLDER_CHARS] or "student"


def _unique(students: list) -> list:
    seen, result = {}, []
    for student in students:
        folder = student.folder
        number = 2
        while folder.casefold() in seen:
            folder = f"{student.folder}~{number}"
            number += 1
        seen[folder.casefold()] = True
        result.append(replace(student, folder=folder))
    return result


def from_roster(path) -> list[Student]:
    """Everyone on a roster (``grader.lms.roster``): keyed by the roster's identifier,
    the column moodle.csv uses; the sheet prints the full name."""
    from ..lms.roster import read_roster
    roster = read_roster(path)
    students, missing = [], []
    for person in roster.people:
        key = roster.identifier_of(person)
        if not key:
            missing.append(f"{path}:{person.line}: no {roster.header}; this person gets no "
                           "sheet")
            continue
        students.append(Student(key, person.name or key, folder_name(key)))
    if not students:
        raise SheetsError("\n".join(missing) or f"{path}: nobody on the roster")
    return _unique(students)


def from_folder(path) -> list[Student]:
    """The students of a submissions folder (an LMS download, or one folder per student),
    keyed by their submission's name as ``grader grade`` names it."""
    from ..submissions.finding import find
    found = find(Path(path))
    if not found:
        raise SheetsError(f"{path}: no submission folders or archives in it")
    return _unique([Student(s.student, s.display, folder_name(s.student)) for s in found])


def from_names(path) -> list[Student]:
    """One student per line of a text file (empty lines and lines starting with # left
    out); the line is the key and the name."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise SheetsError(f"{path}: cannot be read as UTF-8 text ({error})") from None
    names = [" ".join(line.split()) for line in text.splitlines()]
    names = [n for n in names if n and not n.startswith("#")]
    keys: dict = {}
    problems = []
    for number, name in enumerate(names, start=1):
        if student_key(name) in keys:
            problems.append(f"{path}: {name!r} is listed twice")
        keys[student_key(name)] = name
    if problems or not names:
        raise SheetsError("\n".join(problems) or f"{path}: no names in it")
    return _unique([Student(name, name, folder_name(name)) for name in names])


# -- the answers of one student's trees ------------------------------------------------------

def hand_tasks(course, task_id: str | None = None) -> list:
    tasks = [task for task in course.tasks if getattr(task, "answers", None)]
    if task_id is not None:
        tasks = [task for task in tasks if task.id == task_id]
        if not tasks:
            raise SheetsError(f"no hand task has the id {task_id!r}; hand tasks: " + ", ".join(
                t.id for t in course.tasks if getattr(t, "answers", None)))
    if not tasks:
        raise SheetsError("the task files have no hand task (a tree task with answers:)")
    return tasks


def call_for(task, key: str):
    """The by-hand call of ``task`` for the student ``key``: their own tree's."""
    call = task_call(task)
    item = json.loads(call.items[0])
    if item.get("variants"):
        item = variant_item(item, key, call.prune_on_equality)
        return replace(call, items=(canonical(item),))
    return call


# -- writing -----------------------------------------------------------------------------

def write_sheets(course, students: list[Student], out: Path, catalogue, answers,
                 task_id: str | None = None, moodle: bool = True) -> dict:
    """Everything ``grader sheets`` writes (see the module docstring); returns a summary:
    ``students``, ``variants`` (distinct trees per task) and ``files`` written."""
    from ..report.hand import blank, labels_of, solution
    from ..report.templating import TEMPLATES
    from ..report.files import write_atomically
    from .questions import drawing as drawing_of
    from .questions import questions_of
    out = Path(out)
    tasks = hand_tasks(course, task_id)
    words = _words(catalogue)
    text_words = _words(catalogue, html=False)
    titles = {kind: catalogue.text(f"kind.{kind}") for kind in (
        "hand-values", "hand-intervals", "hand-returns", "hand-cuts", "hand-visited",
        "hand-order", "hand-move")}
    labels = labels_of(catalogue)
    rows, solutions, variants = [], {}, {}
    written = 0
    for student in students:
        sheets = []
        for task in tasks:
            call = call_for(task, student.key)
            answer = answers[call][0]
            drawing = drawing_of(answer, limit=None)
            questions = questions_of(task, answer)
            context = {"task": task, "course": course, "student": student, "answer": answer,
                       "questions": questions, "tree": blank(drawing), "drawing": drawing,
                       "code": answer["variant"], "file": f"{task.answers}.yaml",
                       "form": f"{task.answers}-form.html", "lang": catalogue.language,
                       "rule": "equal" if task.prune_on_equality else "strict", "t": words,
                       "tt": text_words, "titles": titles, "yaml_key": yaml_key,
                       "form_data": _form_data(task, answer, questions, student)}
            sheets.append(context)
            folder = out / student.folder
            write_atomically(folder / context["file"],
                             TEMPLATES.get_template("answer_template.yaml.j2").render(
                                 **context, yaml=_yaml_text))
            write_atomically(folder / context["form"],
                             TEMPLATES.get_template("answer_form.html.j2").render(**context))
            written += 2
            name = f"solutions/{task.id}-{answer['variant']}.html"
            if name not in solutions:
                solutions[name] = True
                variants.setdefault(task.id, set()).add(answer["variant"])
                write_atomically(out / name, TEMPLATES.get_template("solution.html.j2").render(
                    **{**context, "tree": solution(answer, drawing, labels)},
                    solved=_solved(answer, questions)))
                written += 1
            rows.append({"student": student, "task": task, "code": answer["variant"],
                         "solution": name, "file": context["file"], "form": context["form"]})
        write_atomically(out / student.folder / "sheet.html",
                         TEMPLATES.get_template("sheet.html.j2").render(
                             sheets=sheets, student=student, course=course, t=words,
                             titles=titles, lang=catalogue.language))
        written += 1
    write_atomically(out / "index.html", TEMPLATES.get_template("sheets_index.html.j2").render(
        rows=rows, course=course, t=words, lang=catalogue.language, moodle=moodle))
    write_atomically(out / "variants.csv", _variants_csv(rows))
    written += 2
    if moodle:
        from ..lms.moodle_questions import moodle_questions
        xml = moodle_questions(course, tasks, answers, catalogue,
                               [call_for(task, s.key) for task in tasks for s in students])
        write_atomically(out / "moodle-questions.xml", xml)
        written += 1
    return {"students": len(students), "files": written,
            "variants": {task_id: len(codes) for task_id, codes in variants.items()}}


def _words(catalogue, html: bool = True):
    render = catalogue.html if html else catalogue.text

    def t(key: str, **facts):
        return render(f"hand.{key}", **facts)
    return t


def _yaml_text(text) -> str:
    """A YAML scalar that is read back as exactly ``text`` (double-quoted, JSON's escapes)."""
    return json.dumps(str(text), ensure_ascii=False)


def yaml_key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.]*", name) else _yaml_text(name)


def _form_data(task, answer, questions, student) -> dict:
    """What the answer form's script needs: the questions, the tree's nodes and edges."""
    children = answer["children"]
    root = answer["root"]
    return {"file": f"{task.answers}.yaml", "student": student.key, "variant": answer["variant"],
            "task": task.id, "questions": [q["kind"] for q in questions],
            "nodes": {q["kind"]: q.get("nodes", []) for q in questions},
            "children": {n: children[n] for n in children},
            "edges": [[p, c] for p in answer["order"] if p in children for c in children[p]],
            "moves": list(zip(answer["actions"].get(root, []), children.get(root, [])))}


def _solved(answer, questions) -> dict:
    """The reference's answers to the questions, as the solution page lists them."""
    from .notation import show, show_interval
    run = answer.get("alphabeta") or {}
    rows = {}
    for question in questions:
        kind = question["kind"]
        if kind == "hand-values":
            rows[kind] = [(n, show(answer["values"][n])) for n in question["nodes"]]
        elif kind == "hand-intervals":
            rows[kind] = [(n, show_interval(run["intervals"].get(n, "pruned")))
                          for n in question["nodes"]]
        elif kind == "hand-returns":
            rows[kind] = [(n, show(run["returns"].get(n, "pruned"))) for n in question["nodes"]]
        elif kind == "hand-cuts":
            rows[kind] = [(f"{p} → {c}", "") for p, c in run["cut_edges"]]
        elif kind == "hand-visited":
            rows[kind] = [("", str(len(run["visits"])))]
        elif kind == "hand-order":
            rows[kind] = [(n, "; ".join(", ".join(order) for order, count
                                        in answer["orders"][n]["orders"]
                                        if count == answer["orders"][n]["fewest"]))
                          for n in question["nodes"]]
        elif kind == "hand-move":
            rows[kind] = [("", ", ".join(answer["optimal_moves"]))]
    return rows


def _variants_csv(rows) -> str:
    from ..report.safe import csv_cell
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["key", "name", "folder", "task", "variant", "solution"])
    for row in rows:
        student = row["student"]
        writer.writerow([csv_cell(v) for v in (student.key, student.name, student.folder,
                                               row["task"].id, row["code"], row["solution"])])
    return text.getvalue()
