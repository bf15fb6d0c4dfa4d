"""Grading: runs the calls a course needs on one submission and judges every check.

The parent decides every verdict: the child only reports what the student's functions
returned and visited (plain JSON), and ``judge`` compares that with the reference answers.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import checks as check_kinds
from .answers import AnswerBook
from .calls import Call, ItemOutcome, Observation
from .checks import Verdict
from .mistakes import attach_diagnoses
from .sandbox.isolation import ResourceLimits, best_level
from .sandbox.launcher import Child, ChildFailure


@dataclass(frozen=True)
class Plan:
    """Which calls each check needs, in a fixed order: the same for every submission."""

    checks: tuple            # tasks.Check, in course order
    calls_of: dict           # check id -> tuple of Call
    calls: tuple             # distinct calls, in first-use order
    withheld: frozenset = frozenset()   # hidden checks not run: the sandbox is too weak

    @classmethod
    def of(cls, course, only_visible: bool = False, withhold_hidden: bool = False) -> "Plan":
        chosen, calls_of, calls, withheld = [], {}, {}, set()
        for task in course.tasks:
            for check in task.checks:
                if only_visible and check.visibility != "visible":
                    continue
                if withhold_hidden and check.visibility != "visible":
                    # Secret inputs stay away from code that could carry them off.
                    chosen.append(check)
                    calls_of[check.id] = ()
                    withheld.add(check.id)
                    continue
                needed = tuple(check_kinds.KINDS[check.kind].calls(task, check))
                chosen.append(check)
                calls_of[check.id] = needed
                for call in needed:
                    calls.setdefault(call.key(), call)
        return cls(tuple(chosen), calls_of, tuple(calls.values()), frozenset(withheld))


@dataclass
class SubmissionResult:
    student: str
    verdicts: list
    output: dict = field(default_factory=dict)
    isolation: str = "process"
    seconds: float = 0.0
    problem: str | None = None       # message key for a submission-level problem
    problem_detail: str | None = None

    @property
    def score(self) -> float:
        return sum(v.score for v in self.verdicts)

    @property
    def max_score(self) -> float:
        return sum(v.max_score for v in self.verdicts)


def observe(call: Call, reply: dict) -> Observation:
    """An ``Observation`` from a child's reply, accepting only the expected plain shapes."""
    status = reply.get("status") if isinstance(reply, dict) else None
    if status != "ok":
        known = ("missing-module", "missing-function", "import-error", "protocol")
        error = reply.get("error") if isinstance(reply, dict) else None
        return Observation(status if status in known else "protocol",
                           error=error if isinstance(error, dict) else None)
    items = reply.get("items")
    if not isinstance(items, list) or len(items) != len(call.items):
        return Observation("protocol", error={"message": "wrong number of results"})
    outcomes = []
    for item in items:
        if not isinstance(item, dict) or item.get("status") not in ("ok", "error"):
            return Observation("protocol", error={"message": "malformed result"})
        log = item.get("log")
        if call.convention == "game" and item["status"] == "ok" and not _valid_log(log):
            return Observation("protocol", error={"message": "malformed visit log"})
        error = item.get("error") if isinstance(item.get("error"), dict) else None
        outcomes.append(ItemOutcome(item["status"], item.get("returned"), log, error))
    return Observation("ok", tuple(outcomes))


def _valid_log(log) -> bool:
    return (isinstance(log, dict) and isinstance(log.get("visits"), list)
            and all(isinstance(v, str) for v in log["visits"])
            and isinstance(log.get("foreign_states"), int))


class SubmissionRun:
    """Runs calls of one submission within its time budget; the child stays alive between
    calls (and for shrinking counterexamples) until the run is closed."""

    def __init__(self, child_script: Path, submission: Path, budget: float,
                 level: str = "process"):
        self.child_script = child_script
        self.submission = submission
        self.budget = budget
        self.level = level
        self.spent = 0.0
        self.loaded: dict[str, Observation | None] = {}
        self.output: dict = {}

    def __enter__(self) -> "SubmissionRun":
        self._scratch = tempfile.TemporaryDirectory(prefix="grader-scratch-")
        limits = ResourceLimits(cpu_seconds=int(self.budget) + 10)
        self.child = Child(self.child_script, self.submission, Path(self._scratch.name),
                           self.level, limits)
        return self

    def __exit__(self, *exc) -> None:
        self.child.stop()
        self.output = self.child.output()
        self._scratch.cleanup()

    def run_call(self, call: Call) -> Observation:
        failure = self.load(call.module, call.time_limit)
        if failure is not None:
            return failure
        reply = self.request(call.request(), call.time_limit)
        if isinstance(reply, Observation):
            return reply
        return observe(call, reply)

    def load(self, module: str, time_limit: float) -> Observation | None:
        """Import a student module once, with its own time limit; a failure is remembered."""
        if module not in self.loaded:
            reply = self.request({"op": "load", "module": module}, time_limit)
            if isinstance(reply, Observation):
                self.loaded[module] = Observation(
                    "import-timeout" if reply.status == "timeout" else reply.status,
                    error={**(reply.error or {}), "module": module})
            elif reply.get("status") == "ok":
                self.loaded[module] = None
            else:
                self.loaded[module] = observe(Call(module, "", "plain", ()), reply)
        return self.loaded[module]

    def request(self, message: dict, time_limit: float):
        remaining = self.budget - self.spent
        if remaining <= 0:
            return Observation("budget", error={"seconds": self.budget})
        limit = min(time_limit, remaining)
        started = time.monotonic()
        try:
            return self.child.request(message, limit)
        except ChildFailure as failure:
            if failure.status == "timeout" and limit < time_limit:
                return Observation("budget", error={"seconds": self.budget})
            if failure.status == "timeout":
                # the module must be imported again in the restarted child
                self.loaded = {m: o for m, o in self.loaded.items() if o is not None}
            return Observation(failure.status, error=failure.details)
        finally:
            self.spent += time.monotonic() - started


def judge_all(plan: Plan, observations: dict, answers: AnswerBook) -> list[Verdict]:
    verdicts = []
    for check in plan.checks:
        if check.id in plan.withheld:
            verdicts.append(check_kinds.failed(check, "call.withheld"))
            continue
        calls = plan.calls_of[check.id]
        kind = check_kinds.KINDS[check.kind]
        verdicts.append(kind.judge(check, [observations[c.key()] for c in calls],
                                   [answers[c] for c in calls]))
    return verdicts


PICTURED = ("value", "action", "visited", "count", "horizon")


def attach_pictures(verdicts, plan: Plan, observations: dict, answers: AnswerBook) -> list:
    """Failed search checks with what a picture of the search needs: the game, the
    reference's node values, both visit sequences and their first difference.  The report
    draws small trees and tabulates larger searches."""
    from .checks.common import first_difference
    result = []
    for verdict in verdicts:
        call = plan.calls_of[verdict.check.id][0] if plan.calls_of[verdict.check.id] else None
        if (verdict.passed or verdict.check.kind not in PICTURED or call is None
                or call.convention == "plain" or len(call.items) != 1):
            result.append(verdict)
            continue
        observation = observations[call.key()]
        if observation.status != "ok" or observation.items[0].status != "ok" \
                or not observation.items[0].log:
            result.append(verdict)
            continue
        answer = answers[call][0]
        expected, observed = answer["visits"], observation.items[0].log["visits"]
        picture = {"key": call.key(), "spec": call.inputs()[0], "values": answer["values"],
                   "expected": expected, "observed": observed,
                   "first": first_difference(expected, observed)}
        result.append(replace(verdict, facts={**verdict.facts, "picture": picture}))
    return result


def shrink_counterexample(verdict: Verdict, plan: Plan, run: SubmissionRun) -> Verdict:
    """A failed random-tree verdict, its example replaced by a minimal counterexample."""
    if verdict.passed or verdict.check.kind != "random-trees" or "example" not in verdict.facts:
        return verdict
    from .answers import answer_search, reference_depth
    from .calls import canonical
    from .checks.random_trees import compare_tree, example, trees_of
    from .shrinking import shrink

    call = plan.calls_of[verdict.check.id][0]
    probe_limit = min(call.time_limit, 1.0)
    seen: dict[str, tuple] = {}

    def outcome_of(tree: dict):
        key = canonical(tree)
        if key not in seen:
            probe = replace(call, items=(key,), time_limit=probe_limit)
            observation = run.run_call(probe)
            answer = answer_search(call.reference, tree, reference_depth(call, tree),
                                   call.prune_on_equality, call.convention)
            if observation.status != "ok":
                seen[key] = (None, answer)
            else:
                seen[key] = (compare_tree(verdict.check, observation.items[0], answer), answer)
        return seen[key]

    def disagrees(tree: dict) -> bool:
        difference, _ = outcome_of(tree)
        return difference is not None

    original = trees_of(verdict.check)[verdict.facts["tree_number"] - 1]
    minimal = shrink(original, disagrees)
    difference, answer = outcome_of(minimal)
    if difference is None:
        return verdict
    return replace(verdict, facts={**verdict.facts, "shrunk": True,
                                   "example": example(verdict.check, minimal, difference, answer)})


def grade_submission(plan: Plan, answers: AnswerBook, child_script: Path, submission: Path,
                     budget: float, level: str | None = None,
                     student: str | None = None) -> SubmissionResult:
    started = time.monotonic()
    level = level or best_level()
    student = student or submission.name
    files = [p for p in submission.iterdir() if not p.name.startswith(".")] \
        if submission.is_dir() else []
    if not files:
        observations = {call.key(): Observation("missing-module", error={
            "module": call.module, "file": call.module + ".py"}) for call in plan.calls}
        result = SubmissionResult(student, judge_all(plan, observations, answers),
                                  problem="submission.empty", isolation=level)
    else:
        with SubmissionRun(child_script, submission, budget, level) as run:
            observations = {call.key(): run.run_call(call) for call in plan.calls}
            verdicts = judge_all(plan, observations, answers)
            verdicts = attach_diagnoses(verdicts, plan, observations, answers)
            verdicts = attach_pictures(verdicts, plan, observations, answers)
            verdicts = [shrink_counterexample(v, plan, run) for v in verdicts]
        result = SubmissionResult(student, verdicts, output=run.output, isolation=level)
    result.seconds = time.monotonic() - started
    return result
