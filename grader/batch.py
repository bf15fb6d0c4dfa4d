"""Batch grading: every submission of a folder, N at a time, each result written (atomically)
as soon as it is ready, so an interrupted batch loses at most the submissions in flight and
``--resume`` finishes it.

The batch always completes: whatever goes wrong while one submission is staged, run,
judged, shrunk or rendered becomes an internal-error result for that submission (stated as
such in its feedback and listed for the instructor), and the batch's exports are written
whatever happened.  SIGINT/SIGTERM stop it promptly: running children are killed, the
submissions in flight are dropped (not graded wrongly), and what was graded is written with
the summary marked "interrupted".
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import threading
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from . import checks as check_kinds
from . import forgery
from .answers import AnswerBook
from .checks import Verdict
from .grading import Plan, SubmissionResult, grade_submission
from .notes import Note
from .report.messages import Catalogue
from .report.writers import write_atomically, write_batch, write_student
from .sandbox import launcher
from .sandbox.isolation import remove_stale_cgroups
from .sandbox.launcher import Interrupted, StagedRunner
from .submissions import Submission, content_hash, find, stage, tasks_hash

STATE_FILE = ".grading.json"
TEMP_PREFIX = "grader-batch-"


@dataclass
class BatchOutcome:
    results: list
    interrupted: bool = False
    export_errors: list = field(default_factory=list)   # exports that could not be written


def prepare(course, only_visible: bool = False, withhold_hidden: bool = False,
            answers: AnswerBook | None = None) -> tuple[Plan, AnswerBook]:
    """The plan of calls and all reference answers, computed once for the whole batch
    (``answers``: a book already filled, e.g. while the pins were verified, or one backed by
    the answer cache, which then keeps what was computed for the next run)."""
    plan = Plan.of(course, only_visible=only_visible, withhold_hidden=withhold_hidden)
    answers = answers if answers is not None else AnswerBook()
    for call in plan.calls:
        answers[call]
    answers.save()
    return plan, answers


def budget_of(course) -> float:
    return max((task.limits.submission_seconds for task in course.tasks), default=60.0)


def save_state(out: Path, result: SubmissionResult, hashes: dict) -> None:
    """What ``--resume`` needs to rebuild a result without grading again."""
    state = {"hashes": hashes, "student": result.student, "display": result.display,
             "output": result.output, "isolation": result.isolation,
             "seconds": result.seconds, "problem": result.problem,
             "problem_detail": result.problem_detail,
             "notes": [note.as_json() for note in result.notes],
             "verdicts": [{"check": v.check.id, "passed": v.passed, "score": v.score,
                           "reason": v.reason, "facts": v.facts} for v in result.verdicts]}
    write_atomically(out / result.student / STATE_FILE, json.dumps(state, default=list))


def load_state(out: Path, student: str, hashes: dict, course) -> SubmissionResult | None:
    try:
        state = json.loads((out / student / STATE_FILE).read_text())
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(state, dict) or state.get("hashes") != hashes \
            or not (out / student / "results.json").exists():
        return None
    checks = {c.id: c for t in course.tasks for c in t.checks}
    try:
        verdicts = [Verdict(checks[v["check"]], v["passed"], v["score"], v["reason"], v["facts"])
                    for v in state["verdicts"]]
        return SubmissionResult(student, verdicts, output=state["output"],
                                isolation=state["isolation"], seconds=state["seconds"],
                                problem=state["problem"], problem_detail=state["problem_detail"],
                                display=state.get("display") or student,
                                notes=[Note.from_json(n) for n in state.get("notes", ())])
    except (KeyError, TypeError, ValueError):
        return None


def internal_error_result(submission: Submission, course, error: BaseException,
                          level: str, notes=()) -> SubmissionResult:
    """The result of a submission the grader failed on: every check unscored, the cause
    stated as the grader's (not the student's), and a note for the instructor."""
    verdicts = [check_kinds.failed(check, "internal") for task in course.tasks
                for check in task.checks]
    detail = f"{type(error).__name__}: {error}"[:500]
    trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    return SubmissionResult(submission.student, verdicts, isolation=level,
                            problem="submission.internal", problem_detail=detail,
                            display=submission.display,
                            notes=[*notes, Note("internal-error", {"error": detail,
                                                                   "traceback": trace[-4000:]})])


def remove_stale_temporaries(base: Path | None = None) -> list[Path]:
    """Temporary folders of grading processes that no longer run (killed with SIGKILL)."""
    base = Path(base or tempfile.gettempdir())
    removed = []
    for path in base.glob(f"{TEMP_PREFIX}*"):
        owner = path.name[len(TEMP_PREFIX):].split("-", 1)[0]
        if owner.isdigit() and _alive(int(owner)):
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def grade_batch(course, root: Path, out: Path, jobs: int, catalogue: Catalogue,
                progress=None, level: str = "process", resume: bool = False,
                withhold_hidden: bool = False, answers: AnswerBook | None = None) -> BatchOutcome:
    started = time.monotonic()
    remove_stale_cgroups()
    remove_stale_temporaries()
    launcher.STOPPING.clear()
    plan, answers = prepare(course, withhold_hidden=withhold_hidden, answers=answers)
    course_hash = tasks_hash(course.files)
    results: list[SubmissionResult] = []
    interrupted = False
    temporary = Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-"))
    try:
        (temporary / "staged").mkdir()
        runner, runner_lock = StagedRunner(temporary / "runner"), threading.Lock()
        submissions = find(root)

        def grade(submission: Submission) -> SubmissionResult | None:
            notes = list(submission.notes)
            try:
                staged = stage(submission, temporary / "staged" / submission.student)
                notes += staged.notes
                findings = forgery.scan(staged.folder)
                if findings:
                    notes.append(Note("forgery", {"findings": forgery.findings_json(findings)}))
                hashes = {"tasks": course_hash, "submission": content_hash(staged.folder),
                          "problem": staged.problem, "withheld": withhold_hidden}
                if resume:
                    previous = load_state(out, submission.student, hashes, course)
                    if previous is not None:
                        return previous
                with runner_lock:
                    script = runner.intact()
                result = grade_submission(plan, answers, script, staged.folder,
                                          budget_of(course), level, student=submission.student,
                                          workdir=temporary)
                result.display, result.notes = submission.display, notes
                if staged.problem:
                    result.problem = ("submission.archive" if submission.kind == "archive"
                                      else "submission.unusable")
                    result.problem_detail = staged.problem
            except Interrupted:
                return None
            except Exception as error:  # noqa: BLE001 - one submission never stops the batch
                if launcher.STOPPING.is_set():
                    return None
                result = internal_error_result(submission, course, error, level, notes)
                hashes = None
            finally:   # a graded copy is not needed again: the disk stays bounded
                shutil.rmtree(temporary / "staged" / submission.student, ignore_errors=True)
            if launcher.STOPPING.is_set():
                return None  # its child may have been killed under it: not a fair result
            _write_student_safely(out, result, course, catalogue, hashes)
            return result

        pool = ThreadPoolExecutor(max_workers=max(1, jobs))
        pending = {pool.submit(grade, submission) for submission in submissions}
        try:
            while pending:
                done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                for future in done:
                    result = future.result()
                    if result is None:
                        continue
                    results.append(result)
                    if progress:
                        progress(result, len(results), len(submissions))
        except KeyboardInterrupt:
            interrupted = True
            launcher.stop_all_children()
            for future in pending:
                future.cancel()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        if interrupted:
            # Submissions that finished while the rest was being stopped still count.
            results += [f.result() for f in pending
                        if f.done() and not f.cancelled() and f.exception() is None
                        and f.result() is not None and f.result() not in results]
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
    errors = write_batch(out, results, course, catalogue,
                         {"isolation": level, "seconds": time.monotonic() - started,
                          "jobs": jobs, "python": sys.version.split()[0],
                          "interrupted": interrupted, "total": len(submissions)})
    return BatchOutcome(results, interrupted, errors)


def _write_student_safely(out: Path, result: SubmissionResult, course, catalogue,
                          hashes: dict | None) -> None:
    """The student's reports, and the state ``--resume`` reads (not for internal errors:
    those are graded again).  If rendering fails, the submission is reported as an
    internal error instead, which renders nothing of the student's."""
    try:
        if hashes is not None:
            # The state first: a results.json on disk then always has the state to resume from.
            save_state(out, result, hashes)
        write_student(out, result, course, catalogue)
    except Exception as error:  # noqa: BLE001
        fallback = internal_error_result(Submission(result.student, result.display,
                                                    Path("."), "folder"),
                                         course, error, result.isolation, result.notes)
        result.__dict__.update(fallback.__dict__)
        try:
            (out / result.student / STATE_FILE).unlink(missing_ok=True)
        except OSError:
            pass
        write_student(out, result, course, catalogue)
