"""One tree per student: variants of a hand exercise's tree, drawn from the task's seed and
the student's key.

A variant has the task's shape (the same nodes, names, players and child order) and new leaf
values, whole numbers drawn uniformly from ``values`` by a generator seeded with SHA-256 of
(seed, task id, student key); draws are repeated until the tree meets the task's constraints
(``cuts``: the number of cut edges of the lecture's alpha-beta, at least or within a range;
``deep_cut``: one of them below a node two or more levels under the root; ``root_ties:
false``: the root's children have different values, so the best move is unique;
``visited``: the number of visited nodes).  The same seed, task and key give the same tree on
every machine and in every run, so ``grader sheets`` and ``grader grade`` agree without
keeping a list.

**The student's key** is the roster's identifier (username, else ID number, else email: the
column ``moodle.csv`` uses) when a roster is given, else the submission's name (the folder's,
or the archive's without its suffix, as the report id is made from it); compared without
case and spacing.  ``code_of`` names a variant by six characters of the hash of its tree:
printed on the sheet and written into the answer template, so that an answer file written
for another tree can be told apart.

Parent side only; the constraint check runs the reference's alpha-beta (``reference/hand``).
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from dataclasses import replace

from ..calls import canonical
from . import BY_HAND

MAX_TRIES = 4000
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"     # Crockford's base 32: no I, L, O, U


class VariantsUnmet(Exception):
    """No draw met the constraints; ``tries`` draws were made."""

    def __init__(self, reason: str, tries: int):
        super().__init__(reason)
        self.tries = tries


def student_key(name: str) -> str:
    """A student's key as variants are drawn from it: without case, spacing at the ends and
    runs of spaces."""
    return " ".join(str(name).split()).casefold()


def code_of(spec: dict) -> str:
    """Six characters naming a tree (its leaf values and shape)."""
    digest = int.from_bytes(hashlib.sha256(canonical(spec).encode()).digest()[:8], "big")
    return "".join(CODE_ALPHABET[(digest >> (5 * i)) & 31] for i in range(6))


def _generator(seed: int, task_id: str, key: str) -> random.Random:
    digest = hashlib.sha256(f"{seed}\x1f{task_id}\x1f{student_key(key)}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def _tree(spec: dict) -> dict:
    """The reference's view of the tree's shape (``reference.hand.shape``)."""
    from ..answers.bounded import make_game
    from reference.hand import shape
    game, root = make_game(spec)
    return shape(game, root)


def draw(spec: dict, options: dict, task_id: str, key: str) -> dict:
    """The variant of ``spec`` for the student ``key``: a new game spec."""
    from reference.hand import alphabeta_run, node_values
    tree = _tree(spec)
    leaves = [name for name in tree["order"] if name in tree["leaves"]]
    low, high = options["values"]
    rng = _generator(options["seed"], task_id, key)
    failures: dict = {}
    for _ in range(MAX_TRIES):
        values = {name: rng.randint(low, high) for name in leaves}
        tree["leaves"] = values
        reason = _unmet(tree, options, alphabeta_run, node_values)
        if reason is None:
            variant = copy.deepcopy(spec)
            for name, value in values.items():
                variant["nodes"][name]["value"] = value
            return variant
        failures[reason] = failures.get(reason, 0) + 1
    raise VariantsUnmet(max(failures, key=failures.get), MAX_TRIES)


def _unmet(tree, options, alphabeta_run, node_values) -> str | None:
    """Which constraint a drawn tree misses, or None."""
    if not options["root_ties"]:
        values = node_values(tree)
        children = [values[c] for c in tree["children"][tree["root"]]]
        if len(set(children)) != len(children):
            return "root_ties: false"
    run = alphabeta_run(tree, options.get("prune_on_equality", True))
    low, high = options["cuts"]
    cuts = len(run["cut_edges"])
    if cuts < low or (high is not None and cuts > high):
        return f"cuts: {low}" + (f" to {high}" if high is not None else " or more")
    if options["deep_cut"] and not any(tree["depth"][parent] >= 2
                                       for parent, _ in run["cut_edges"]):
        return "deep_cut: true"
    low, high = options["visited"]
    visited = len(run["visits"])
    if visited < low or (high is not None and visited > high):
        return "visited"
    return None


def variant_item(item: dict, key: str, prune_on_equality: bool = True) -> dict:
    """A by-hand call's item for the student ``key``: the drawn tree in place of the task's,
    and the variant's code."""
    options = {**item["variants"], "prune_on_equality": prune_on_equality}
    tree = draw(item["tree"], options, item["task"], key)
    return {**item, "tree": tree, "variants": None, "variant": code_of(tree)}


def fixed_item(item: dict) -> dict:
    """The item of a task without variants, with its tree's code."""
    return {**item, "variant": code_of(item["tree"])}


def for_student(plan, key: str):
    """``plan`` with the by-hand calls of tasks that draw variants replaced by the calls of
    the student ``key``'s own trees (the same plan when the course has none)."""
    changed = {}
    for call in plan.calls:
        if call.convention != BY_HAND:
            continue
        item = json.loads(call.items[0])
        if not item.get("variants"):
            continue
        changed[call.key()] = replace(call, items=(canonical(
            variant_item(item, key, call.prune_on_equality)),))
    if not changed:
        return plan
    calls = tuple(changed.get(call.key(), call) for call in plan.calls)
    calls_of = {check: tuple(changed.get(c.key(), c) for c in needed)
                for check, needed in plan.calls_of.items()}
    hidden = frozenset(changed[k].key() if k in changed else k for k in plan.hidden_keys)
    return replace(plan, calls=calls, calls_of=calls_of, hidden_keys=hidden)


def identities(course, roster, submissions) -> dict:
    """Each submission's key for the trees of hand tasks with variants: the roster's
    identifier of the person it belongs to (submissions the roster does not name keep their
    own name, and are noted by the roster's exports).  Empty without a roster or without such
    tasks."""
    if roster is None or not any(getattr(task, "variants", None) for task in course.tasks):
        return {}
    found = {}
    for submission in submissions:
        person, _ = roster.match(submission.display)
        if person is not None:
            found[submission.student] = roster.identifier_of(person)
    return found
