"""Grading: runs the calls a course needs on one submission and judges every check.

The parent decides every verdict: the child only reports what the student's functions
returned and visited (plain JSON), and ``judge`` compares that with the reference answers.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import checks as check_kinds
from .answers.book import AnswerBook
from .answers.bounded import ReferenceTooLarge
from .calls import Observation
from .checks.verdict import Verdict, failed
from .hand import BY_HAND
from .mistakes import attach_diagnoses
from .sandbox.run import SubmissionRun
from .sandbox.levels import best_level
from .tasks import TaskFileError
from .yamlsrc import Problem


@dataclass(frozen=True)
class Plan:
    """Which calls each check needs, in a fixed order: the same for every submission."""

    checks: tuple            # tasks.Check, in course order
    calls_of: dict           # check id -> tuple of Call
    calls: tuple             # distinct calls, in first-use order
    withheld: frozenset = frozenset()   # hidden checks not run: the sandbox is too weak
    hidden_keys: frozenset = frozenset()  # calls that only checks not yet shown to students need
    packages: tuple = ()     # third-party distributions the course lets students import
    series_of: dict = field(default_factory=dict)   # check id -> tuple of play.series.Series
    series: tuple = ()       # distinct series of games, in first-use order
    # check id -> reference games a check is judged with (play.series.RoundRobin): answered
    # by the answer book, once per batch, never run in a student's child
    references_of: dict = field(default_factory=dict)
    provided: tuple = ()     # tasks.Provided: modules the course ships to every submission
    provided_wins: bool = True

    @classmethod
    def of(cls, course, only_visible: bool = False, withhold_hidden: bool = False) -> "Plan":
        chosen, calls_of, calls, withheld = [], {}, {}, set()
        series_of, series, references_of = {}, {}, {}
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
                kind = check_kinds.KINDS[check.kind]
                needed = tuple(kind.calls(task, check))
                chosen.append(check)
                calls_of[check.id] = needed
                for call in needed:
                    calls.setdefault(call.key(), call)
                # a kind that grades by play: the games it needs (grader.play.series)
                played = tuple(kind.series(task, check)) if hasattr(kind, "series") else ()
                if played:
                    series_of[check.id] = played
                    for games in played:
                        series.setdefault(games.key(), games)
                if hasattr(kind, "reference_games"):
                    references_of[check.id] = tuple(kind.reference_games(task, check))
        shown = {item.key() for check in chosen if check.visibility == "visible"
                 for item in calls_of[check.id] + series_of.get(check.id, ())}
        hidden_keys = frozenset(key for key in (*calls, *series) if key not in shown)
        return cls(tuple(chosen), calls_of, tuple(calls.values()), frozenset(withheld),
                   hidden_keys, tuple(getattr(course, "packages", ())), series_of,
                   tuple(series.values()), references_of,
                   tuple(getattr(course, "provided", ())),
                   getattr(course, "provided_wins", True))

    def is_shown(self, check) -> bool:
        """Whether a student sees this check's details (hidden and after-due checks: not now)."""
        return check.visibility == "visible"


def prepare(course, only_visible: bool = False, withhold_hidden: bool = False,
            answers: AnswerBook | None = None) -> tuple[Plan, AnswerBook]:
    """The plan of calls and all reference answers, computed once for the whole batch
    (``answers``: a book already filled, e.g. while the pins were verified, or one backed by
    the answer cache, which then keeps what was computed for the next run)."""
    plan = Plan.of(course, only_visible=only_visible, withhold_hidden=withhold_hidden)
    answers = answers if answers is not None else AnswerBook()
    answer_plan(plan, answers)
    return plan, answers


def answer_plan(plan: Plan, answers: AnswerBook) -> None:
    """Fill ``answers`` with the reference answers of every call of ``plan`` (computed, or
    taken from the cache, which keeps what was computed); a reference search too large for
    its limit is a problem of the task files (``TaskFileError``)."""
    references = [item for items in plan.references_of.values() for item in items]
    for call in (*plan.calls, *references):
        try:
            answers[call]
        except ReferenceTooLarge as error:
            answers.save()      # what was computed stays computed
            raise TaskFileError([too_large(plan, call, error)]) from None
    answers.save()


def too_large(plan: Plan, call, error) -> Problem:
    """The problem of a task whose reference search does not finish within its limit, at the
    task's line in its file (the first check that needs ``call``)."""
    check = next(check for check in plan.checks if call in plan.calls_of[check.id])
    return Problem(check.file, check.line,
                   f"{check.task_id}: {error}, and would take too long to finish; give the "
                   "task a depth: (plies, with a heuristic at the horizon) or a position "
                   "nearer the end of the game")


@dataclass
class SubmissionResult:
    student: str
    verdicts: list
    output: dict = field(default_factory=dict)
    isolation: str = "process"
    seconds: float = 0.0
    problem: str | None = None       # message key for a submission-level problem
    problem_detail: str | None = None
    display: str = ""                # the submission's name for humans (escaped); "" = student
    notes: list = field(default_factory=list)   # grader.notes.Note: what needs a person

    def __post_init__(self):
        self.display = self.display or self.student

    @property
    def score(self) -> float:
        return sum(v.score for v in self.verdicts)

    @property
    def max_score(self) -> float:
        return sum(v.max_score for v in self.verdicts)


def judge_all(plan: Plan, observations: dict, answers: AnswerBook) -> list[Verdict]:
    """Every check's verdict.  Judged with a self-check kit's sealed answers, a verdict says so
    in its facts (``sealed``): its words then say where the student differs, never what the
    reference has (the catalogue's ``kit-ok``/``kit-reason`` entries)."""
    verdicts = []
    for check in plan.checks:
        if check.id in plan.withheld:
            verdicts.append(failed(check, "call.withheld"))
            continue
        calls = plan.calls_of[check.id]
        kind = check_kinds.KINDS[check.kind]
        # the records of the games a check had played follow its calls' observations
        played = [observations[s.key()] for s in plan.series_of.get(check.id, ())]
        # and the answers of the reference games it is judged with follow its calls' answers
        references = plan.references_of.get(check.id, ())
        verdict = kind.judge(check, [observations[c.key()] for c in calls] + played,
                             [answers[c] for c in (*calls, *references)])
        if answers.sealed:
            verdict = replace(verdict, facts={**verdict.facts, "sealed": True})
        verdicts.append(verdict)
    return verdicts


PICTURED = ("value", "action", "visited", "count", "horizon")


def attach_pictures(verdicts, plan: Plan, observations: dict, answers: AnswerBook) -> list:
    """Failed search checks with what a picture of the search needs: the game, the
    reference's node values, both visit sequences and their first difference.  The report
    draws small trees and tabulates larger searches."""
    from .checks.common import first_difference
    if answers.sealed:
        # a self-check kit holds the reference's visits only as digests: nothing to draw
        return verdicts
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


def shrink_counterexample(verdict: Verdict, plan: Plan, run: SubmissionRun,
                          answers: AnswerBook) -> Verdict:
    """A failed random-tree verdict, its example replaced by a minimal counterexample (not
    in a self-check kit, which has no reference to answer smaller trees: its example is the
    smallest failing tree of the check's own)."""
    if verdict.passed or verdict.check.kind != "random-trees" or "example" not in verdict.facts:
        return verdict
    if not answers.shrinks:
        return smaller_known_example(verdict, plan, run, answers)
    from .calls import canonical
    from .checks.random_trees import call_for_horizon, compare_tree, example, trees_of
    from .shrinking import shrink

    # The failing tree's own horizon: every smaller tree is searched with the same depth.
    horizon = verdict.facts.get("horizon")
    call = call_for_horizon(verdict.check, plan.calls_of[verdict.check.id], horizon)
    probe_limit = min(call.time_limit, 1.0)
    seen: dict[str, tuple] = {}

    def outcome_of(tree: dict):
        key = canonical(tree)
        if key not in seen:
            probe = replace(call, items=(key,), time_limit=probe_limit)
            observation = run.run_call(probe)
            answer = shrinking_answer(call, tree, key)
            if observation.status != "ok":
                seen[key] = (None, answer)
            else:
                seen[key] = (compare_tree(verdict.check, observation.items[0], answer), answer)
        return seen[key]

    # Shrink towards the difference the message names ("an action that is not optimal"), so
    # that the counterexample shows that difference and not another one.
    aspect = verdict.facts["example"].get("aspect")

    def disagrees(tree: dict) -> bool:
        difference, _ = outcome_of(tree)
        return difference is not None and difference["aspect"] == aspect

    original = trees_of(verdict.check)[verdict.facts["tree_number"] - 1]
    minimal = shrink(original, disagrees)
    difference, answer = outcome_of(minimal)
    if difference is None:
        return verdict
    return replace(verdict, facts={**verdict.facts, "shrunk": True,
                                   "example": example(verdict.check, minimal, difference, answer,
                                                      horizon)})


# Reference answers of the smaller trees a shrink tries, kept while the worker lives: they
# follow from the tree and the call alone, and the students of a batch who make the same
# mistake fail on the same trees, so their shrinks try the same smaller trees in the same
# order (every answer is read only, as the answer book's are).  At most this many are kept.
SHRINKING_ANSWERS_KEPT = 4096
_shrinking_answers: dict = {}


def shrinking_answer(call, tree: dict, key: str) -> dict:
    """The reference answer of ``call``'s search on ``tree`` (``key``: its canonical JSON
    text), computed once per worker."""
    from .answers.facts import reference_depth
    from .answers.search import answer_search
    depth = reference_depth(call, tree)
    memo = (call.reference, key, depth, call.prune_on_equality, call.convention)
    answer = _shrinking_answers.get(memo)
    if answer is None:
        answer = answer_search(call.reference, tree, depth, call.prune_on_equality,
                               call.convention)
        if len(_shrinking_answers) >= SHRINKING_ANSWERS_KEPT:
            _shrinking_answers.clear()
        _shrinking_answers[memo] = answer
    return answer


def smaller_known_example(verdict: Verdict, plan: Plan, run: SubmissionRun,
                          answers) -> Verdict:
    """A self-check kit's stand-in for shrinking: the student's search runs on the kit's small
    trees (smallest first, answered in advance), and the smallest that fails the same way
    replaces the example, if it is smaller."""
    import json

    from .checks.random_trees import call_for_horizon, compare_tree, example
    from .random_tree_generator import size
    horizon = verdict.facts.get("horizon")
    call = call_for_horizon(verdict.check, plan.calls_of[verdict.check.id], horizon)
    known = answers.small_trees(verdict.check.id, horizon, call)
    if known is None:
        return verdict
    items, known_answers = known
    observation = run.run_call(replace(call, items=items, time_limit=min(call.time_limit, 1.0)))
    if observation.status != "ok":
        return verdict
    aspect = verdict.facts["example"].get("aspect")
    for item, outcome, answer in zip(items, observation.items, known_answers):
        tree = json.loads(item)
        if size(tree) >= verdict.facts["example"]["nodes"]:
            break
        difference = compare_tree(verdict.check, outcome, answer)
        if difference is not None and difference["aspect"] == aspect:
            return replace(verdict, facts={**verdict.facts, "shrunk": True, "example": example(
                verdict.check, tree, difference, answer, horizon)})
    return verdict


def grade_submission(plan: Plan, answers: AnswerBook, child_script: Path, submission: Path,
                     budget: float, level: str | None = None,
                     student: str | None = None, workdir: Path | None = None,
                     run: SubmissionRun | None = None,
                     identity: str | None = None) -> SubmissionResult:
    """Grade one (staged) submission folder (``workdir``: where its scratch folder goes;
    ``run``: the submission's run, its child started already; it is closed here;
    ``identity``: the student's key for a hand task's own tree, the roster's identifier or
    else ``student``, see ``grader.hand.variants``).

    Everything the student may see runs first: the calls of visible checks and the shrinking
    of their counterexamples.  Only then do the calls of hidden checks run, and whatever the
    student's code prints from then on is kept for the instructor only, so that no hidden
    input can reach the student's feedback, neither printed nor folded into a later answer.
    """
    started = time.monotonic()
    level = level or best_level()
    student = student or submission.name
    if any(call.convention == BY_HAND for call in plan.calls):
        from .hand.variants import for_student
        plan = for_student(plan, identity or student)   # a hand task: the student's own tree
    files = [p for p in submission.iterdir() if not p.name.startswith(".")] \
        if submission.is_dir() else []
    if not files:
        if run is not None:
            run.close()
        observations = {call.key(): Observation("missing-module", error={
            "module": call.module, "file": call.module + ".py"})
            for call in (*plan.calls, *plan.series)}
        observations.update({call.key(): read_answer_file(call, submission)
                             for call in plan.calls if call.convention == BY_HAND})
        result = SubmissionResult(student, judge_all(plan, observations, answers),
                                  problem="submission.empty", isolation=level)
    else:
        with run or SubmissionRun(child_script, submission, budget, level, workdir,
                                  plan.packages, plan.provided, plan.provided_wins) as run:
            observations: dict = {}
            verdicts: dict = {}
            for shown in (True, False):
                for call in plan.calls:
                    if (call.key() not in plan.hidden_keys) == shown:
                        # an answer file is read here, in the parent; code runs in the child
                        observations[call.key()] = read_answer_file(call, submission) \
                            if call.convention == BY_HAND else run.run_call(call)
                play_series_of(plan, run, observations, shown, student)
                phase = [c for c in plan.checks if plan.is_shown(c) == shown]
                judged = judge_all(replace(plan, checks=tuple(phase)), observations, answers)
                for verdict in judged:
                    verdicts[verdict.check.id] = shrink_counterexample(verdict, plan, run, answers)
                if shown:
                    run.mark_shown_output()
            verdicts = [verdicts[c.id] for c in plan.checks]
            verdicts = attach_diagnoses(verdicts, plan, observations, answers, submission)
            verdicts = attach_pictures(verdicts, plan, observations, answers)
        verdicts = [replace(v, facts=bounded_facts(v.facts)) for v in verdicts]
        result = SubmissionResult(student, verdicts, output=run.output, isolation=level,
                                  notes=provided_notes(plan, submission)
                                  + function_notes(plan, observations))
    result.seconds = time.monotonic() - started
    return result


def provided_notes(plan: Plan, submission: Path) -> list:
    """A note per module the course provides that the submission holds a file of too: which
    of the two was used (the course's choice, ``provided_wins``)."""
    from .notes import Note
    notes = []
    for module in plan.provided:
        if (submission / f"{module.name}.py").is_file() \
                or (submission / module.name / "__init__.py").is_file():
            notes.append(Note("provided-kept" if plan.provided_wins else "provided-own",
                              {"module": f"{module.name}.py"}))
    return notes


def function_notes(plan: Plan, observations: dict) -> list:
    """A note per function that was called under a name in another case than the task's
    (``MiniMax`` for ``minimax``: the one candidate the runner found)."""
    from .notes import Note
    found = {}
    for call in plan.calls:
        observation = observations.get(call.key())
        if observation is not None and observation.extra.get("found"):
            found.setdefault((call.module, call.function), observation.extra["found"])
    return [Note("function-case", {"found": name, "expected": function,
                                   "file": f"{module}.py"})
            for (module, function), name in found.items()]


def play_series_of(plan: Plan, run: SubmissionRun, observations: dict, shown: bool,
                   student: str) -> None:
    """Plays the plan's series of games (check kinds that grade by play) that are ``shown``
    or not, in the submission's run, each record stored as its observation."""
    if not plan.series:
        return
    from .play.series import play_series
    for games in plan.series:
        if (games.key() not in plan.hidden_keys) == shown:
            observations[games.key()] = play_series(games, run, name=student)


MAX_FACT_LIST = 1000      # entries of one list kept in a verdict's facts
MAX_FACT_TEXT = 10_000    # characters of one text
SEQUENCE_CONTEXT = 8      # visits kept on each side of a first difference in long searches


def bounded_facts(facts: dict) -> dict:
    """A verdict's facts cut to what a report shows, so that results, state files and pages
    stay small whatever a submission sent (a search that floods its log, a huge value)."""
    facts = dict(facts)
    if isinstance(facts.get("picture"), dict):
        facts["picture"] = _bounded_picture(facts["picture"])
    return _bounded(facts, 0)


def _bounded_picture(picture: dict) -> dict:
    """Trees of up to ``trees.MAX_DRAWN`` nodes are drawn whole; of a larger search only the
    visits around the first difference are tabulated, so only they are kept, with the spec of
    a game whose positions the table shows (a board or a pile: a few bytes)."""
    from .report.positions import game_of
    from .report.trees import drawable
    if drawable(picture.get("spec")):
        return picture
    expected, observed = picture["expected"], picture["observed"]
    first = next((i for i, (a, b) in enumerate(zip(expected, observed)) if a != b),
                 min(len(expected), len(observed)))
    start = max(0, first - 2 * SEQUENCE_CONTEXT)
    end = first + SEQUENCE_CONTEXT + 1
    spec, key = picture.get("spec") or {}, picture["key"]
    if "heuristic_values" in spec:
        # The position only: a heuristic table (grader.answers.heuristics) is not a picture's
        # business, and the call's key that holds it becomes a digest (it only tells
        # pictures apart).
        spec = {name: value for name, value in spec.items() if name != "heuristic_values"}
        key = hashlib.sha256(key.encode()).hexdigest()
    return {"key": key, "spec": spec if game_of(spec) else {"kind": spec.get("kind")},
            "values": {}, "first": None, "offset": start,
            "expected": expected[start:end], "observed": observed[start:end],
            "expected_length": len(expected), "observed_length": len(observed)}


def _bounded(value, depth: int):
    if depth > 40:
        return "…"
    if isinstance(value, str):
        return value if len(value) <= MAX_FACT_TEXT else value[:MAX_FACT_TEXT] + "…"
    if isinstance(value, (list, tuple)):
        return [_bounded(item, depth + 1) for item in value[:MAX_FACT_LIST]]
    if isinstance(value, dict):
        return {key: _bounded(item, depth + 1) for key, item in value.items()}
    return value


def read_answer_file(call, submission: Path) -> Observation:
    """A hand task's answer file, read here in the parent (``grader.hand.answer_file``)."""
    from .hand.answer_file import observe
    return observe(call, submission)
