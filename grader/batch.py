"""Batch grading: every submission of a folder, N at a time, reports written as each ends."""

from __future__ import annotations

import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from .answers import AnswerBook
from .grading import Plan, grade_submission
from .report.messages import Catalogue
from .report.writers import write_batch, write_student
from .sandbox.launcher import stage_runner


def submission_folders(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def prepare(course, only_visible: bool = False) -> tuple[Plan, AnswerBook]:
    """The plan of calls and all reference answers, computed once for the whole batch."""
    plan = Plan.of(course, only_visible=only_visible)
    answers = AnswerBook()
    for call in plan.calls:
        answers[call]
    return plan, answers


def budget_of(course) -> float:
    return max((task.limits.submission_seconds for task in course.tasks), default=60.0)


def grade_batch(course, submissions: list[Path], out: Path, jobs: int, catalogue: Catalogue,
                progress=None, level: str = "process") -> list:
    started = time.monotonic()
    plan, answers = prepare(course)
    results = []
    with tempfile.TemporaryDirectory(prefix="grader-runner-") as stage:
        child_script = stage_runner(Path(stage))
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {pool.submit(grade_submission, plan, answers, child_script, folder,
                                   budget_of(course), level): folder for folder in submissions}
            for future in as_completed(futures):
                result = future.result()
                write_student(out, result, course, catalogue)
                results.append(result)
                if progress:
                    progress(result, len(results), len(submissions))
    write_batch(out, results, course, catalogue,
                {"isolation": level, "seconds": time.monotonic() - started,
                 "jobs": jobs, "python": sys.version.split()[0]})
    return results
