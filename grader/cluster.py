"""Grading a batch on a Dask cluster (``grader grade --cluster ADDRESS``): the same work as
``grader.worker``'s local processes, done by the workers of an existing ``distributed``
cluster, which may run on other machines (a lab's PCs, a Slurm or PBS allocation made with
``dask-jobqueue``).

The batch process stays the one that reads the submissions folder and writes the reports.  For
each submission it stages the private copy itself (``grader.submissions.staging.stage``: the
one place that opens what students handed in, safe against hostile names, links and archives),
hashes it (a submission graded before with the same hashes is not sent at all: ``--resume``
works whichever executor graded it before), and sends the copy's regular files and folders as
bytes with the staging's problem and notes.  A worker unpacks them into a private temporary
folder and grades them with a ``SubmissionGrader`` of its own (one per worker thread, made on
first use and kept for the batch), in its own local sandbox, at the level the batch process
chose: a worker where that level does not work grades nothing at a weaker one; the submission
becomes an internal error saying so.  The course, the plan and the reference answers travel
once per worker (``Client.scatter(..., broadcast=True)``), not with every submission: workers
see the hidden checks and the reference answers, so they must be machines the instructor
trusts.

Results come back as they are ready (``distributed.as_completed``) and go to ``receive`` at
once, which writes them.  A task that fails (its worker died and the scheduler gave up on
retrying it elsewhere, a worker lost its connection, a bug) becomes an internal-error result
for that submission, never a failed batch.  An interruption cancels the submissions not yet
graded and kills the sandbox children the workers run for this batch; a worker's temporary
folders are removed when its batch ends.

Never imported unless ``--cluster`` is given, and ``distributed`` only when a pool is made:
Dask is an optional extra (``pip install -e '.[cluster]'``).  This module must stay
importable without it, on both sides.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import stat
import tempfile
import threading
import time
import uuid
from pathlib import Path

from .sandbox import container, launcher
from .submissions.finding import Submission
from .submissions.staging import Staged, stage
from .worker import TEMP_PREFIX, Context, Outcome, SubmissionGrader, WorkerDied, staged_hashes

INSTALL_HINT = "pip install -e '.[cluster]'"
CONNECT_SECONDS = 20            # how long to wait for the scheduler before giving up
TRIES_WHEN_INTERRUPTED = 3      # a submission another batch's stop interrupted is sent again


class ClusterError(Exception):
    """The cluster cannot be used (Dask missing, an address that is wrong or unreachable):
    nothing was graded.  The message says what to do."""


class ClusterTaskFailed(WorkerDied):
    """The cluster did not grade one submission (its workers died, a worker could not run
    the batch's sandbox level, ...): an internal-error result for that submission."""


def distributed_package():
    """Dask's ``distributed``, imported now, or ClusterError saying how to install it."""
    try:
        import distributed
    except ImportError as error:
        raise ClusterError(f"--cluster needs Dask's 'distributed' package, which is not "
                           f"installed here ({error}); install the grader's cluster extra: "
                           f"{INSTALL_HINT}") from None
    return distributed


def connect(address: str):
    """A ``distributed.Client`` of the scheduler at ``address``, or ClusterError."""
    distributed = distributed_package()
    from distributed.comm.addressing import resolve_address
    try:
        # A malformed address or an unknown host is refused here, at once (a Client made
        # with one waits for its whole timeout, and again when it is collected).
        resolve_address(address)
        return distributed.Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, ValueError, TypeError, distributed.TimeoutError) as error:
        raise ClusterError(f"--cluster {address}: no Dask scheduler can be reached at this "
                           f"address ({type(error).__name__}: {error}); give the address "
                           f"the scheduler prints at start, e.g. tcp://scheduler-host:8786") \
            from None


# -- what travels ---------------------------------------------------------------------------

def bundle(folder: Path) -> tuple:
    """A staged copy's folders and regular files as ``(relative path, bytes or None)``,
    parents before their contents; paths are bytes, as the file system holds them."""
    entries = []
    stack = [(os.fsencode(folder), b"")]
    while stack:
        current, prefix = stack.pop()
        with os.scandir(current) as listing:
            found = sorted(listing, key=lambda entry: entry.name)
        for entry in found:
            relative = prefix + entry.name
            mode = entry.stat(follow_symlinks=False).st_mode
            if stat.S_ISDIR(mode):
                entries.append((relative, None))
                stack.append((entry.path, relative + b"/"))
            elif stat.S_ISREG(mode):
                with open(entry.path, "rb") as handle:
                    entries.append((relative, handle.read()))
    return tuple(entries)


def unbundle(entries: tuple, into: Path) -> None:
    """Recreate a bundle in ``into`` (created empty), with the modes staging gives."""
    base = os.fsencode(into)
    if os.path.lexists(base):
        shutil.rmtree(base)
    os.mkdir(base, 0o755)
    os.chmod(base, 0o755)
    for relative, content in entries:
        parts = relative.split(b"/")
        if any(part in (b"", b".", b"..") or b"\0" in part for part in parts):
            raise ValueError(f"a bundle entry with an unusable path: {relative!r}")
        path = os.path.join(base, *parts)
        if content is None:
            os.mkdir(path, 0o755)
            os.chmod(path, 0o755)
        else:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                         | os.O_CLOEXEC, 0o644)
            os.fchmod(fd, 0o644)
            with open(fd, "wb") as handle:
                handle.write(content)


# -- the worker's side ----------------------------------------------------------------------

# A batch whose process was killed never ends on its workers: graders idle this long are
# closed when the worker next grades (a new one is made if their batch sends more after all).
IDLE_SECONDS = 600

_lock = threading.Lock()
_idle: dict[str, list[SubmissionGrader]] = {}   # batch -> graders waiting for a submission
_busy: dict[int, str] = {}                       # thread -> batch it is grading for
_stopped: set[str] = set()                       # batches that were interrupted
_ended: set[str] = set()                         # batches whose graders were released


class SandboxUnavailable(RuntimeError):
    """The batch's isolation level does not work on this worker."""


def level_problem(level: str) -> str | None:
    """Why ``level`` cannot be used on this machine (a worker), or None where it works."""
    from .sandbox.bubblewrap import bubblewrap_works
    from .sandbox.levels import container_problem
    if level == "bubblewrap" and not bubblewrap_works():
        return ("bubblewrap is not installed or cannot create namespaces there; install it on "
                "every worker (apt-get install -y --no-install-recommends bubblewrap)")
    if level == "container":
        return container_problem()
    return None


@functools.lru_cache(maxsize=None)
def _packages_problem(names: tuple) -> str | None:
    """The course's packages are found again in the worker's own environment (by name):
    one missing there would fail every student's import of it, so nothing is graded."""
    from .sandbox.packages import problem_with
    problems = [problem for problem in map(problem_with, names) if problem]
    return "; ".join(problems) or None


def grade_on_worker(batch: str, context: Context, submission: Submission,
                    previous: dict | None, entries: tuple, problem: str | None,
                    notes: tuple) -> Outcome:
    """The task a worker runs for one submission (the copy its batch process staged)."""
    problem_here = level_problem(context.level)
    if problem_here is not None:
        raise SandboxUnavailable(f"worker {_worker_name()} cannot grade at the "
                                 f"'{context.level}' isolation level this batch uses: "
                                 f"{problem_here}")
    problem_here = _packages_problem(context.plan.packages)
    if problem_here is not None:
        raise SandboxUnavailable(f"worker {_worker_name()} cannot provide this course's "
                                 f"packages: {problem_here}")
    me = threading.get_ident()
    with _lock:
        if batch in _stopped or batch in _ended:
            return Outcome(submission.student, "interrupted")
        if launcher.STOPPING.is_set() and not _busy:
            launcher.STOPPING.clear()      # an earlier batch's stop, over now
        _close_forgotten(time.monotonic() - IDLE_SECONDS)
        graders = _idle.get(batch)
        grader = graders.pop() if graders else None
        _busy[me] = batch
    try:
        if grader is None:
            # Named after this worker process: what a killed worker leaves is stale once
            # it is gone (``batch.remove_stale_temporaries`` on that machine).
            grader = SubmissionGrader(context, owner=os.getpid())
        folder = grader.staging_folder(submission)
        try:
            unbundle(entries, folder)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return grader.grade(submission, previous, Staged(folder, problem, notes))
    finally:
        with _lock:
            del _busy[me]
            if grader is not None:
                if batch in _ended:
                    grader.close()
                else:
                    grader.idle_since = time.monotonic()
                    _idle.setdefault(batch, []).append(grader)
            _tidy_if_unused()


def _worker_name() -> str:
    try:
        from distributed import get_worker
        return get_worker().address
    except Exception:  # noqa: BLE001 - only for the message
        return f"pid {os.getpid()}"


def stop_on_worker(batch: str) -> None:
    """Run on every worker when a batch is interrupted: its submissions in flight end as
    ``interrupted`` (their sandbox children are killed), queued ones are not started."""
    with _lock:
        _stopped.add(batch)
        if batch in _busy.values():
            # Kills every child of this process; another batch's submission killed with
            # them comes back ``interrupted`` and its batch process sends it again.
            launcher.stop_all_children()


def end_on_worker(batch: str) -> None:
    """Run on every worker when a batch ends: its graders' temporary folders go."""
    with _lock:
        _ended.add(batch)
        graders = _idle.pop(batch, [])
        for grader in graders:
            grader.close()
        _tidy_if_unused()


def _close_forgotten(before: float) -> None:
    for batch, graders in list(_idle.items()):
        for grader in [g for g in graders if g.idle_since < before]:
            graders.remove(grader)
            grader.close()
        if not graders:
            del _idle[batch]


@atexit.register
def _close_all() -> None:
    """A worker that shuts down removes its graders' folders (one killed leaves them to the
    next ``grader grade`` on its machine: they are named after its pid)."""
    with _lock:
        _close_forgotten(float("inf"))


def _tidy_if_unused() -> None:
    """With no grader left in this process: the container level's runtime copy goes too
    (it is made again for the next batch), and a stop is over."""
    if not _busy and not any(_idle.values()):
        if container.current_workspace() is not None:
            container.remove_workspace()
        launcher.STOPPING.clear()


# -- the batch process's side ---------------------------------------------------------------

class ClusterPool:
    """Grades a batch's submissions on the Dask cluster at ``address``, with the interface
    of ``worker.WorkerPool``: ``run(jobs, receive)``, ``stop(receive)``, ``close()``.

    At most twice as many submissions as the cluster has worker threads are staged and sent
    at a time (at least two), so that no worker waits and the batch process holds only a
    few copies; ``--jobs`` does not apply (the cluster's workers decide how many are graded
    at once)."""

    def __init__(self, context: Context, address: str):
        self.context = context
        self.address = address
        self.client = connect(address)
        self.batch = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.pending: dict = {}           # future -> [job, times sent]
        self.concurrency = 0              # the most worker threads the batch saw (summary)
        self.staging = Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-cluster-"))
        try:
            self.shared = self.client.scatter(context, broadcast=True, hash=False)
        except BaseException:
            self._end()
            raise

    @property
    def threads(self) -> int:
        """The cluster's worker threads now (workers may come and go)."""
        try:
            return sum(self.client.nthreads().values())
        except Exception:  # noqa: BLE001
            return 0

    def run(self, jobs: list, receive) -> None:
        """Grade ``jobs`` ((submission, previous hashes) pairs); ``receive(outcome, job)``
        gets each outcome as it arrives and may return a job to queue again."""
        distributed = distributed_package()
        queue = list(reversed(jobs))
        arrivals = distributed.as_completed(loop=self.client.loop)
        while queue or self.pending:
            threads = self.threads
            self.concurrency = max(self.concurrency, threads)
            window = max(2, 2 * threads)
            while queue and len(self.pending) < window:
                job = queue.pop()
                future, outcome = self._send(job)
                if future is not None:
                    self.pending[future] = [job, 1]
                    arrivals.add(future)
                else:
                    again = receive(outcome, job)
                    if again is not None:
                        queue.append(again)
            if not self.pending:
                continue
            future = next(arrivals)
            job, tries = self.pending.pop(future)
            outcome = self._outcome(future)
            if getattr(outcome, "kind", None) == "interrupted":
                # Not ours to drop: another batch's stop killed it on a shared worker.
                if tries < TRIES_WHEN_INTERRUPTED:
                    again, _ = self._send(job)
                    if again is not None:
                        self.pending[again] = [job, tries + 1]
                        arrivals.add(again)
                        continue
                outcome = ClusterTaskFailed(f"the cluster's workers stopped grading this "
                                            f"submission {tries} times")
            again = receive(outcome, job)
            if again is not None:
                queue.append(again)

    def _send(self, job) -> tuple:
        """Stage, hash and send one submission: (future, None), or (None, outcome) when it
        need not be sent (unchanged since it was graded) or could not be."""
        submission, previous = job
        into = self.staging / submission.student
        try:
            staged = stage(submission, into, self.context.course.modules)
            hashes = staged_hashes(self.context, staged)
            if previous is not None and previous == hashes:
                return None, Outcome(submission.student, "unchanged", hashes=hashes)
            entries = bundle(staged.folder)
        except Exception as error:  # noqa: BLE001 - one submission never stops the batch
            return None, ClusterTaskFailed(f"the batch process could not prepare this "
                                           f"submission for the cluster: "
                                           f"{type(error).__name__}: {error}")
        finally:
            shutil.rmtree(into, ignore_errors=True)
        future = self.client.submit(grade_on_worker, self.batch, self.shared, submission,
                                    previous, entries, staged.problem, staged.notes,
                                    key=f"grade-{submission.student}-{uuid.uuid4().hex[:8]}",
                                    pure=False)
        return future, None

    def _outcome(self, future):
        try:
            return future.result()
        except Exception as error:  # noqa: BLE001 - any failure is this submission's alone
            return ClusterTaskFailed(_describe(error))

    def stop(self, receive=None) -> None:
        """Cancel what is queued, kill the batch's running children on the workers; the
        outcomes already back still reach ``receive``."""
        try:
            if receive is not None:
                for future in [f for f in self.pending if f.status == "finished"]:
                    job, _ = self.pending.pop(future)
                    receive(self._outcome(future), job)
            self.client.cancel(list(self.pending))
            self.client.run(stop_on_worker, self.batch, on_error="ignore")
        finally:
            self.pending.clear()
            self._end()

    def close(self) -> None:
        """End the batch on the workers (their temporary folders go) and disconnect."""
        self._end()

    def _end(self) -> None:
        try:
            self.client.run(end_on_worker, self.batch, on_error="ignore")
        except Exception:  # noqa: BLE001 - a gone scheduler has nothing left to clean
            pass
        try:
            self.client.close()
        finally:
            shutil.rmtree(self.staging, ignore_errors=True)


def _describe(error: BaseException) -> str:
    name = type(error).__name__
    if name == "KilledWorker":
        return ("the Dask workers that held this submission died while grading it (the "
                f"scheduler gave up after retrying it elsewhere): {error}")
    if isinstance(error, SandboxUnavailable):
        return str(error)
    return f"the cluster could not grade this submission: {name}: {error}"
