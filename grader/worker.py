"""Grading submissions in worker processes: where a batch's parallelism is.

A worker grades one submission at a time from start to end: it stages the submission, runs
its sandboxed child, judges, shrinks, diagnoses, draws and renders the student's reports, and
hands the parent only what the parent writes: the result and the rendered files.  The parent
does no grading work; with ``--jobs N`` there are N workers, so judging and rendering use all
cores instead of taking turns in threads of one interpreter.

Workers are forked from the batch process once, when the batch starts (the course, the plan
and the reference answers are inherited, not sent), and again only to replace one that died;
a worker that dies takes no one else's grade with it: the submission it held becomes an
internal-error result and the batch goes on.  A worker ends with its batch: on SIGTERM (sent
by the parent when the batch is stopped, or by the kernel when the parent dies) it kills its
running child, removes its temporary files and exits.

The same ``SubmissionGrader`` serves the cluster executor (``grader.cluster``), whose workers
run on other machines.
"""

from __future__ import annotations

import ctypes
import json
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import traceback
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path

from .answers.book import AnswerBook
from .grading import Plan, SubmissionResult, grade_submission
from .hand import BY_HAND
from .notes import Note
from .report.messages import Catalogue
from .report.writers import render_student
from .sandbox import base, container, launcher
from .sandbox.launcher import Interrupted
from .sandbox.staging import StagedRunner
from .submissions.finding import Submission
from .submissions.forgery.scan import findings_json, scan as scan_forgery
from .submissions.names import display_name
from .submissions.staging import Staged, content_hash, stage

STATE_FILE = ".grading.json"
TEMP_PREFIX = "grader-batch-"


@dataclass(frozen=True)
class Context:
    """What every submission of a batch is graded with: the same for all of them."""
    course: object
    plan: Plan
    answers: AnswerBook
    level: str
    budget: float
    language: str
    course_hash: str
    withhold_hidden: bool = False
    # student id -> the roster's identifier: whose tree a hand task with variants grades on
    identities: dict = field(default_factory=dict)

    def plan_for(self, student: str) -> Plan:
        """The plan ``student`` is graded with: a hand task's calls on the student's own tree
        (``grader.hand.variants``), found by the roster's key where there is one."""
        if not any(call.convention == BY_HAND for call in self.plan.calls):
            return self.plan
        from .hand.variants import for_student
        return for_student(self.plan, self.identities.get(student, student))


@dataclass
class Outcome:
    """A worker's answer about one submission.

    ``kind``: ``graded`` (``result`` and ``files``, the student's report files by name, the
    resume state first when there is one), ``unchanged`` (graded before with the same task
    files and content: ``hashes`` let the parent reload that result) or ``interrupted``."""
    student: str
    kind: str
    result: SubmissionResult | None = None
    files: dict | None = None
    hashes: dict | None = None


def state_json(result: SubmissionResult, hashes: dict | None) -> str:
    """What ``--resume`` needs to rebuild a result without grading again, and ``grader
    merge`` to combine shards.  An internal error's state has no hashes (None): ``--resume``
    grades it again, ``grader merge`` still finds its result."""
    state = {"hashes": hashes, "student": result.student, "display": result.display,
             "output": result.output, "isolation": result.isolation,
             "seconds": result.seconds, "problem": result.problem,
             "problem_detail": result.problem_detail,
             "notes": [note.as_json() for note in result.notes],
             "verdicts": [{"check": v.check.id, "passed": v.passed, "score": v.score,
                           "reason": v.reason, "facts": v.facts} for v in result.verdicts]}
    return json.dumps(state, default=list)


def staged_hashes(context: Context, staged: Staged) -> dict:
    """What a graded result depends on (``--resume`` grades again when any of it changed):
    the same whichever process or machine staged the copy."""
    return {"tasks": context.course_hash, "submission": content_hash(staged.folder),
            "problem": staged.problem, "withheld": context.withhold_hidden}


def report_files(result: SubmissionResult, hashes: dict | None, course,
                 catalogue: Catalogue) -> dict:
    """A student's files by name, the resume state first (``hashes`` None for an internal
    error: ``--resume`` grades it again, ``grader merge`` still finds it)."""
    return {STATE_FILE: state_json(result, hashes), **render_student(result, course, catalogue)}


def internal_error_result(submission: Submission, course, error: BaseException,
                          level: str, notes=()) -> SubmissionResult:
    """The result of a submission the grader failed on: every check unscored, the cause
    stated as the grader's (not the student's), and a note for the instructor."""
    from .checks.verdict import failed
    verdicts = [failed(check, "internal") for task in course.tasks
                for check in task.checks]
    detail = f"{type(error).__name__}: {error}"[:500]
    trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    return SubmissionResult(submission.student, verdicts, isolation=level,
                            problem="submission.internal", problem_detail=detail,
                            display=submission.display,
                            notes=[*notes, Note("internal-error", {"error": detail,
                                                                   "traceback": trace[-4000:]})])


def online_text_notes(submission: Submission) -> list:
    """A note for each of the participant's other plugin folders (Moodle's online text
    beside the files), with the text's words for whoever reads the summary: kept, never
    graded."""
    from .submissions.downloads import online_text
    return [Note("online-text", {"folder": display_name(extra.name),
                                 "text": online_text(extra) or ""})
            for extra in getattr(submission, "extras", ())]


class SubmissionGrader:
    """Grades submissions one after another in this process: its own temporary folder (named
    after the batch's process, so that a later run can tell whether it is stale) and its own
    staged runner, staged again whenever a submission changed it."""

    def __init__(self, context: Context, owner: int | None = None):
        self.context = context
        self.catalogue = Catalogue(context.language)
        owner = owner or os.getpid()
        self.temporary = Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{owner}-"))
        (self.temporary / "staged").mkdir()
        self.runner = StagedRunner(self.temporary / "runner")

    def close(self) -> None:
        shutil.rmtree(self.temporary, ignore_errors=True)

    def staging_folder(self, submission: Submission) -> Path:
        """Where ``submission``'s private copy goes (removed once it is graded)."""
        return self.temporary / "staged" / submission.student

    def grade(self, submission: Submission, previous: dict | None = None,
              staged: Staged | None = None) -> Outcome:
        """Grade ``submission``; ``previous``: the hashes it was graded with before, if any
        (when they still hold, it is not graded again).  ``staged``: a copy staged elsewhere
        (a cluster worker gets the copy its batch process staged, unpacked into
        ``staging_folder``), hashed and graded exactly as a copy staged here would be."""
        context = self.context
        notes = list(submission.notes)
        into = staged.folder if staged is not None else self.staging_folder(submission)
        hashes = None
        try:
            if staged is None:
                staged = stage(submission, into, context.course.modules)
            notes += staged.notes
            notes += online_text_notes(submission)
            findings = scan_forgery(staged.folder)
            if findings:
                notes.append(Note("forgery", {"findings": findings_json(findings)}))
            hashes = staged_hashes(context, staged)
            if previous is not None and previous == hashes:
                return Outcome(submission.student, "unchanged", hashes=hashes)
            result = grade_submission(context.plan_for(submission.student), context.answers,
                                      self.runner.intact(context.level),
                                      staged.folder, context.budget, context.level,
                                      student=submission.student, workdir=self.temporary)
            result.display, result.notes = submission.display, notes + result.notes
            if staged.problem:
                result.problem = ("submission.archive" if submission.kind == "archive"
                                  else "submission.unusable")
                result.problem_detail = staged.problem
        except Interrupted:
            return Outcome(submission.student, "interrupted")
        except Exception as error:  # noqa: BLE001 - one submission never stops the batch
            if launcher.STOPPING.is_set():
                return Outcome(submission.student, "interrupted")
            result = internal_error_result(submission, context.course, error, context.level,
                                           notes)
            hashes = None
        finally:   # a graded copy is not needed again: the disk stays bounded
            shutil.rmtree(into, ignore_errors=True)
        if launcher.STOPPING.is_set():
            return Outcome(submission.student, "interrupted")  # its child may have been killed
        return Outcome(submission.student, "graded", result, self.render(result, hashes))

    def render(self, result: SubmissionResult, hashes: dict | None) -> dict:
        """The student's files, the resume state first (for internal errors one without
        hashes).  If rendering fails, the submission is reported as an internal error instead,
        which renders nothing of the student's."""
        course = self.context.course
        try:
            return report_files(result, hashes, course, self.catalogue)
        except Exception as error:  # noqa: BLE001
            fallback = internal_error_result(Submission(result.student, result.display,
                                                        Path("."), "folder"),
                                             course, error, result.isolation, result.notes)
            result.__dict__.update(fallback.__dict__)
            return report_files(result, None, course, self.catalogue)


# -- worker processes ---------------------------------------------------------------------

_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """SIGTERM when the batch process dies, even by SIGKILL (Linux); then the usual stop."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:     # it died before the request took effect
        os.kill(os.getpid(), signal.SIGTERM)


_idle = False    # waiting for the next submission: a stop then ends the wait at once


def _stop(signum, frame) -> None:
    """Kill the running child; the submission being graded ends as ``interrupted``."""
    launcher.stop_all_children()
    if _idle:
        raise Interrupted()


def _serve(connection, context: Context, parent: int) -> None:
    # Ctrl-C reaches the whole process group: only the batch process decides what it means.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A worker says everything through its pipe; the batch process's streams are its own
    # (a closed pipe there, e.g. `grader grade 2>&1 | head`, must not trouble a worker).
    sys.stdout = sys.stderr = open(os.devnull, "w")
    signal.signal(signal.SIGTERM, _stop)
    launcher.STOPPING.clear()
    base.OWNER = parent
    inherited_workspace = container.current_workspace()
    _die_with_parent(parent)
    grader = SubmissionGrader(context, owner=parent)
    try:
        global _idle
        while not launcher.STOPPING.is_set():
            _idle = True
            try:
                if launcher.STOPPING.is_set():
                    break
                job = connection.recv()
            except (EOFError, OSError, Interrupted):
                break
            finally:
                _idle = False
            if job is None:
                break
            submission, previous = job
            outcome = grader.grade(submission, previous)
            try:
                connection.send(outcome)
            except (BrokenPipeError, OSError):
                break
            if outcome.kind == "interrupted":
                break
    finally:
        launcher.stop_all_children()
        grader.close()
        if container.current_workspace() != inherited_workspace:
            container.remove_workspace()   # atexit handlers do not run in a forked worker


class WorkerDied(Exception):
    """A worker process ended while it held a submission (killed, out of memory)."""


class _Worker:
    def __init__(self, ctx, context: Context):
        self.connection, theirs = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(theirs, context, os.getpid()),
                                   daemon=True, name="grader-worker")
        self.process.start()
        theirs.close()
        self.jobs: deque = deque()   # (submission, previous) pairs sent: the first is graded
        self.ended_itself = False    # it reported being stopped, and then ends

    def give(self, job) -> None:
        self.connection.send(job)
        self.jobs.append(job)


# Jobs sent to a worker ahead of its results: the next is waiting in its pipe when it sends
# one, so it never idles while the batch process writes that one's files.
AHEAD = 2


class WorkerPool:
    """``jobs`` worker processes grading a queue of submissions; each outcome is handed to
    ``receive`` as it arrives (in the parent's main thread).  A worker that dies is replaced,
    and the submission it held is graded as an internal error."""

    def __init__(self, context: Context, jobs: int):
        self.context = context
        # fork: the workers inherit the course, plan and answers as they are (nothing to
        # send), and start in milliseconds.  The batch process has no other threads then.
        self.ctx = multiprocessing.get_context("fork")
        self.workers = [_Worker(self.ctx, context) for _ in range(max(1, jobs))]

    def run(self, jobs: list, receive) -> None:
        """Grade ``jobs`` ((submission, previous hashes) pairs); ``receive(outcome, job)``
        may return a job to queue again."""
        queue = deque(jobs)
        stopped: dict[str, int] = {}    # student -> times a worker was stopped grading it
        while queue or any(w.jobs for w in self.workers):
            # The least loaded first, so that a batch's jobs spread over all workers.
            for worker in sorted(self.workers, key=lambda w: len(w.jobs)):
                while queue and len(worker.jobs) < AHEAD:
                    try:
                        worker.give(queue[0])
                    except (BrokenPipeError, OSError):
                        break   # it died: found below by its sentinel
                    queue.popleft()
            busy = [w for w in self.workers if w.jobs or not w.process.is_alive()]
            ready = wait([w.connection for w in busy] + [w.process.sentinel for w in busy],
                         timeout=1.0)
            for worker in busy:
                if worker.connection not in ready and worker.process.sentinel not in ready:
                    continue
                try:
                    outcome = worker.connection.recv()
                except (EOFError, OSError):
                    worker.process.join(timeout=5)
                    held = list(worker.jobs)
                    self._replace(worker)
                    if worker.ended_itself:
                        # It said so and ended after its last outcome: nothing it held started.
                        queue.extendleft(reversed(held))
                        continue
                    # The first was being graded; the others never started: queued again.
                    queue.extendleft(reversed(held[1:]))
                    if held:
                        again = receive(WorkerDied(
                            f"the grading worker (pid {worker.process.pid}) ended with exit "
                            f"code {worker.process.exitcode} while grading this submission"),
                            held[0])
                        if again is not None:
                            queue.append(again)
                    continue
                job = worker.jobs.popleft()
                if isinstance(outcome, Outcome) and outcome.kind == "interrupted":
                    # Stopped from outside while the batch goes on (someone sent the worker
                    # SIGTERM): graded again, and after a second time listed as the grader's
                    # failure rather than left out of the batch.
                    worker.ended_itself = True   # a worker ends after such an outcome
                    stopped[outcome.student] = stopped.get(outcome.student, 0) + 1
                    if stopped[outcome.student] < 2:
                        queue.appendleft(job)
                        continue
                    outcome = WorkerDied("the grading worker was stopped twice from outside "
                                         "while grading this submission")
                again = receive(outcome, job)
                if again is not None:
                    queue.append(again)

    def _replace(self, worker: _Worker) -> _Worker:
        self._end(worker)
        fresh = _Worker(self.ctx, self.context)
        self.workers[self.workers.index(worker)] = fresh
        return fresh

    @staticmethod
    def _end(worker: _Worker, timeout: float = 10.0) -> None:
        if worker.process.is_alive():
            worker.process.terminate()
            worker.process.join(timeout)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(5)
        worker.connection.close()

    def stop(self, receive=None) -> None:
        """Stop every worker now (SIGTERM: each kills its child and cleans up); outcomes
        that were already sent still reach ``receive``."""
        for worker in self.workers:
            if worker.process.is_alive():
                worker.process.terminate()
        for worker in self.workers:
            worker.process.join(10)
            if receive is not None:
                try:
                    while worker.jobs and worker.connection.poll():
                        receive(worker.connection.recv(), worker.jobs.popleft())
                except (EOFError, OSError):
                    pass
            self._end(worker)

    def close(self) -> None:
        """End the workers after the last submission (they exit on their own)."""
        for worker in self.workers:
            try:
                worker.connection.send(None)
            except (BrokenPipeError, OSError):
                pass
        for worker in self.workers:
            worker.process.join(30)
            self._end(worker)
