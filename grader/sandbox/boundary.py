"""The one trust boundary: every reply a child sends is parsed and validated here, once,
before any other part of the parent reads it.

A child runs student code, so anything it sends may be hostile: a line nested 300,000 levels
deep, an integer with 400 digits, an error record with extra keys, a visit log holding
objects, megabytes of junk.  This module turns one reply line (bytes) into either the typed,
bounded reply the rest of the grader expects, or a ``Malformed`` that says why, and never
raises for what a child sent.  Validation is declarative (msgspec structs with
``forbid_unknown_fields``), plus a walk of the one free-form part, what a student's function
returned, that bounds its depth, size, strings and numbers.

What is accepted:

- numbers only inside the float range and finite (JSON has no NaN; the runner encodes
  non-finite floats as ``{"__float__": "nan"}``);
- visit logs as lists of node names (strings) and ``None`` for foreign states, at most
  ``MAX_LOG_ENTRIES`` entries per run and ``MAX_RUN_LOG_ENTRIES`` over a submission's
  whole run (the parent keeps them until the verdicts are made, so their total is capped);
- strings of bounded length, returned values at most ``MAX_DEPTH`` levels deep and
  ``MAX_NODES`` values in all.

Never import student code or ``reference`` here; nothing here executes what it reads.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Optional, Union

import msgspec

MAX_REPLY_BYTES = 16 << 20       # one reply line; longer lines are dropped unread
MAX_LOG_ENTRIES = 600_000        # per run: the full tic-tac-toe tree has 549,946 nodes
MAX_RUN_LOG_ENTRIES = 2_000_000  # per submission, over all of its calls
MAX_DEPTH = 24                   # the runner flattens returned values to depth 20
MAX_NODES = 200_000              # values in one returned value
MAX_TEXT = 10_000                # one string in a returned value or an error record
FLOAT_MAX = sys.float_info.max

Text = Annotated[str, msgspec.Meta(max_length=MAX_TEXT)]
Line = Annotated[int, msgspec.Meta(ge=0, le=10**9)]


class ErrorInfo(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """What the runner says about a failed import or call (all optional)."""

    type: Optional[Text] = None
    message: Optional[Text] = None
    file: Optional[Text] = None
    line: Optional[Line] = None
    traceback: Optional[Text] = None
    module: Optional[Text] = None
    function: Optional[Text] = None
    package: Optional[Text] = None        # a third-party module the course does not provide
    used: Optional[Text] = None           # what of that package the code used (numpy.inf)
    provided: Optional[Annotated[list[Text], msgspec.Meta(max_length=100)]] = None
    standin: Optional[Text] = None        # a stub of the Pacman project's modules, used


class Round(msgspec.Struct, forbid_unknown_fields=True):
    """One search from the root of a log that has several (iterative deepening)."""

    visits: list[Text]
    utility_calls: list[Optional[Text]]
    evaluate_calls: list[Optional[Text]]


class VisitLog(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """The recording game's log (grader/games/recorder.py), the same in every convention."""

    visits: list[Text]
    utility_calls: list[Optional[Text]]
    evaluate_calls: list[Optional[Text]]
    foreign_states: Annotated[int, msgspec.Meta(ge=0, le=10**12)]
    rounds: Optional[list[Round]] = None


class Item(msgspec.Struct, forbid_unknown_fields=True):
    status: Literal["ok", "error"]
    returned: Any = None
    log: Optional[VisitLog] = None
    error: Optional[ErrorInfo] = None


class LoadReply(msgspec.Struct, forbid_unknown_fields=True):
    status: Literal["ok", "missing-module", "import-error", "protocol"]
    error: Optional[ErrorInfo] = None


class SignatureInfo(msgspec.Struct, forbid_unknown_fields=True):
    """How the student's parameters differ from the task's call
    (``grader/conventions/signature.py``): ``adapted`` when the runner called the function
    with α, β and the depth where its parameters' names put them."""

    student: Text
    expected: Text
    adapted: bool
    swapped: Optional[bool] = None   # called with the state first (or the game), as named
    unclear: Optional[bool] = None   # the names do not say which is the game, which the state
    bounds: Optional[bool] = None    # with a swap: α, β and the depth fitted too


class CallReply(msgspec.Struct, forbid_unknown_fields=True):
    status: Literal["ok", "missing-module", "missing-function", "import-error", "protocol"]
    error: Optional[ErrorInfo] = None
    items: Optional[list[Item]] = None
    signature: Optional[SignatureInfo] = None
    found: Optional[Text] = None     # the function called, named in another case than asked


_DECODERS = {kind: msgspec.json.Decoder(kind) for kind in (LoadReply, CallReply)}


@dataclass(frozen=True)
class Malformed:
    """A reply the parent refuses; ``reason`` is shown to the instructor and the student."""

    reason: str


def decode(line: bytes, kind: type) -> Union[LoadReply, CallReply, Malformed]:
    """The validated reply in ``line``, or why it is malformed.  Never raises."""
    if len(line) > MAX_REPLY_BYTES:
        return Malformed(f"reply longer than {MAX_REPLY_BYTES >> 20} MiB")
    try:
        reply = _DECODERS[kind].decode(line)
    except msgspec.ValidationError as error:
        return Malformed(f"unexpected reply: {_short(error)}")
    except (msgspec.DecodeError, RecursionError, MemoryError, ValueError) as error:
        return Malformed(f"not a plain JSON reply: {_short(error)}")
    if isinstance(reply, CallReply):
        for index, item in enumerate(reply.items or ()):
            problem = bounded_value(item.returned)
            if problem:
                return Malformed(f"result {index + 1}: {problem}")
            if item.log is not None and log_size(item.log) > MAX_LOG_ENTRIES:
                return Malformed(f"result {index + 1}: visit log longer than "
                                 f"{MAX_LOG_ENTRIES:,} entries")
    return reply


def log_size(log: VisitLog) -> int:
    size = len(log.visits) + len(log.utility_calls) + len(log.evaluate_calls)
    if log.rounds:
        size += sum(len(r.visits) + len(r.utility_calls) + len(r.evaluate_calls)
                    for r in log.rounds)
    return size


def _plainly_bounded(value: Any) -> bool:
    """Whether ``value`` is a number, a short text or a short flat list of such (what
    nearly every search returns: ``[value, action]``) within the bounds: the walk of
    ``bounded_value`` is not needed then.  msgspec yields exact types, never subclasses."""
    kind = type(value)
    if kind is list:
        if len(value) > 16:
            return False
        return all(map(_plainly_bounded_scalar, value))
    return _plainly_bounded_scalar(value)


def _plainly_bounded_scalar(value: Any) -> bool:
    kind = type(value)
    if kind is str:
        return len(value) <= MAX_TEXT
    if kind is int:
        return abs(value) <= FLOAT_MAX
    if kind is float:
        return math.isfinite(value)
    return value is None or kind is bool


def bounded_value(value: Any) -> str | None:
    """Why a returned value is outside what the parent accepts, or None.

    Iterative, so that no depth can exhaust the parent's stack."""
    if _plainly_bounded(value):
        return None
    stack = [(value, 0)]
    nodes = 0
    while stack:
        current, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            return f"more than {MAX_NODES:,} values"
        if depth > MAX_DEPTH:
            return f"nested deeper than {MAX_DEPTH} levels"
        if isinstance(current, bool) or current is None:
            continue
        if isinstance(current, int):
            if abs(current) > FLOAT_MAX:
                return "a number outside the range of floating-point numbers"
        elif isinstance(current, float):
            if not math.isfinite(current):
                return "a number that is not finite"
        elif isinstance(current, str):
            if len(current) > MAX_TEXT:
                return f"a text longer than {MAX_TEXT:,} characters"
        elif isinstance(current, list):
            stack.extend((item, depth + 1) for item in current)
        elif isinstance(current, dict):
            for key, item in current.items():
                if len(key) > MAX_TEXT:
                    return f"a text longer than {MAX_TEXT:,} characters"
                stack.append((item, depth + 1))
        else:  # msgspec yields only JSON types; anything else is a bug worth refusing
            return f"a value of type {type(current).__name__}"
    return None


def _short(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text if len(text) <= 200 else text[:200] + "…"


def to_plain(struct) -> Any:
    """Plain dicts and lists for the checks (``None`` fields of error records left out)."""
    if type(struct) is VisitLog:
        return _log_dict(struct)
    return msgspec.to_builtins(struct)


def _log_dict(log: VisitLog) -> dict:
    """A visit log as ``msgspec.to_builtins`` gives it (the same keys in the same order,
    ``rounds`` only when there are some), holding the very lists the decoder made rather
    than copies: a submission's replies carry hundreds of logs (one per random tree), and
    copying their lists of node names again cost as much as decoding them.  Nothing else
    holds the reply once its observation is made."""
    plain = {"visits": log.visits, "utility_calls": log.utility_calls,
             "evaluate_calls": log.evaluate_calls, "foreign_states": log.foreign_states}
    if log.rounds is not None:
        plain["rounds"] = [{"visits": r.visits, "utility_calls": r.utility_calls,
                            "evaluate_calls": r.evaluate_calls} for r in log.rounds]
    return plain
