"""The catalogue of known mistakes, and matching a student's behaviour against it.

Every mistake is an executable faulty variant of the reference (``reference/variants.py``).
When a check of a search function fails, every variant of that function is run on every input
the student's function was run on; a variant *matches* when on each input where the student's
code returned it gives the same value, the same action and the same visit sequence, and it
differs from the reference somewhere.  The feedback then says "your search behaves like one
that ...", with the line of the lecture's pseudo-code that is concerned.  Both live in the
message catalogue, in the page's language: ``mistake.<id>`` (what the mistake is) and
``pseudocode.<id>`` (the line; German as in the lecture, English translated).

A function that is not a search (a move ordering, ``order(game, state, actions)``) is
matched on its whole reply instead: a variant matches when it returns exactly what the
student's function returned on every input.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from .answers.bounded import BoundedGame
from .answers.facts import adapt, reference_depth, search_options
from .checks.common import read_search_result
from .answers.numbers import same_number
from .answers.sealed import Sealed
from .games import make_rules
from .games.moves import same_move
from .source_evidence import ruled_out

# Some mistakes behave identically on every tree (never raising alpha, not passing the window
# on and `continue` instead of `break` all amount to "no pruning"; in Value(state, sign) an
# unflipped sign is an unsigned leaf): those the student's source does not rule out
# (grader/source_evidence.py) are named together.  When more than MAX_NAMED remain, the
# evidence picks none of them, and none is named.
MAX_NAMED = 3


# A variant that visits more nodes than this is given up (and matches no student): on a game
# as large as Connect Four on 7x6, a variant that ignores the depth limit would search the
# whole game and never return.  A student's search that visited as many nodes within the
# call's time limit is far beyond what the catalogue's mistakes explain anyway.
VARIANT_VISIT_LIMIT = 200_000


class VariantTooLong(Exception):
    """A variant visited more than ``VARIANT_VISIT_LIMIT`` nodes."""

    def __init__(self, limit: int):
        super().__init__(f"more than {limit} nodes")


def variant_answers(call, mistake: str) -> list[dict]:
    """What the variant with ``mistake`` does on each input of a search call, reported as the
    call's convention reports it (``{"error": ...}`` where it fails or visits too much).

    Where the model solution leaves a choice open (``reference.variants.STYLES_OF``: does
    iterative deepening try the previous iteration's best move first?), the variant runs in
    each style: the first is the answer, the others its ``alternatives``, and a student who
    behaves like any of them behaves like the variant."""
    if call.convention == "ordering":
        return reply_variant_answers(call, mistake)
    from reference.variants import STYLES_OF
    styles = STYLES_OF.get(call.reference, (None,))
    answers = []
    for spec in call.inputs():
        found = [_variant_answer(call, spec, mistake, style) for style in styles]
        answers.append({**found[0], "alternatives": [{**other, "alternative": True}
                                                     for other in found[1:]]}
                       if len(found) > 1 else found[0])
    return answers


def _variant_answer(call, spec, mistake: str, style) -> dict:
    from reference.variants import WHOLE_REPLY, run
    function = call.reference
    game = BoundedGame(make_rules(spec), VARIANT_VISIT_LIMIT, VariantTooLong)
    root = game.root()
    try:
        returned = run(mistake, function, game, root, reference_depth(call, spec),
                       call.prune_on_equality, search_options(function, spec),
                       **({"style": style} if style else {}))
    except Exception as error:  # e.g. a variant that loops past a terminal node
        return {"error": type(error).__name__}
    if function in WHOLE_REPLY:   # compared by the whole reply, as plain JSON
        return {"returned": json.loads(json.dumps(returned)),
                "visits": game.visit_log()["visits"]}
    value, action = returned
    return adapt({"value": value, "action": action, "visits": game.visit_log()["visits"]},
                 call.convention, spec)


def reply_variant_answers(call, mistake: str) -> list[dict]:
    """What the variant with ``mistake`` of a function that is not a search (a move ordering)
    replies on each input, as ``{"returned": ...}``: compared whole with a student's reply."""
    from reference.variants import run_reply
    from .conventions.ordering import position
    answers = []
    for item in call.inputs():
        game, state, actions = position(item)
        try:
            answers.append({"returned": json.loads(json.dumps(
                run_reply(mistake, call.reference, game, state, actions)))})
        except Exception as error:
            answers.append({"error": type(error).__name__})
    return answers


def behaves_alike(outcome, answer: dict) -> bool:
    """Same value, action and visit sequence (a student's outcome vs. a search's answer);
    only what the convention returns is compared.  Where the answer holds the whole reply
    (``returned``: a move ordering, iterative deepening, a principal variation), the student's
    reply must equal it, and so must the visits where the answer has them.  An answer with
    ``alternatives`` (the same variant in another style) is matched by any of them."""
    if any(behaves_alike(outcome, other) for other in answer.get("alternatives", ())):
        return True
    if "error" in answer or outcome.status != "ok":
        return False
    if "returned" in answer:
        return same_reply(outcome.returned, answer["returned"]) and (
            "visits" not in answer
            or (outcome.log is not None and outcome.log["visits"] == answer["visits"]))
    if outcome.log is None:
        return False
    value, action, _ = read_search_result(outcome.returned)
    if value is None:   # ±∞, which a search without a terminal test returns as its variant does
        value = _infinite(outcome.returned)
    if answer.get("returns_value", True) and (value is None
                                               or not same_number(value, answer["value"])):
        return False
    if answer.get("returns_action", True) and not same_move(action, answer["action"]):
        return False
    return outcome.log["visits"] == answer["visits"]


def _infinite(returned):
    """The value of a reply ``(±∞, action)`` as the runner encodes it, else None."""
    if isinstance(returned, list) and len(returned) == 2 and isinstance(returned[0], dict):
        return {"inf": float("inf"), "-inf": float("-inf")}.get(returned[0].get("__float__"))
    return None


def same_reply(a, b) -> bool:
    """Equal plain JSON replies, numbers compared as ``same_number`` does (a self-check kit's
    sealed reply by digesting the plain one)."""
    if isinstance(b, Sealed):
        return b.matches(a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_reply(x, y) for x, y in zip(a, b))
    numbers = [isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b)]
    if all(numbers):
        return same_number(a, b)
    return not any(numbers) and a == b


def same_as_reference(variant: dict, reference: dict) -> bool:
    """Whether a variant's answer is the reference's own (then it names no mistake).  The
    variant in another style than the model solution's (``alternative``) visits other nodes
    anyway: it is the reference's own when it returns the same.  A self-check kit answers
    this when it is made (``same_as_reference``): its answers are sealed."""
    if "error" in variant:
        return False
    if "same_as_reference" in variant:
        return variant["same_as_reference"]
    if "returned" in variant:
        return same_reply(variant["returned"], reference["returned"]) and (
            variant.get("alternative") or "visits" not in variant
            or variant["visits"] == reference["visits"])
    # only what the convention returns: a variant whose value alone differs, where the
    # student's search returns its action alone, differs in nothing that could be seen
    return ((not variant.get("returns_value", True)
             or same_number(variant["value"], reference["value"]))
            and (not variant.get("returns_action", True)
                 or variant["action"] == reference["action"])
            and variant["visits"] == reference["visits"])


def diagnose(mistakes, runs, variant_of, excluded=frozenset()) -> list[str]:
    """Those of ``mistakes`` (the catalogue's mistakes of the function's model solution) whose
    variant behaves exactly like the student's function, on every input the student's
    function ran on, leaving out those in ``excluded``.

    ``runs``: (observation, reference answers) per call of ``function``; ``variant_of(mistake,
    index)``: the variant's answers for the call ``runs[index]`` (computed only when needed).
    """
    matches = []
    for mistake in mistakes:
        if mistake in excluded:
            continue
        compared = differs = 0
        alike = True
        for index, (observation, reference) in enumerate(runs):
            if observation.status != "ok":
                continue
            answers = variant_of(mistake, index)
            for outcome, ref, variant in zip(observation.items, reference, answers):
                if outcome.status != "ok":
                    continue
                compared += 1
                if not behaves_alike(outcome, variant):
                    alike = False
                    break
                matched = next((other for other in variant.get("alternatives", ())
                                if behaves_alike(outcome, other)), variant)
                if not same_as_reference(matched, ref):
                    differs += 1
            if not alike:
                break
        if alike and compared and differs:
            matches.append(mistake)
    return matches


def attach_diagnoses(verdicts, plan, observations, answers, source: Path | None = None):
    """Verdicts of failed search checks, with the names of the mistakes that explain them
    (``source``: the submission's folder, whose code may rule mistakes out), and with how the
    function's signature differs from the task's where the runner reported that."""
    failing = {v.check.function for v in verdicts if not v.passed}
    if not failing:
        return verdicts
    absent = ruled_out(source)
    signatures = {}
    for call in plan.calls:
        report = observations[call.key()].extra.get("signature") \
            if call.key() in observations else None
        # the report of the fullest call (with the depth, where the task passes one)
        if call.function in failing and report and len(report["expected"]) > len(
                signatures.get(call.function, {}).get("expected", "")):
            signatures[call.function] = report
    def named_in(calls) -> list[str]:
        references = {c.reference for c in calls}
        if len(references) != 1:
            return []
        runs = [(observations[c.key()], answers[c]) for c in calls]
        if all(obs.status != "ok" for obs, _ in runs):
            return []
        named = diagnose(answers.mistakes_of(references.pop()), runs,
                         lambda mistake, index: answers.variant(calls[index], mistake), absent)
        return named if len(named) <= MAX_NAMED else []

    def diagnosable(call, function) -> bool:
        return (call.function == function and call.convention != "plain"
                and bool(answers.mistakes_of(call.reference)))

    found = {}
    for function in failing:
        if function in signatures and not signatures[function]["adapted"]:
            continue  # called with arguments it does not take: no behaviour to diagnose
        found[function] = named_in([c for c in plan.calls if diagnosable(c, function)])
        if found[function]:
            continue
        # No one mistake explains every task: a student with two mistakes (say, a horizon
        # one ply early, and turns taken from the depth where a game gives extra turns)
        # still hears, task by task, of the one that explains that task's runs.
        tasks = {v.check.task_id for v in verdicts
                 if v.check.function == function and not v.passed}
        for task_id in tasks:
            calls = {c.key(): c for check in plan.checks if check.task_id == task_id
                     for c in plan.calls_of[check.id] if diagnosable(c, function)}
            found[(function, task_id)] = named_in(list(calls.values()))
    result = []
    for verdict in verdicts:
        signature = signatures.get(verdict.check.function)
        if signature and not verdict.passed:
            verdict = replace(verdict, facts={**verdict.facts, "signature": signature})
        mistakes = found.get(verdict.check.function) \
            or found.get((verdict.check.function, verdict.check.task_id))
        if mistakes and not verdict.passed and verdict.reason not in ("item.error", "hand") \
                and not verdict.reason.startswith("call."):
            verdict = replace(verdict, facts={**verdict.facts, "diagnosis": mistakes})
        result.append(verdict)
    return result
