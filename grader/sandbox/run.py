"""One submission's sandboxed child, seen from the parent: its calls within the submission's
time budget, every reply validated at the boundary before anything reads it.  The boundary's
module (msgspec) is imported when the first reply comes, not before a child is started: a
self-check starts its child first and imports it while the child starts.

Its own module, so that ``grader check`` can start the child while it still imports and
builds the rest of the grading (the checks, the answers, the reports).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..calls import Call, ItemOutcome, Observation
from .packages import provision
from .base import ResourceLimits
from .launcher import Child, ChildFailure, backstop


def budget_of(course) -> float:
    """The CPU seconds one submission's run may spend in all."""
    return max((task.limits.submission_seconds for task in course.tasks), default=60.0)


# Conventions whose replies carry no visit log: plain functions, and a match's moves (a log
# of every node of every move would cost the match its speed and the run its log cap).
WITHOUT_LOG = ("plain", "play")


def observe(call: Call, reply) -> Observation:
    """An ``Observation`` from a reply validated at the boundary (``grader.sandbox.boundary``)."""
    from . import boundary
    if isinstance(reply, boundary.Malformed):
        return Observation("protocol", error={"message": reply.reason})
    if reply.status != "ok":
        return Observation(reply.status, error=boundary.to_plain(reply.error)
                           if reply.error is not None else None)
    items = reply.items
    if items is None or len(items) != len(call.items):
        return Observation("protocol", error={"message": "wrong number of results"})
    outcomes = []
    for item in items:
        if item.status == "ok" and call.convention not in WITHOUT_LOG and item.log is None:
            return Observation("protocol", error={"message": "malformed visit log"})
        outcomes.append(ItemOutcome(
            item.status, item.returned,
            boundary.to_plain(item.log) if item.log is not None else None,
            boundary.to_plain(item.error) if item.error is not None else None))
    extra = {"signature": boundary.to_plain(reply.signature)} if reply.signature else {}
    if reply.found:
        extra["found"] = reply.found
    return Observation("ok", tuple(outcomes), extra=extra)


class SubmissionRun:
    """Runs calls of one submission within its time budget; the child stays alive between
    calls (and for shrinking counterexamples) until the run is closed.

    Time is the child's CPU time (``spent``), with the wall clock as a generous backstop
    (``wall_spent``), so that a loaded machine does not cost a correct student points.

    A player's moves are *turns* (``run_call(call, idle_limit=..., turn=True)``): the child
    is frozen after each until the next request, CPU its processes used in between is
    charged to the next turn (and counted in ``spent`` and ``between``), and a turn may be
    idle, neither computing nor waiting for a processor, for ``idle_limit`` seconds at most
    (``grader.play.players``)."""

    def __init__(self, child_script: Path, submission: Path, budget: float,
                 level: str = "process", workdir: Path | None = None, packages: tuple = (),
                 provided: tuple = (), provided_wins: bool = True):
        self.workdir = workdir     # where the scratch folder goes (a batch's own temp folder)
        self.packages = packages   # distributions the child may import
        # the course's own modules (tasks.Provided), sent with each load request
        self.provided = {module.name: module.source for module in provided}
        self.provided_wins = provided_wins
        self.child_script = child_script
        self.submission = submission
        self.budget = budget
        self.level = level
        self.spent = 0.0
        self.between = 0.0     # of ``spent``: CPU used between turns, charged to the next
        self.wall_spent = 0.0
        self.log_entries = 0
        self.loaded: dict[str, Observation | None] = {}
        self.child: Child | None = None
        self.output: dict = {}
        # (module, function) -> seconds of the call that timed out: a function that did not
        # finish once is not called again in this submission (a hanging search would
        # otherwise spend its limit on every call)
        self.timed_out: dict[tuple, float] = {}

    def __enter__(self) -> "SubmissionRun":
        if self.child is not None:      # entered already, to start the child early
            return self
        self._scratch = tempfile.TemporaryDirectory(prefix="grader-scratch-", dir=self.workdir)
        limits = ResourceLimits(cpu_seconds=int(self.budget) + 10)
        self.child = Child(self.child_script, self.submission, Path(self._scratch.name),
                           self.level, limits, provision(self.packages))
        return self

    def start(self) -> "SubmissionRun":
        """Enter the run and start its child now rather than at the first call: ``grader
        check`` starts it before it builds its plan, so that both start at once."""
        self.__enter__()
        if self.child.process is None:
            self.child.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Stop the child and remove the scratch folder (nothing to do if never entered)."""
        if self.child is None:
            return
        self.child.stop()
        self.output = self.child.output()
        self._scratch.cleanup()

    def mark_shown_output(self) -> None:
        """From here on, what the student's code prints is for the instructor only."""
        self.child.mark_output()

    def run_call(self, call: Call, idle_limit: float | None = None,
                 turn: bool = False) -> Observation:
        """``call``'s observation; ``idle_limit`` and ``turn`` for a player's move (the
        class docstring; the module's import then counts as part of the move)."""
        from . import boundary
        failure = self.load(call.module, call.time_limit, idle_limit, turn)
        if failure is not None:
            return failure
        key = (call.module, call.function)
        if key in self.timed_out:
            return Observation("after-timeout", error={"function": call.function,
                                                       "seconds": self.timed_out[key]})
        reply = self.request(call, call.time_limit, boundary.CallReply, idle_limit, turn)
        if isinstance(reply, Observation):
            if reply.status == "timeout":
                self.timed_out[key] = call.time_limit
            return reply
        observation = observe(call, reply)
        if observation.status == "ok":
            # The parent keeps every log until the verdicts are made: their total is capped.
            self.log_entries += sum(boundary.log_size(item.log) for item in reply.items
                                    if item.log is not None)
            if self.log_entries > boundary.MAX_RUN_LOG_ENTRIES:
                return Observation("protocol", error={"message": (
                    f"the visit logs of this submission exceed "
                    f"{boundary.MAX_RUN_LOG_ENTRIES:,} entries in all")})
        return observation

    def load(self, module: str, time_limit: float, idle_limit: float | None = None,
             turn: bool = False) -> Observation | None:
        """Import a student module once, with its own time limit; a failure is remembered."""
        from . import boundary
        if module not in self.loaded:
            message = {"op": "load", "module": module}
            if self.provided:
                message.update(provided=self.provided, provided_wins=self.provided_wins)
            reply = self.request(message, time_limit, boundary.LoadReply, idle_limit, turn)
            if isinstance(reply, Observation):
                self.loaded[module] = Observation(
                    "import-timeout" if reply.status == "timeout" else reply.status,
                    error={**(reply.error or {}), "module": module})
            elif isinstance(reply, boundary.LoadReply) and reply.status == "ok":
                self.loaded[module] = None
            else:
                self.loaded[module] = observe(Call(module, "", "plain", ()), reply)
        return self.loaded[module]

    def request(self, message: dict | Call, time_limit: float, kind: type,
                idle_limit: float | None = None, turn: bool = False):
        """The validated reply to ``message`` (a ``Call`` goes as ``Call.request_for`` the
        child's table of the item texts it holds), or an ``Observation`` of what went wrong
        (``idle_limit``, ``turn``: ``grader.sandbox.launcher.Child.request``)."""
        from . import boundary
        remaining = self.budget - self.spent
        wall_remaining = backstop(self.budget) - self.wall_spent
        if remaining <= 0 or wall_remaining <= 0:
            return Observation("budget", error={"seconds": self.budget})
        limit = min(time_limit, remaining)
        wall_limit = min(backstop(time_limit), wall_remaining)
        if isinstance(message, Call):
            if self.child.process is None:
                self.child.start()      # first: a new process starts with an empty table
            message = message.request_for(self.child.sent_items)
        try:
            return boundary.decode(self.child.request(message, limit, wall_limit,
                                                      idle_limit=idle_limit, turn=turn), kind)
        except ChildFailure as failure:
            if failure.status == "timeout" and not failure.details.get("idle") and (
                    limit < time_limit or wall_limit < backstop(time_limit)):
                return Observation("budget", error={"seconds": self.budget})
            if failure.status == "timeout":
                # the module must be imported again in the restarted child
                self.loaded = {m: o for m, o in self.loaded.items() if o is not None}
            return Observation(failure.status, error=failure.details)
        finally:
            between = self.child.last_between if turn else 0.0
            self.spent += self.child.last_cpu + between
            self.between += between
            self.wall_spent += self.child.last_wall
