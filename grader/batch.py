"""Batch grading: every submission of a folder, N at a time, each result written (atomically)
as soon as it is ready, so an interrupted batch loses at most the submissions in flight and
``--resume`` finishes it."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from .answers import AnswerBook
from .checks import Verdict
from .grading import Plan, SubmissionResult, grade_submission
from .report.messages import Catalogue
from .report.writers import write_atomically, write_batch, write_student
from .sandbox.launcher import stage_runner
from .submissions import Submission, content_hash, find, tasks_hash
from .submissions import stage as stage_submission  # names: `stage` is the runner's folder below

STATE_FILE = ".grading.json"


def prepare(course, only_visible: bool = False, withhold_hidden: bool = False,
            answers: AnswerBook | None = None) -> tuple[Plan, AnswerBook]:
    """The plan of calls and all reference answers, computed once for the whole batch
    (``answers``: a book already filled, e.g. while the pins were verified)."""
    plan = Plan.of(course, only_visible=only_visible, withhold_hidden=withhold_hidden)
    answers = answers if answers is not None else AnswerBook()
    for call in plan.calls:
        answers[call]
    return plan, answers


def budget_of(course) -> float:
    return max((task.limits.submission_seconds for task in course.tasks), default=60.0)


def save_state(out: Path, result: SubmissionResult, hashes: dict) -> None:
    """What ``--resume`` needs to rebuild a result without grading again."""
    state = {"hashes": hashes, "student": result.student, "output": result.output,
             "isolation": result.isolation, "seconds": result.seconds,
             "problem": result.problem, "problem_detail": result.problem_detail,
             "verdicts": [{"check": v.check.id, "passed": v.passed, "score": v.score,
                           "reason": v.reason, "facts": v.facts} for v in result.verdicts]}
    write_atomically(out / result.student / STATE_FILE, json.dumps(state, default=list))


def load_state(out: Path, student: str, hashes: dict, course) -> SubmissionResult | None:
    try:
        state = json.loads((out / student / STATE_FILE).read_text())
    except (OSError, ValueError):
        return None
    if state.get("hashes") != hashes or not (out / student / "results.json").exists():
        return None
    checks = {c.id: c for t in course.tasks for c in t.checks}
    try:
        verdicts = [Verdict(checks[v["check"]], v["passed"], v["score"], v["reason"], v["facts"])
                    for v in state["verdicts"]]
    except KeyError:
        return None
    return SubmissionResult(student, verdicts, output=state["output"],
                            isolation=state["isolation"], seconds=state["seconds"],
                            problem=state["problem"], problem_detail=state["problem_detail"])


def grade_batch(course, root: Path, out: Path, jobs: int, catalogue: Catalogue,
                progress=None, level: str = "process", resume: bool = False,
                withhold_hidden: bool = False, answers: AnswerBook | None = None) -> list:
    started = time.monotonic()
    plan, answers = prepare(course, withhold_hidden=withhold_hidden, answers=answers)
    course_hash = tasks_hash(course.files)
    results = []
    with tempfile.TemporaryDirectory(prefix="grader-runner-") as stage, \
            tempfile.TemporaryDirectory(prefix="grader-unpacked-") as unpacked:
        child_script = stage_runner(Path(stage))
        submissions = find(root)

        def grade(submission: Submission) -> SubmissionResult:
            # names: stage in the worker (finding unpacks nothing); staged.notes not wired yet.
            staged = stage_submission(submission, Path(unpacked) / submission.student)
            try:
                return grade_staged(submission, staged)
            finally:    # names: a graded copy is not needed again; keep the disk bounded
                shutil.rmtree(staged.folder, ignore_errors=True)

        def grade_staged(submission: Submission, staged) -> SubmissionResult:
            hashes = {"tasks": course_hash, "submission": content_hash(staged.folder),
                      "problem": staged.problem, "withheld": withhold_hidden}
            if resume:
                previous = load_state(out, submission.student, hashes, course)
                if previous is not None:
                    return previous
            result = grade_submission(plan, answers, child_script, staged.folder,
                                      budget_of(course), level, student=submission.student)
            if staged.problem:
                result.problem, result.problem_detail = "submission.archive", staged.problem
            # The state first: a results.json on disk then always has the state to resume from.
            save_state(out, result, hashes)
            write_student(out, result, course, catalogue)
            return result

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = [pool.submit(grade, submission) for submission in submissions]
            for future in as_completed(futures):
                result = future.result()
                results.append(result)
                if progress:
                    progress(result, len(results), len(submissions))
    write_batch(out, results, course, catalogue,
                {"isolation": level, "seconds": time.monotonic() - started,
                 "jobs": jobs, "python": sys.version.split()[0]})
    return results
