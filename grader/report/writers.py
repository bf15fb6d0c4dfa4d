"""A student's reports and a batch's own exports, rendered from the views, the message
catalogue and the templates: results.json (Gradescope's format), feedback.md/.html and the
games of play checks per student; gradebook.csv, junit.xml, summary.html and the batch
record for the instructor.  Written to disk atomically (``files.py``)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from .. import __version__
from .grades import grade_cell, has_grade, points_text
from .files import write_files
from .messages import Catalogue
from .safe import csv_cell, deep, xml_text
from .templating import TEMPLATES, md_text
from .views import output_view, student_view, task_scores

# Beside the exports: what the batch was (its shard, task files, students, time), for
# ``grader merge``.  Hidden, as a student's id never starts with a dot.
BATCH_RECORD = ".batch.json"
JUNIT_OUTPUT = 8000     # characters of a student's output in junit.xml (the instructor's)


def _ui(catalogue: Catalogue, html: bool):
    """The page's labels: ``ui(key, **facts)``.  A label without facts is the same text each
    time a page asks for it (a page asks for some once per check): rendered once."""
    render = catalogue.html if html else catalogue.text
    plain: dict = {}

    def ui(key: str, **facts):
        if facts:
            return render(f"ui.{key}", **facts)
        if key not in plain:
            plain[key] = render(f"ui.{key}")
        return plain[key]
    return ui


def results_json(result, course, catalogue: Catalogue, pictures: dict | None = None) -> dict:
    """Gradescope's results format; hidden checks keep their details here (Gradescope hides
    them from students by ``visibility``).  ``pictures``: ``views.student_view``'s."""
    view = student_view(result, course, catalogue, html=False, for_student=False, group=False,
                        pictures=pictures)
    tests = []
    ui = _ui(catalogue, False)
    check_md = TEMPLATES.get_template("check.md.j2")
    for task in view["tasks"]:
        for check in task["checks"]:
            tests.append({
                "name": f"{check['id']} ({check['kind_title']})",
                "score": check["score"],
                "max_score": check["max_score"],
                "status": "passed" if check["passed"] else "failed",
                # the Markdown of feedback.md: the visit table, the counterexample, the
                # named mistake (Gradescope renders it with output_format md)
                "output": check_md.render(check=check, ui=ui).strip(),
                "output_format": "md",
                "visibility": {"hidden": "hidden", "after_due": "after_due_date"}.get(
                    check["visibility"], "visible"),
                "tags": [check["function"], check["kind"], check["task_id"]],
            })
    # The top-level output says what was done to the hand-in (an archive unpacked, a folder
    # descended into) and why it could not be graded, if so: Markdown, with everything the
    # submission named escaped, so none of its markup is rendered.
    return {"score": result.score, "execution_time": round(result.seconds, 3),
            "visibility": "visible", "stdout_visibility": "hidden", "output_format": "md",
            "test_output_format": "md",
            "output": submission_notes_md(result, catalogue),
            "tests": tests,
            "extra_data": {"student": result.student, "display_name": result.display,
                           "max_score": result.max_score,
                           "isolation": result.isolation, "language": catalogue.language,
                           "needs_person": needs_person(result),
                           "forgery": next((n.facts.get("findings", []) for n in result.notes
                                            if n.key == "forgery"), []),
                           "notes": [{**note.as_json(),
                                      "text": note_text(note, catalogue)}
                                     for note in result.notes]}}


# Notes for the instructor's eyes only: what the forgery scan found, the grader's own
# traceback, the roster's matching.
INSTRUCTOR_NOTES = frozenset({"forgery", "internal-error", "not-in-roster"})


def submission_notes_md(result, catalogue: Catalogue) -> str:
    """Gradescope's top-level output: the submission's problem and the notes a student may
    read, as Markdown (each an escaped paragraph)."""
    parts = [catalogue.text(f"ui.{result.problem}", detail=result.problem_detail)
             ] if result.problem else []
    parts += [note_text(note, catalogue) for note in result.notes
              if note.key not in INSTRUCTOR_NOTES]
    return "\n\n".join(md_text(part) for part in parts)


def needs_person(result) -> bool:
    """Whether an instructor should look at this submission: it could not be graded as
    handed in (a broken archive, an internal error, nothing handed in) or something about it
    needs a decision (a note other than the harmless ones, ``notes.HARMLESS``)."""
    from ..notes import needs_person as note_needs_person
    return bool(result.problem or any(note_needs_person(n) for n in result.notes))


MAX_LISTED_FINDINGS = 8


def note_text(note, catalogue: Catalogue) -> str:
    try:
        if note.key == "forgery":
            findings = note.facts.get("findings") or []
            lines = [f"{f['file']}:{f['line']}: "
                     + catalogue.text(f"forgery.{f['kind']}", what=f["what"])
                     for f in findings[:MAX_LISTED_FINDINGS]]
            return catalogue.text("note.forgery", lines=lines,
                                  more=max(0, len(findings) - MAX_LISTED_FINDINGS))
        return catalogue.text(f"note.{note.key}", **note.facts)
    except (KeyError, TypeError):
        return note.key


def render_student(result, course, catalogue: Catalogue, text_view: dict | None = None
                   ) -> dict[str, str]:
    """A student's report files by name: results.json, feedback.md, feedback.html
    (``text_view``: the student's ``student_view(..., html=False)`` if already made)."""
    pictures: dict = {}     # each failed search drawn once for the three files
    data = results_json(result, course, catalogue, pictures)
    md_view = text_view or student_view(result, course, catalogue, html=False,
                                        pictures=pictures)
    html_view = student_view(result, course, catalogue, html=True, pictures=pictures)
    return {
        "results.json": json.dumps(data, indent=2, ensure_ascii=False) + "\n",
        "feedback.md": TEMPLATES.get_template("feedback.md.j2").render(
            view=md_view, ui=_ui(catalogue, False), version=__version__),
        "feedback.html": TEMPLATES.get_template("feedback.html.j2").render(
            view=html_view, ui=_ui(catalogue, True), lang=catalogue.language,
            version=__version__),
        **replay_files(result, catalogue)}


def replay_files(result, catalogue: Catalogue) -> dict[str, str]:
    """The games of checks that grade by play (``match``, ``rating``), per check:
    ``replays/<check id, / as .>.json`` holding the list of the games' replays
    (``grader.play.referee``), and ``.html``, the games drawn move by move
    (``grader.report.tournament.games_page``), which the feedback links.  Visible checks
    only: a hidden check's games (its opponent, its openings) stay in the verdict's facts,
    which the batch keeps in its state file."""
    files = {}
    for verdict in result.verdicts:
        replays = verdict.facts.get("replays")
        if replays and verdict.check.visibility == "visible":
            # imported here: a course without play checks (every self-check of the sheet)
            # does not pay for the tournament's pages
            from .tournament import games_page
            from .views import replay_stem
            stem = replay_stem(verdict.check)
            files[f"{stem}.json"] = json.dumps(
                {"check": verdict.check.id, "games": replays}, indent=1,
                ensure_ascii=False) + "\n"
            files[f"{stem}.html"] = games_page(replays, catalogue.language,
                                               catalogue.text(f"kind.{verdict.check.kind}"))
    return files


def check_text(check: dict, catalogue: Catalogue, problem: str | None = None,
               problem_detail: str | None = None) -> str:
    """One check's feedback as plain text (``check``: its view, ``views.check_view``): the
    submission's problem if it has one (``SubmissionResult.problem``: why its checks fail),
    the message, the search drawn or listed, the traceback.  For formats where each check
    stands alone and is read in a terminal, such as the pytest plugin's failures."""
    return TEMPLATES.get_template("check.txt.j2").render(
        check=check, problem=problem, problem_detail=problem_detail,
        ui=_ui(catalogue, False)).rstrip("\n")


def write_student(out: Path, result, course, catalogue: Catalogue,
                  text_view: dict | None = None) -> Path:
    return write_files(out / result.student,
                       render_student(result, course, catalogue, text_view))


def gradebook_csv(results, course) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student", "score", "max_score", *(task.id for task in course.tasks)])
    for result in sorted(results, key=lambda r: r.student):
        scores = task_scores(result)
        writer.writerow([csv_cell(result.student), grade_cell(result.score, result),
                         points_text(result.max_score),
                         *(grade_cell(scores.get(task.id, 0.0), result) for task in course.tasks)])
    return buffer.getvalue()


def summary_view(results, course, catalogue: Catalogue, batch: dict,
                 participants=None) -> dict:
    """What the instructor's page shows: distribution, pass rates, named mistakes, links."""
    results = sorted(results, key=lambda r: r.student)
    maximum = course.max_score or 1
    buckets = [0] * 10
    # the distribution and averages are of grades: one no one gave (a problem) is not a 0
    graded = [r for r in results if has_grade(r)]
    for result in graded:
        buckets[min(9, int(10 * result.score / maximum))] += 1
    tasks = []
    for task in course.tasks:
        scores = [task_scores(r).get(task.id, 0.0) for r in graded]
        tasks.append({"id": task.id, "title": task.title, "max": task.max_score,
                      "average": sum(scores) / len(scores) if scores else 0.0})
    passed: dict[str, int] = {}
    counted: dict[str, int] = {}
    named: dict[str, set] = {}
    for result in results:
        for verdict in result.verdicts:
            counted[verdict.check.id] = counted.get(verdict.check.id, 0) + 1
            passed[verdict.check.id] = passed.get(verdict.check.id, 0) + verdict.passed
            for mistake in verdict.facts.get("diagnosis") or ():
                named.setdefault(mistake, set()).add(result.student)
    checks = [{"id": c.id, "kind": c.kind, "visibility": c.visibility,
               "task": t.title or t.id, "function": c.function,
               "kind_title": catalogue.lookup(f"kind.{c.kind}"),
               "rate": passed[c.id] / counted[c.id] if counted.get(c.id) else None}
              for t in course.tasks for c in t.checks]
    # One row per submission, one column per task: the table the instructor sorts.
    matrix = [{"result": r, "scores": [task_scores(r).get(t.id, 0.0) for t in course.tasks]}
              for r in results]
    mistakes = sorted(({"id": m, "description": catalogue.lookup(f"mistake.{m}"),
                        "line": catalogue.lookup(f"pseudocode.{m}"), "students": sorted(s)}
                       for m, s in named.items()), key=lambda m: (-len(m["students"]), m["id"]))
    from ..notes import needs_person as note_needs_person

    def item(result, notes) -> dict:
        return {"student": result.student, "display": result.display, "score": result.score,
                "max_score": result.max_score, "graded": has_grade(result),
                "problem": catalogue.text(f"ui.{result.problem}",
                                          detail=result.problem_detail)
                if result.problem else None,
                "notes": [note_text(n, catalogue) for n in notes]}
    attention = [item(r, [n for n in r.notes if note_needs_person(n)])
                 for r in results if needs_person(r)]
    # What was done without a doubt (an archive unpacked, a subfolder graded): kept apart.
    remarks = [item(r, r.notes) for r in results if r.notes and not needs_person(r)]
    return {"results": results, "buckets": buckets, "peak": max(buckets) or 1, "tasks": tasks,
            "checks": checks, "mistakes": mistakes, "attention": attention, "matrix": matrix,
            "remarks": remarks,
            "participants": [item.text(catalogue) for item in (participants or ())],
            "average": sum(r.score for r in graded) / len(graded) if graded else 0.0,
            "batch": batch}


def summary_html(results, course, catalogue: Catalogue, batch: dict,
                 participants=None) -> str:
    """The instructor's page; ``participants``: the hand-back's items for a person
    (``handback.Item``: participants of the worksheet or roster left without a grade, folders
    no one got), listed under "Needs a person" with the submissions."""
    return TEMPLATES.get_template("summary.html.j2").render(
        course=course, view=summary_view(results, course, catalogue, batch, participants),
        ui=_ui(catalogue, True), lang=catalogue.language, version=__version__)


# What junit.xml.j2 reads of a check's view: only these are made XML-safe and passed on (the
# rest, such as a failing check's pictures, is no part of the file).
JUNIT_CASE = ("task_id", "id", "kind_title", "score", "max_score", "function", "kind",
              "visibility", "passed", "message", "reason", "traceback")


def junit_xml(results, course, catalogue: Catalogue, shard: dict | None = None) -> str:
    """One testsuite per student, one testcase per check, the points as properties and the
    expected and observed values in the failure text (an instructor's view: hidden checks
    keep their details).  A shard's (``shard``: its record) says so in the top name."""
    return "".join(junit_chunks(results, course, catalogue, shard))


def junit_chunks(results, course, catalogue: Catalogue, shard: dict | None = None):
    """``junit_xml``'s text in pieces, each student's made when the file reaches them: a
    class of 1,000 never holds all its views nor the whole text (25 MB) at once."""
    results = sorted(results, key=lambda r: r.student)
    tasks = {task.id for task in course.tasks}
    # the totals come first in the file: counted from the verdicts the views show
    judged = [[v.passed for v in r.verdicts if v.check.task_id in tasks] for r in results]
    return TEMPLATES.get_template("junit.xml.j2").generate(
        course=course, shard=shard, suites=(_junit_suite(r, course, catalogue) for r in results),
        tests=sum(map(len, judged)), failures=sum(p.count(False) for p in judged),
        ui=_ui(catalogue, False))


def _junit_suite(result, course, catalogue: Catalogue) -> dict:
    view = student_view(result, course, catalogue, html=False, for_student=False, group=False)
    # Names, messages and output come from submissions: nothing in them may break the XML
    # (the keys are the grader's own).
    cases = [{key: xml_text(check[key]) for key in JUNIT_CASE} for task in view["tasks"]
             for check in task["checks"]]
    return {"student": xml_text(result.student), "cases": cases, "tests": len(cases),
            "failures": sum(not c["passed"] for c in cases), "seconds": result.seconds,
            "score": result.score, "max_score": result.max_score,
            "isolation": xml_text(result.isolation),
            "output": deep(output_view(result.output, for_student=False, shown=JUNIT_OUTPUT),
                           xml_text)}


def batch_record(results, catalogue: Catalogue, batch: dict) -> str:
    """``.batch.json``: the batch info, its language and the students whose results it holds."""
    return json.dumps({**batch, "language": catalogue.language,
                       "students": sorted(result.student for result in results)},
                      indent=2, ensure_ascii=False) + "\n"
