"""Verdicts -> view models (plain dicts) for the templates and writers."""

from __future__ import annotations

import datetime
import functools
import json

from .messages import Catalogue
from .positions import table_positions
from .trees import drawable, sequence_rows, text_tree, tree_layout


def hidden_now(check, task, now: datetime.datetime | None = None) -> bool:
    """Whether a student may not see this check's details yet."""
    if check.visibility == "hidden":
        return True
    if check.visibility == "after_due":
        now = now or datetime.datetime.now(datetime.timezone.utc)
        return task.due is None or now < task.due
    return False


def check_view(verdict, task, catalogue: Catalogue, html: bool, for_student: bool,
               now: datetime.datetime | None = None, pictures: dict | None = None) -> dict:
    """One check's view (``pictures``: ``student_view``'s)."""
    check = verdict.check
    render = catalogue.html if html else catalogue.text
    hidden = hidden_now(check, task, now)
    named, diagnosis = (), None
    if hidden and for_student:
        message = render("hidden.passed" if verdict.passed else "hidden.failed")
        traceback = None
    else:
        key = f"ok.{check.kind}" if verdict.reason == "ok" else f"reason.{verdict.reason}"
        example = "example.text"
        if verdict.facts.get("sealed"):
            # judged with a self-check kit's sealed answers: where the words would name the
            # reference's side, the kit's own say where the student differs instead
            key = f"kit-{key}" if catalogue.has(f"kit-{key}") else key
            example = f"kit-{example}"
        message = render(key, **verdict.facts)
        if not verdict.passed and verdict.facts.get("example"):
            message = message + " " + render(example, **verdict.facts)
        named = tuple(verdict.facts.get("diagnosis") or ())
        sentences = []
        signature = verdict.facts.get("signature")
        if signature:
            sentences.append(render("signature.unclear" if signature.get("unclear") else
                                    "signature.adapted" if signature.get("adapted")
                                    else "signature.differs", **signature))
            named = ("signature",) + named
        if verdict.facts.get("diagnosis"):
            sentences.append(render("diagnosis.alike", kind=check.kind, mistakes=[
                {"description": catalogue.lookup(f"mistake.{m}"),
                 "line": catalogue.lookup(f"pseudocode.{m}")}
                for m in verdict.facts["diagnosis"]]))
        for sentence in sentences:  # concatenated, not joined: keeps HTML-safe text safe
            diagnosis = sentence if diagnosis is None else diagnosis + " " + sentence
        traceback = verdict.facts.get("traceback") if not verdict.passed else None
        if traceback is None and isinstance(verdict.facts.get("error"), dict):
            traceback = verdict.facts["error"].get("traceback")
    picture = None
    # (a kit's sealed answers hold no visits to draw beside the student's)
    if not verdict.passed and not (hidden and for_student) and not verdict.facts.get("sealed"):
        picture = shared_picture(verdict.facts, pictures)
    replays = None
    if verdict.facts.get("replays") and check.visibility == "visible":
        replays = {kind: f"{replay_stem(check)}.{kind}" for kind in ("html", "json")}
    return {
        "picture": picture,
        "id": check.id,
        "task_id": task.id,
        "task_title": task.title,
        "kind": check.kind,
        "kind_title": catalogue.lookup(f"kind.{check.kind}"),
        "function": check.function,
        "score": verdict.score,
        "max_score": verdict.max_score,
        "passed": verdict.passed,
        "hidden": hidden,
        "visibility": check.visibility,
        "reason": verdict.reason,
        "message": message,
        "traceback": traceback,
        "replays": replays,      # the games of a check that grades by play: page and JSON
        "named": named,          # the mistakes named, and the sentence naming them, which
        "diagnosis": diagnosis,  # place_diagnoses adds to the message
    }


def replay_stem(check) -> str:
    """Where a check's games are written beside the report, without the suffix."""
    return "replays/" + check.id.replace("/", ".")


def shared_picture(facts: dict, pictures: dict | None) -> dict | None:
    """``picture_view(facts)``, made once for all the views that share ``pictures`` (a dict
    the caller keeps while it makes them): a student's three reports draw the same failed
    searches, whether as text or HTML, and the templates only read a picture."""
    if pictures is None:
        return picture_view(facts)
    made = pictures.get(id(facts))
    if made is None or made[0] is not facts:
        made = pictures[id(facts)] = (facts, picture_view(facts))
    return made[1]


def picture_view(facts: dict) -> dict | None:
    """What the templates need to draw the search of a failed check, or None."""
    picture = facts.get("picture")
    example = facts.get("example")
    if example and example.get("spec") and example.get("observed"):
        picture = {"key": repr(example["tree"]), "spec": example["spec"],
                   "values": example.get("values", {}),
                   "expected": example["expected"]["visits"],
                   "observed": example["observed"]["visits"], "first": None}
    if not picture:
        return None
    spec, expected, observed = picture["spec"], picture["expected"], picture["observed"]
    view = {"key": picture["key"]}
    if drawable(spec):
        view["tree"] = tree_layout(spec, picture["values"], expected, observed, picture["first"])
        view["text"] = text_tree(spec, picture["values"], expected, observed)
    else:
        view["rows"] = sequence_rows(expected, observed, offset=picture.get("offset", 0))
        # Tic-tac-toe and matchsticks: each node's board or pile, and a legend of the paths
        view["legend"] = table_positions(spec, view["rows"])
    return view


# Failures that concern a whole module: said once at the top of the page.
MODULE_FAILURES = ("call.missing-module", "call.missing-function", "call.import-error",
                   "call.import-timeout")
# Failures that concern one run of a function: said once per task and function.
RUN_FAILURES = ("result.shape", "search.none", "search.above-horizon", "item.error", "call.timeout", "call.crashed",
                "call.budget", "call.protocol", "call.withheld", "call.after-timeout")


def group_failures(checks: list, page_notes: list, catalogue: Catalogue, html: bool) -> list:
    """One failure shared by several checks is said once: module failures (a syntax error, a
    missing file or function) at the top of the page, failures of one run (a reply of the
    wrong shape, a timeout, an exception) above the task's table; the checks then point
    there.  Returns the task's notes."""
    render = catalogue.html if html else catalogue.text
    notes: list = []
    shared: dict = {}
    for check in checks:
        if not check["passed"] and not check["hidden"]:
            shared.setdefault((check["function"], check["reason"], str(check["message"])),
                              []).append(check)
    for (function, reason, _), group in shared.items():
        module_wide = reason in MODULE_FAILURES
        if not module_wide and (reason not in RUN_FAILURES or len(group) < 2):
            continue
        target = page_notes if module_wide else notes
        note = next((n for n in target if str(n["message"]) == str(group[0]["message"])), None)
        if note is None:
            note = {"functions": [], "message": group[0]["message"], "traceback": None}
            target.append(note)
        if function not in note["functions"]:
            note["functions"].append(function)
        note["traceback"] = note["traceback"] or next(
            (c["traceback"] for c in group if c["traceback"]), None)
        for check in group:
            check["message"] = render("ui.see_page_note" if module_wide else "ui.see_note",
                                      function=function)
            check["traceback"] = None
            check["pointed"] = "page" if module_wide else "task"   # where its failure is said
    return notes


def place_diagnoses(tasks: list, catalogue: Catalogue, html: bool, once: bool) -> None:
    """Add each check's diagnosis to its message.  ``once``: a function's mistake is said by
    the first of its failed checks on the page; later checks that name the same mistakes
    point there."""
    render = catalogue.html if html else catalogue.text
    said: dict = {}
    for task in tasks:
        for check in task["checks"]:
            if not check["diagnosis"]:
                continue
            key = (check["function"], check["named"])
            first = said.get(key) if once else None
            if first is None:
                check["message"] = check["message"] + " " + check["diagnosis"]
                said[key] = {"task": task["title"] or task["id"], "check": check["kind_title"]}
            else:
                check["message"] = check["message"] + " " + render("diagnosis.see_first", **first)


# Notes that say which of the student's files were graded under which name: said once at the
# top of the student's own page too (the others are the instructor's).
STUDENT_NOTES = ("case-renamed", "subfolder", "inner-archive", "function-case",
                 "provided-kept", "provided-own")


def arranged_notes(result, catalogue: Catalogue, html: bool) -> list:
    """The messages of the notes in ``STUDENT_NOTES`` (a file graded under the name the task
    gives it, a sub-folder graded, a course module used instead of the student's)."""
    render = catalogue.html if html else catalogue.text
    return [render(f"note.{note.key}", **note.facts)
            for note in getattr(result, "notes", ()) if note.key in STUDENT_NOTES]


def quiescence_rule(task) -> dict | None:
    """A quiescence task's rule from its game spec (``noisy``, ``extension``), or None."""
    game_spec = getattr(task, "game_spec", None)
    if not game_spec:
        return None
    rule = _quiescence_rule(game_spec)
    return dict(rule) if rule is not None else None


@functools.lru_cache(maxsize=256)
def _quiescence_rule(game_spec: str) -> tuple | None:
    """Parsed once per spec: each view asks for every task's (a page draws three views)."""
    spec = json.loads(game_spec)
    if not isinstance(spec, dict) or "noisy" not in spec:
        return None
    return (("noisy", spec["noisy"]), ("extension", spec.get("extension")))


def student_view(result, course, catalogue: Catalogue, html: bool, for_student: bool = True,
                 now: datetime.datetime | None = None, group: bool = True,
                 pictures: dict | None = None) -> dict:
    """A student's page.  ``group`` says a shared failure once (pages); formats whose checks
    stand alone (Gradescope's tests, JUnit's cases) keep every message whole.  ``pictures``:
    a dict shared by the views of one result, which then draw each failed search once
    (``shared_picture``)."""
    tasks = []
    page_notes: list = []
    shown_tracebacks: set[str] = set()
    shown_pictures: set[str] = set()
    by_task: dict[str, list] = {}
    for verdict in result.verdicts:
        by_task.setdefault(verdict.check.task_id, []).append(verdict)
    for task in course.tasks:
        verdicts = by_task.get(task.id)
        if not verdicts:
            continue
        order = {function: index for index, function in enumerate(task.functions)}
        verdicts = sorted(verdicts, key=lambda v: order.get(v.check.function, 0))
        checks = [check_view(v, task, catalogue, html, for_student, now, pictures)
                  for v in verdicts]
        notes = group_failures(checks, page_notes, catalogue, html) if group else []
        for check in checks:  # one traceback, one picture where many checks share a failure
            if check["traceback"] in shown_tracebacks:
                check["traceback"] = None
            elif check["traceback"]:
                shown_tracebacks.add(check["traceback"])
            if check["picture"] and check["picture"]["key"] in shown_pictures:
                check["picture"] = None
            elif check["picture"]:
                shown_pictures.add(check["picture"]["key"])
        tasks.append({"id": task.id, "title": task.title, "checks": checks, "notes": notes,
                      # a game's heuristic at the horizon, by name (grader.answers.heuristics)
                      "heuristic": getattr(task, "heuristic", None), "depth": task.depth,
                      "quiescence": quiescence_rule(task),
                      # a hand exercise: the student's tree with their answers (report/hand.py)
                      "hand": _hand_picture(verdicts, task, catalogue, for_student, now),
                      "score": sum(c["score"] for c in checks),
                      "max_score": sum(c["max_score"] for c in checks)})
    place_diagnoses(tasks, catalogue, html, once=group)
    return {"student": result.student, "display": result.display or result.student,
            "course": course.title, "tasks": tasks, "notes": page_notes,
            "arranged": arranged_notes(result, catalogue, html),
            "score": result.score, "max_score": result.max_score,
            "output": output_view(result.output, for_student), "isolation": result.isolation,
            "seconds": result.seconds, "problem": result.problem,
            "problem_detail": result.problem_detail}


def _hand_picture(verdicts, task, catalogue, for_student, now):
    hand = [v for v in verdicts if v.reason == "hand"
            and not (for_student and hidden_now(v.check, task, now))]
    if not any(v.reason == "hand" for v in verdicts):
        return None
    from .hand import task_picture
    return task_picture(hand, catalogue)


SHOWN_OUTPUT = 4000     # characters of output a feedback page shows
# What the child printed before the hidden checks began, and after (``Child.mark_output``).
OUTPUT_PHASES = (("", False), ("later_", True))


def output_view(output: dict, for_student: bool, shown: int = SHOWN_OUTPUT) -> dict:
    """What the student's code printed, as a report shows it: ``parts``, the text printed
    before the hidden checks began and (not ``for_student``) during them (``hidden``: it may
    carry their inputs, so it is the instructor's only), cut to ``shown`` characters in all;
    ``dropped``, the bytes of it that are not shown (cut when the child's output was
    captured, ``grader.sandbox.captured``, or here)."""
    phases = [(prefix, hidden) for prefix, hidden in OUTPUT_PHASES
              if not (hidden and for_student)]
    texts = [output.get(f"{prefix}stdout", "") + output.get(f"{prefix}stderr", "")
             for prefix, _ in phases]
    parts, dropped = [], 0
    for (prefix, hidden), text, room in zip(phases, texts, shares(texts, shown)):
        dropped += (output.get(f"{prefix}stdout_dropped", 0)
                    + output.get(f"{prefix}stderr_dropped", 0)
                    + len(text[room:].encode("utf-8", "surrogatepass")))
        if text:
            parts.append({"text": text[:room], "hidden": hidden})
    return {"parts": parts, "dropped": dropped}


def shares(texts: list[str], room: int) -> list[int]:
    """How many characters of each text fit in ``room``: all of the short ones, equal
    shares of the rest (output printed during hidden checks is not crowded out by a flood
    before them)."""
    result = [0] * len(texts)
    by_length = sorted(range(len(texts)), key=lambda index: len(texts[index]))
    for position, index in enumerate(by_length):
        result[index] = min(len(texts[index]), room // (len(texts) - position))
        room -= result[index]
    return result


def task_scores(result) -> dict:
    scores: dict[str, float] = {}
    for verdict in result.verdicts:
        scores[verdict.check.task_id] = scores.get(verdict.check.task_id, 0.0) + verdict.score
    return scores
