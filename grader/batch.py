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
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from .answers.book import AnswerBook
from .checks.verdict import Verdict
from .grading import SubmissionResult, prepare  # noqa: F401 - the batch's API
from .hand.variants import identities
from .sandbox.run import budget_of
from .notes import Note
from .report.messages import Catalogue
from .report.files import write_atomically, write_files
from .lms.exports import write_batch
from .report.writers import write_student
from .sandbox import launcher
from .sandbox.base import alive
from .sandbox.cgroup import remove_stale_cgroups
from .shards import Shard
from .submissions.finding import Submission, find, passed_over
from .submissions.staging import tasks_hash
from .worker import (STATE_FILE, TEMP_PREFIX, Context, Outcome, WorkerDied, WorkerPool,
                     internal_error_result, report_files, state_json)


class EnvironmentFailure(Exception):
    """The batch cannot grade here: the runner, the sandbox or the machine fails the same way
    for every submission, whatever the students wrote.  Its message is one line for the
    terminal (what failed, and that nothing was graded or what was left)."""


# After this many submissions in a row, from the batch's start, that all failed in the grader
# with the same cause and none graded, the batch stops: the cause is not the students' code.
SAME_FAILURE_STOPS = 3


def failure_cause(result) -> str | None:
    """The kind of error the grader failed on for this result (the exception's type, as in
    ``OSError: ...`` or the staging's ``internal error while unpacking: OSError``), so that
    one cause reads the same for every submission whatever paths or process ids its message
    holds; None for a result the grader did not fail on."""
    detail = result.problem_detail or ""
    if result.problem != "submission.internal":
        prefix = "internal error while unpacking: "
        if not (result.problem and detail.startswith(prefix)):
            return None
        detail = detail[len(prefix):]
    return detail.split(":", 1)[0].strip() or "?"


def preflight(level: str, workdir: Path, packages: tuple = ()) -> None:
    """Stage the runner and start one sandboxed child on an empty folder before any
    submission is graded: a runner that cannot be staged (a read-only cache, a
    ``PYTHONPYCACHEPREFIX`` that once sent its bytecode elsewhere) or a sandbox that cannot
    start raises ``EnvironmentFailure`` here, instead of failing every student of the class
    one by one."""
    from .sandbox.run import SubmissionRun
    from .sandbox.staging import stage_runner
    try:
        script = stage_runner(workdir / "runner")
    except Exception as error:  # noqa: BLE001 - said in one line
        raise EnvironmentFailure(f"the grader's runner could not be staged "
                                 f"({type(error).__name__}: {error})") from None
    empty = workdir / "empty"
    empty.mkdir()
    try:
        with SubmissionRun(script, empty, 30.0, level, workdir, packages) as run:
            observation = run.load("grader_preflight_module", 20.0)
    except Exception as error:  # noqa: BLE001
        raise EnvironmentFailure(f"a sandboxed child ({level}) could not be started "
                                 f"({type(error).__name__}: {error})") from None
    if observation is None or observation.status != "missing-module":
        status = "no answer" if observation is None else observation.status
        detail = (observation.error or {}) if observation is not None else {}
        message = detail.get("message") or detail.get("detail") or ""
        raise EnvironmentFailure(f"a sandboxed child ({level}) does not work here: asked for "
                                 f"a module that does not exist, it answered {status}"
                                 + (f" ({message})" if message else ""))


def preflight_in_temporary(level: str, packages: tuple = ()) -> None:
    """``preflight`` in a temporary folder of its own (named for ``remove_stale_temporaries``),
    which a machine out of files or disk cannot even create: that is said in one line too."""
    try:
        work = Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-preflight-"))
    except OSError as error:
        raise EnvironmentFailure(f"no temporary folder could be made ({error})") from None
    try:
        preflight(level, work, packages)
    finally:
        shutil.rmtree(work, ignore_errors=True)


@dataclass
class BatchOutcome:
    results: list
    interrupted: bool = False
    export_errors: list = field(default_factory=list)   # exports that could not be written


def save_state(out: Path, result: SubmissionResult, hashes: dict | None) -> None:
    write_atomically(out / result.student / STATE_FILE, state_json(result, hashes))


def read_state(out: Path, student: str) -> dict | None:
    """A submission's state file as written by an earlier run; None if none can be read."""
    try:
        state = json.loads((out / student / STATE_FILE).read_text())
    except (OSError, ValueError, RecursionError):
        return None
    return state if isinstance(state, dict) else None


def previous_hashes(out: Path, student: str) -> dict | None:
    """The hashes a submission was graded with before (``--resume``), if it was."""
    state = read_state(out, student)
    return state.get("hashes") if state is not None else None


def load_state(out: Path, student: str, hashes: dict, course) -> SubmissionResult | None:
    """The result of an earlier run of this submission, if it was graded with the same task
    files and content (``hashes``) and its reports were written; None to grade it again."""
    state = read_state(out, student)
    if state is None or state.get("hashes") != hashes \
            or not (out / student / "results.json").exists():
        return None
    return result_from_state(state, student, course)


def result_from_state(state, student: str, course) -> SubmissionResult | None:
    """A state file's result, whatever its hashes (``grader merge`` checks those itself);
    None if the state does not fit ``course`` or is malformed."""
    if not isinstance(state, dict) or state.get("student") != student:
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


def remove_stale_temporaries(base: Path | None = None) -> list[Path]:
    """Temporary folders of grading processes that no longer run (killed with SIGKILL)."""
    base = Path(base or tempfile.gettempdir())
    removed = []
    for path in base.glob(f"{TEMP_PREFIX}*"):
        owner = path.name[len(TEMP_PREFIX):].split("-", 1)[0]
        if owner.isdigit() and alive(int(owner)):
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    return removed


def grade_batch(course, root: Path, out: Path, jobs: int, catalogue: Catalogue,
                progress=None, level: str = "process", resume: bool = False,
                withhold_hidden: bool = False, answers: AnswerBook | None = None,
                shard: Shard | None = None, cluster: str | None = None,
                roster=None, handback=None) -> BatchOutcome:
    """Grade every submission in ``root`` (with ``shard``: only that shard's, chosen from the
    whole listing so that ids and notes are a single run's) with ``jobs`` worker processes
    (``grader.worker``), or on the Dask cluster whose scheduler is at ``cluster``
    (``grader.cluster``; raises its ClusterError when it cannot be used, before anything is
    written); write each one's reports as it arrives, then the batch's exports.  With a
    ``roster`` (``lms.roster.Roster``) moodle.csv names Moodle users; with a ``handback``
    (``lms.handback.Handback``) the summary lists the participants it leaves to a person
    and moodle.csv writes grades on its scale."""
    started = time.monotonic()
    remove_stale_cgroups()
    remove_stale_temporaries()
    launcher.STOPPING.clear()
    plan, answers = prepare(course, withhold_hidden=withhold_hidden, answers=answers)
    context = Context(course, plan, answers, level, budget_of(course), catalogue.language,
                      tasks_hash(course.source_files), withhold_hidden)
    listed = find(root)
    # whose tree each submission's hand tasks are graded on (the roster's key)
    context = replace(context, identities=identities(course, roster, listed))
    submissions = shard.select(listed) if shard else listed
    checks = {c.id: c for t in course.tasks for c in t.checks}
    results: list[SubmissionResult] = []
    interrupted = False
    if submissions and not cluster:
        preflight_in_temporary(level, tuple(getattr(course, "packages", ())))
    causes: list | None = []    # failure_cause of each result, in order, until one is graded

    def receive(outcome, job):
        nonlocal causes
        submission = job[0]
        if isinstance(outcome, WorkerDied):
            # Rendered here: the worker is gone.  Its state has no hashes: --resume grades it
            # again, grader merge still finds its result.
            outcome = Outcome(submission.student, "graded",
                              internal_error_result(submission, course, outcome, level,
                                                    submission.notes))
            outcome.files = report_files(outcome.result, None, course, catalogue)
        if outcome.kind == "interrupted":
            return None
        if outcome.kind == "unchanged":
            previous = load_state(out, submission.student, outcome.hashes, course)
            if previous is None:
                return (submission, None)    # its state is unusable: grade it again
            result = previous
        else:
            # The worker's verdicts name copies of the checks: give them back the course's.
            result = outcome.result
            result.verdicts = [replace(v, check=checks.get(v.check.id, v.check))
                               for v in result.verdicts]
            _write_student_safely(out, result, outcome.files, course, catalogue)
        results.append(result)
        if progress:
            progress(result, len(results), len(submissions))
        if causes is not None:
            causes.append(failure_cause(result))
            if causes[-1] is None:
                causes = None           # one was graded: the grader works here
                return None
            if len(causes) >= min(SAME_FAILURE_STOPS, len(submissions)) \
                    and len(set(causes)) == 1:
                left = len(submissions) - len(results)
                failed = results[-len(causes):]
                # the grader's own error says most (a staging failure names only its type)
                said = next((r for r in failed if r.problem == "submission.internal"),
                            failed[-1]).problem_detail
                raise EnvironmentFailure(
                    f"the first {len(causes)} submission(s) all failed in the grader for the "
                    f"same reason ({said}); that is this machine or the "
                    f"grader, not the students' code"
                    + (f", so the other {left} were not graded" if left else ""))
        return None

    jobs_list = [(s, previous_hashes(out, s.student) if resume else None) for s in submissions]
    if cluster:
        from .cluster import ClusterPool
        pool = ClusterPool(context, cluster)
    else:
        pool = WorkerPool(context, min(max(1, jobs), max(1, len(submissions))))
    try:
        pool.run(jobs_list, receive)
        pool.close()
    except KeyboardInterrupt:
        interrupted = True
        # Submissions that finished while the rest was being stopped still count.
        pool.stop(receive)
    except BaseException:
        pool.stop()
        raise
    errors = write_batch(out, results, course, catalogue,
                         {"isolation": level, "seconds": time.monotonic() - started,
                          "jobs": getattr(pool, "concurrency", jobs),
                          "python": sys.version.split()[0],
                          "interrupted": interrupted, "total": len(submissions),
                          "tasks": context.course_hash,
                          "shard": shard.record(listed, submissions) if shard else None,
                          "passed_over": passed_over(root)},
                         roster, handback)
    return BatchOutcome(results, interrupted, errors)


def _write_student_safely(out: Path, result: SubmissionResult, files: dict, course,
                          catalogue) -> None:
    """The files a worker rendered (the resume state first: a results.json on disk then
    always has the state to resume from).  If they cannot be written, the submission is
    reported as an internal error instead, which renders nothing of the student's."""
    try:
        write_files(out / result.student, files)
    except Exception as error:  # noqa: BLE001
        fallback = internal_error_result(Submission(result.student, result.display,
                                                    Path("."), "folder"),
                                         course, error, result.isolation, result.notes)
        result.__dict__.update(fallback.__dict__)
        try:
            save_state(out, result, None)
        except Exception:  # noqa: BLE001 - a state that cannot be written is not resumed
            try:
                (out / result.student / STATE_FILE).unlink(missing_ok=True)
            except OSError:
                pass
        write_student(out, result, course, catalogue)
