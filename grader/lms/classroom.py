"""GitHub Classroom's autograding: the result its grading reporter reads, and the workflow that
produces that result in a course's template repository.

Classroom's autograding (since 2024) is a workflow named ``Autograding Tests`` with one job,
``run-autograding-tests``.  Grading steps set an output ``result``: base64 of a JSON object
``{"version": 1, "status": "pass"|"fail"|"error", "max_score": N, "tests": [{"name",
"status", "score", "message", "test_code", "filename", "line_no"}, ...]}``.  The step
``classroom-resources/autograding-grading-reporter@v1`` lists the grading steps' ids in its
input ``runners``, reads each one's result from the environment variable
``<ID>_RESULTS`` (the id in capitals), adds up ``max_score`` and every test's ``score``,
reports ``Points X/Y`` to Classroom, and fails the job when a result's ``status`` is
``fail`` or ``error``.  The grader is one such grading step, with the id ``RUNNER_ID``.

This module only renders: it never grades, and it reads nothing from the submission.
"""

from __future__ import annotations

import base64
import json
import os
import shlex
from pathlib import Path

from ..report.messages import Catalogue
from ..report.views import student_view

RUNNER_ID = "grader"    # the grading step's id; the reporter reads GRADER_RESULTS
RESULT_VERSION = 1      # the result format the reporter's runner actions write
WORKFLOW_NAME = "Autograding Tests"      # Classroom looks for this workflow ...
JOB_ID = "run-autograding-tests"         # ... and this job: no other name is read
DEFAULT_WORKFLOW = Path(".github") / "workflows" / "classroom.yml"
# What `grader classroom` installs unless told otherwise: a placeholder the instructor
# replaces with where their copy of the grader lives (a Git URL, a wheel, a package name).
PLACEHOLDER_INSTALL = ("gametree-grader @ "
                       "git+https://github.com/YOUR-ORGANISATION/gametree-grader.git")
# A step output may hold at most 1 MB; a message longer than this is cut.
MAX_MESSAGE = 4000


def reporter_result(result, course, catalogue: Catalogue) -> dict:
    """The grading reporter's result for one submission: one test per check that ran (for
    ``grader check``, the visible ones), named ``task · function · check`` and holding the
    grader's message as plain text in the catalogue's language."""
    view = student_view(result, course, catalogue, html=False, group=False)
    tests = []
    named: dict[str, int] = {}
    for task in view["tasks"]:
        for check in task["checks"]:
            facts = {"task": task["title"] or task["id"], "function": check["function"],
                     "check": check["kind_title"]}
            name = catalogue.text("ui.classroom_test", **facts)
            named[name] = named.get(name, 0) + 1
            if named[name] > 1:     # two checks of one kind on one function: numbered
                name = catalogue.text("ui.classroom_test", number=named[name], **facts)
            message = str(check["message"])
            if check["traceback"]:
                message += "\n\n" + check["traceback"]
            tests.append({"name": name,
                          "status": "pass" if check["passed"] else "fail",
                          "score": check["score"],
                          "max_score": check["max_score"],
                          "message": _shortened(message),
                          "test_code": "", "filename": "", "line_no": 0})
    status = ("error" if result.problem else
              "pass" if all(test["status"] == "pass" for test in tests) else "fail")
    payload = {"version": RESULT_VERSION, "status": status,
               "max_score": sum(test["max_score"] for test in tests), "tests": tests}
    if result.problem:
        payload["message"] = catalogue.text(f"ui.{result.problem}", detail=result.problem_detail)
    return payload


def _shortened(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE - 1] + "…"


def encoded(payload: dict) -> str:
    """The form a step output carries: base64 of the UTF-8 JSON, on one line."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def write_result(path: Path, payload: dict, environ=os.environ) -> bool:
    """Write the result as JSON to ``path``; inside a GitHub Actions step (``GITHUB_OUTPUT``
    set) also set the step's output ``result`` to its base64 form.  Returns whether the step
    output was set."""
    from ..report.files import write_atomically
    write_atomically(Path(path), json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    outputs = environ.get("GITHUB_OUTPUT")
    if not outputs:
        return False
    with open(outputs, "a", encoding="utf-8") as step_outputs:
        step_outputs.write(f"result={encoded(payload)}\n")
    return True


class WorkflowError(ValueError):
    """An option of ``grader classroom`` that cannot go into the workflow as given."""


def workflow(tasks: str, install: str, lang: str | None = None, kit: str | None = None) -> str:
    """The text of ``.github/workflows/classroom.yml`` for a template repository whose task
    files lie at ``tasks`` (relative to the repository's root); ``install`` is what pip
    installs the grader from.  With ``kit`` (a self-check kit's folder in the repository),
    the kit's check.py runs instead, with the kit's own wheel: no task file and no model
    solution needs to be in the repository."""
    given = (("--tasks", tasks), ("--install", install)) + ((("--kit", kit),) if kit else ())
    for option, value in given:
        if not value.strip() or any(ord(c) < 32 or c == "\x7f" for c in value):
            raise WorkflowError(f"{option} {value!r}: give a single line of text")
    for option, value in (("--kit", kit),) if kit else (("--tasks", tasks),):
        path = Path(value)
        if path.is_absolute() or ".." in path.parts:
            raise WorkflowError(f"{option} {value}: give its path inside the repository, "
                                f"relative to its root (e.g. {option} "
                                f"{'kit' if kit else 'tasks'})")
    path = Path(tasks)
    from ..report.templating import TEMPLATES
    return TEMPLATES.get_template("classroom.yml.j2").render(
        workflow_name=WORKFLOW_NAME, job_id=JOB_ID, runner_id=RUNNER_ID,
        results_variable=f"{RUNNER_ID.upper()}_RESULTS",
        install=shlex.quote(install), tasks=shlex.quote(path.as_posix()),
        kit=shlex.quote((Path(kit) / "check.py").as_posix()) if kit else None, lang=lang,
        # paths inside a GitHub expression's single-quoted string (the cache's key)
        tasks_glob=path.as_posix().replace("'", "''"),
        kit_glob=Path(kit).as_posix().replace("'", "''") if kit else None)
