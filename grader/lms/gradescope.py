"""The Gradescope autograder: the zip an instructor uploads (``grader gradescope``) and the
grading of one submission inside Gradescope's image (``grader gradescope-run``, which the
zip's ``run_autograder`` calls).

Gradescope's contract (its "Autograder Specifications"): the zip's root holds ``setup.sh``,
run once as root when the image is built (Ubuntu), and ``run_autograder``, run as root in
``/autograder`` for every submission; the zip's files are in ``/autograder/source``, the
student's in ``/autograder/submission``, and ``/autograder/results/results.json`` must be
there when it ends.  What it prints goes to the instructor only.

The zip holds the task files (``tasks/``) and a wheel of the grader as it is installed here
(``grader/wheel.py``, reference included: this is the instructor's autograder).  The run
grades every check, the hidden ones too, at the strongest isolation level that works in the
image; where that is only ``process`` (student code would run as root beside the task files
and the reference), the hidden checks are withheld, and results.json and the log say so.
It always leaves a results.json, also when the grader fails.
"""

from __future__ import annotations

import json
import shlex
import sys
import tempfile
import traceback
import zipfile
from pathlib import Path

ROOT = "/autograder"
VENV = "/opt/gametree-grader"          # setup.sh installs the grader here
CACHE = f"{VENV}/cache"                 # the reference answers setup.sh computes
EXECUTABLE = 0o755
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def build_autograder(course, out: Path, lang: str | None = None) -> Path:
    """Write the autograder zip of ``course`` to ``out``: setup.sh, run_autograder, the task
    files under tasks/ and the grader's wheel, all at the zip's root."""
    from .. import __version__
    from ..report.templating import TEMPLATES
    from ..wheel import build_wheel
    facts = {"version": __version__, "venv": VENV, "cache": CACHE,
             "lang": shlex.quote(lang) if lang else None}
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="grader-gradescope-") as work:
        wheel = build_wheel(Path(work))
        setup = TEMPLATES.get_template("gradescope-setup.sh.j2").render(
            wheel=shlex.quote(wheel.name),
            packages=[shlex.quote(name) for name in getattr(course, "packages", ())],
            **facts)
        run = TEMPLATES.get_template("gradescope-run_autograder.j2").render(**facts)
        temporary = out.with_name(f".{out.name}.part")
        try:
            with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as archive:
                _add(archive, "setup.sh", setup.encode("utf-8"), EXECUTABLE)
                _add(archive, "run_autograder", run.encode("utf-8"), EXECUTABLE)
                for file in course.files:
                    _add(archive, f"tasks/{Path(file).name}", Path(file).read_bytes())
                for name, source in game_modules(course).items():
                    _add(archive, name, source.encode("utf-8"))
                _add(archive, wheel.name, wheel.read_bytes())
            temporary.replace(out)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    return out


def game_modules(course) -> dict:
    """A course's own game modules (``game: ../games/race.py``) by their place in the zip,
    where the task files under tasks/ find them again.  A module outside the zip's root
    (``../../x.py``) is refused with what to do."""
    import json
    import posixpath
    modules = {}
    for task in course.tasks:
        if task.game != "plugin":
            continue
        spec = json.loads(task.game_spec)
        place = posixpath.normpath(posixpath.join("tasks", spec["path"]))
        if place.startswith("../") or place.startswith("/"):
            raise ValueError(f"{task.file}: the game module {spec['path']} lies outside the "
                             "task files' folder and the folder above it; move it beside "
                             "the task files (e.g. games/ next to tasks/)")
        modules[place] = spec["source"]
    for module in getattr(course, "provided", ()):   # provides: [utils.py], beside the tasks
        place = posixpath.normpath(posixpath.join("tasks", module.written))
        if place.startswith("../") or place.startswith("/"):
            raise ValueError(f"{module.file}: the provided module {module.written} lies "
                             "outside the task files' folder and the folder above it; move "
                             "it beside the task files")
        modules[place] = module.source
    return modules


def _add(archive: zipfile.ZipFile, name: str, data: bytes, mode: int = 0o644) -> None:
    from ..report.grades import zip_member
    zip_member(archive, name, data, ZIP_TIME, mode)


# -- inside Gradescope's image --------------------------------------------------------------
def run(root: Path, lang: str | None = None, level: str | None = None,
        log=None) -> int:
    """Grade ``root``/submission against ``root``/source/tasks and write
    ``root``/results/results.json; what happened is printed to ``log`` (the instructor's
    view of the run).  Returns the exit status: 0 graded (whatever the score), 1 the grader
    failed on the submission, 2 the task files are unusable; results.json is written in
    every case (where its folder can be written)."""
    from ..sandbox.base import STRONG_LEVELS
    from ..sandbox.levels import best_level
    from ..tasks import TaskFileError, load_course
    log = log or sys.stdout
    root = Path(root)
    results = root / "results" / "results.json"
    catalogue = _catalogue(lang, "en")
    try:
        course = load_course(root / "source" / "tasks")
    except TaskFileError as error:
        for problem in error.problems:
            print(problem, file=log)
        _write(results, _unusable(catalogue, f"{len(error.problems)} problem(s) in the "
                                  "autograder's task files"))
        return 2
    catalogue = _catalogue(lang, course.language)
    level = level or best_level()
    withheld = level not in STRONG_LEVELS
    print(f"gametree-grader: {len(course.tasks)} tasks, {course.max_score:g} points; "
          f"isolation: {level}", file=log)
    if withheld:
        print(f"The '{level}' level is the strongest that works in this image: student code "
              "would run as root beside the task files and the reference, so the hidden "
              "checks are withheld (they count as failed). Use a base image where bubblewrap "
              "can make namespaces or where the grader runs as root with coreutils chroot "
              "(the container level), and regrade.", file=log)
    submission = root / "submission"
    try:
        data = results_of(course, submission, level, withheld, catalogue)
    except Exception as error:  # noqa: BLE001 - a results.json is written whatever failed
        traceback.print_exc(file=log)
        data = _internal_error(course, error, level, catalogue)
        _write(results, data)
        return 1
    _write(results, data)
    print(f"Score {data['score']:g}/{course.max_score:g}; wrote {results}", file=log)
    return 0


def results_of(course, submission: Path, level: str, withheld: bool, catalogue) -> dict:
    """results.json of one submission: every check graded (the hidden ones withheld when
    ``withheld``), with the course's leaderboard."""
    from ..answers.book import AnswerBook
    from ..report.writers import results_json
    from ..single import grade_folder
    with tempfile.TemporaryDirectory(prefix="grader-gradescope-empty-") as empty:
        # Gradescope always makes the folder; an absent one is graded as an empty hand-in.
        folder = submission if submission.is_dir() else Path(empty)
        result = grade_folder(course, folder, level, only_visible=False,
                              withhold_hidden=withheld, student="submission",
                              answers=lambda: AnswerBook.for_course(course, use_cache=True))
    data = results_json(result, course, catalogue)
    if withheld:
        data["output"] = "\n\n".join(part for part in (catalogue.text("gradescope.withheld"),
                                                       data["output"]) if part)
    leaderboard = leaderboard_of(course, result)
    if leaderboard:
        data["leaderboard"] = leaderboard
    return data


def leaderboard_of(course, result) -> list[dict]:
    """The course's leaderboard columns for this result (Gradescope: name, value, order);
    a count check whose search gave no count leaves its column out."""
    from ..report.views import task_scores
    entries = []
    for column in course.leaderboard:
        if column.value == "score":
            value = result.score
        elif column.value == "task":
            value = task_scores(result).get(column.of, 0.0)
        elif column.value == "seconds":
            value = round(result.seconds, 3)
        else:
            value = next((v.facts.get("observed") for v in result.verdicts
                          if v.check.id == column.of), None)
            if not isinstance(value, int):
                continue
        entries.append({"name": column.name, "value": value, "order": column.order})
    return entries


def _internal_error(course, error: BaseException, level: str, catalogue) -> dict:
    from ..report.writers import results_json
    from ..submissions.finding import Submission
    from ..worker import internal_error_result
    result = internal_error_result(Submission("submission", "submission", Path("."), "folder"),
                                   course, error, level)
    return results_json(result, course, catalogue)


def _unusable(catalogue, detail: str) -> dict:
    return {"score": 0, "output": catalogue.text("gradescope.unusable", detail=detail),
            "output_format": "text", "visibility": "visible", "stdout_visibility": "hidden",
            "tests": []}


def _catalogue(lang: str | None, default: str):
    from ..report.messages import Catalogue
    return Catalogue(lang or default)


def _write(path: Path, data: dict) -> None:
    from ..report.files import write_atomically
    write_atomically(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
