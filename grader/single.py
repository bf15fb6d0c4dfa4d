"""Grading one submission folder outside a batch: what ``grader check``, the pytest plugin and
a Gradescope autograder share.

The folder is staged as a batch stages it (links not followed, bytecode left out, an LMS
download's layout arranged), its sandboxed child is started before the plan is built (on two
cores both happen at once), and the result carries the staging's notes and problem.
"""

from __future__ import annotations

import tempfile
from pathlib import Path


def grade_folder(course, folder: Path, level: str, *, only_visible: bool = True,
                 withhold_hidden: bool = False, answers=None, student: str | None = None,
                 while_waiting=None, identity: str | None = None):
    """The ``SubmissionResult`` of ``folder`` on ``course``'s checks (``only_visible``: the
    visible ones; ``withhold_hidden``: hidden checks fail as withheld instead of running, for
    a sandbox too weak to keep their inputs secret).  ``answers``: the reference answers' book
    (one backed by the answer cache, or a kit's), or a function that makes it once the child
    is started; ``while_waiting``: called once the child is
    started, while this process has nothing to do but wait for it (``grader check`` imports
    its report modules there); ``identity``: the student's key for hand tasks with variants
    (``grader.hand.variants``; the folder's name unless given)."""
    from .sandbox.run import SubmissionRun, budget_of
    from .sandbox.staging import stage_runner
    from .submissions.finding import Submission
    from .submissions.staging import stage
    folder = Path(folder).resolve()
    name = student or folder.name
    work_folder = tempfile.TemporaryDirectory(prefix="grader-check-")
    try:
        work = work_folder.name
        # The same staged copy a batch grades: links not followed, bytecode caches left out.
        staged = stage(Submission(name, name, folder, "folder"), Path(work) / "staged",
                       course.modules)
        run = SubmissionRun(stage_runner(Path(work) / "runner"), staged.folder,
                            budget_of(course), level, Path(work),
                            tuple(getattr(course, "packages", ())),
                            tuple(getattr(course, "provided", ())),
                            getattr(course, "provided_wins", True))
        try:
            if any(not p.name.startswith(".") for p in staged.folder.iterdir()):
                # The child starts (a sandbox, an interpreter) while this process imports
                # the rest of the grader and builds its plan.
                run.start()
            from .grading import Plan, grade_submission
            plan = Plan.of(course, only_visible=only_visible, withhold_hidden=withhold_hidden)
            # The trust boundary's module (msgspec and its reply types), which the first
            # request imports, is imported now, before the threads below start: imported
            # while they import and read too, it kept the started child waiting for its first
            # request about twice as long.
            from .sandbox import boundary  # noqa: F401
            # The answers are computed (or read from the cache) in a thread while the child
            # runs the calls: nothing needs them before the calls' replies are judged; then
            # the same thread does what ``while_waiting`` does.
            answers = AnsweredMeanwhile(plan, answers, then=while_waiting)
        except BaseException:
            run.close()
            raise
        result = grade_submission(plan, answers, run.child_script, staged.folder,
                                  run.budget, level, student=name, workdir=Path(work), run=run,
                                  identity=identity)
        answers.finish()    # what while_waiting does is done
        answers.save()      # the catalogue's variants a failed check was compared with
        result.notes = list(staged.notes) + result.notes
        if staged.problem:
            result.problem, result.problem_detail = "submission.unusable", staged.problem
    except BaseException:
        work_folder.cleanup()
        raise
    # Removing the staged copy and runner is mostly waiting for the disk (25 to 50 ms on a
    # loaded machine, 4 ms of CPU): done in a thread while the caller writes its reports.
    _remove_meanwhile(work_folder)
    return result


_REMOVING: list = []     # the threads removing work folders, waited for at exit


def _remove_meanwhile(folder: tempfile.TemporaryDirectory) -> None:
    """Remove ``folder`` in a thread; the process waits for it at exit (``grader check``
    ends with ``os._exit`` once its exit handlers have run)."""
    import atexit
    import threading
    if not _REMOVING:
        atexit.register(_removed)
    _REMOVING[:] = [thread for thread in _REMOVING if thread.is_alive()]
    thread = threading.Thread(target=folder.cleanup, name="grader-cleanup")
    thread.start()
    _REMOVING.append(thread)


def _removed() -> None:
    """Wait until every work folder is removed."""
    while _REMOVING:
        _REMOVING.pop().join()


class AnsweredMeanwhile:
    """A plan's answer book while a thread fills it (``grading.answer_plan``): whoever asks
    the book anything waits until it is filled, and gets the thread's error
    (``TaskFileError``: a reference search too large) if it failed.  While the thread runs,
    Python switches threads every 0.5 ms instead of 5: the thread that reads the child's
    replies waits less for the one that computes, so the child waits less for its next call.

    ``then``: called in the same thread once the book is filled (``grader check`` imports its
    report modules there), rather than in a thread of its own: with two threads beside it,
    the one that reads the child's replies had a third of the interpreter instead of half,
    and the child waited longer for each next call; ``finish`` waits for it."""

    SWITCH_INTERVAL = 0.0005

    def __init__(self, plan, book=None, then=None):
        """``book``: the book to fill, or a function that makes it (called in the thread: a
        book backed by the cache reads the cache file when it is made); a new one if None."""
        import sys
        import threading
        self._book = book
        self._error = None
        self._then = then
        self._filled = threading.Event()
        self._interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self._interval, self.SWITCH_INTERVAL))
        self._thread = threading.Thread(target=self._fill, args=(plan,), daemon=True,
                                        name="grader-answers")
        self._thread.start()

    def _fill(self, plan) -> None:
        import sys
        from .grading import answer_plan
        try:
            if callable(self._book):
                self._book = self._book()
            elif self._book is None:
                from .answers.book import AnswerBook
                self._book = AnswerBook()
            answer_plan(plan, self._book)
        except BaseException as error:  # noqa: BLE001 - raised again where the book is asked
            self._error = error
        finally:
            self._filled.set()
        try:
            if self._then is not None:
                self._then()
        finally:
            sys.setswitchinterval(self._interval)

    def book(self):
        """The filled book (after waiting for it), or the thread's error."""
        self._filled.wait()
        if self._error is not None:
            raise self._error
        return self._book

    def finish(self) -> None:
        """Wait for the thread, ``then`` included."""
        self._thread.join()

    def __getitem__(self, call):
        return self.book()[call]

    def __getattr__(self, name):
        return getattr(self.book(), name)
