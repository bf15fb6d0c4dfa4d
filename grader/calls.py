"""Calls of student functions, and what came back: the plain data passed along the pipeline.

A ``Call`` names one student function and the inputs it is run on.  Several checks that need
the same run share one ``Call`` (they compare different parts of the same observation), and
the reference answer of a ``Call`` is computed once for the whole batch of students.

``items`` are the inputs, each JSON-able: for the ``game`` convention a game spec (the child
builds a recording game from it and calls ``function(game, root, *args)``), for the ``plain``
convention a list of positional arguments (``function(*item)``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Call:
    module: str
    function: str
    convention: str          # "game" | "plain"
    items: tuple             # canonical JSON texts of the inputs, one run each
    args: tuple = ()         # extra positional arguments after (game, state), e.g. depth
    time_limit: float = 2.0  # seconds for the whole call, all items together
    prune_on_equality: bool = True  # how the reference cuts; not sent to the child
    reference: str = ""      # the model solution answering this call; not sent to the child

    def key(self) -> str:
        """A stable identity, also used to order calls reproducibly."""
        # Asked for hundreds of times per submission, and the items of a random-tree call
        # are 300 kB of text: encoded once per call (the plan's calls serve every submission).
        key = self.__dict__.get("_key")
        if key is None:
            key = json.dumps([self.module, self.function, self.convention, list(self.items),
                              list(self.args), self.prune_on_equality, self.reference],
                             sort_keys=True)
            object.__setattr__(self, "_key", key)  # a cache, not a field: eq and hash ignore it
        return key

    def inputs(self) -> list:
        return [json.loads(item) for item in self.items]

    def request(self) -> dict:
        """What the child receives: everything it needs, nothing it must not see."""
        return {"op": "call", "module": self.module, "function": self.function,
                "convention": self.convention, "items": self.inputs(),
                "args": list(self.args)}

    def request_text(self) -> str:
        """What the child receives through its pipe, as JSON text: ``request()`` with the
        items as their JSON texts (``item_texts``), encoded once per call rather than once
        per submission.  The items go as texts because calls share them (the random-tree
        checks run minimax, alpha-beta and negamax on the same 200 trees): the runner decodes
        each distinct tree once (``grader.sandbox.child.Runner.items_of``) instead of once per
        call, which was the largest part of a child's own work beside the calls."""
        text = self.__dict__.get("_request_text")
        if text is None:
            head = json.dumps({"op": "call", "module": self.module, "function": self.function,
                               "convention": self.convention})
            text = (f'{head[:-1]}, "item_texts": {json.dumps(list(self.items))}, '
                    f'"args": {json.dumps(list(self.args))}}}')
            object.__setattr__(self, "_request_text", text)
        return text

    def request_for(self, sent: "SentItems") -> str:
        """``request_text()`` for one child process that keeps a table of the item texts it
        was sent (``SentItems``): an item text goes through the pipe the first time that
        process gets it and is named by its index in the table afterwards (``item_refs``),
        so that the random-tree checks' 200 trees cross the pipe once per child instead of
        once per call that searches them (about 1.1 MB per submission of the bundled course
        before)."""
        head = self.__dict__.get("_head")
        if head is None:
            text = json.dumps({"op": "call", "module": self.module, "function": self.function,
                               "convention": self.convention})
            head = (text[:-1], json.dumps(list(self.args)),
                    tuple(json.dumps(item) for item in self.items))
            object.__setattr__(self, "_head", head)
        start, args, literals = head
        refs, forget = sent.refs(self.items, literals)
        forget_text = ', "forget": true' if forget else ""
        return f'{start}, "item_refs": [{", ".join(refs)}], "args": {args}{forget_text}}}'


class SentItems:
    """The item texts one child process has been sent, in order: its runner keeps the same
    table (``grader.sandbox.child.Runner.texts_of``), so a text sent once is named by its
    index afterwards.  A new process starts with a new table (``grader.sandbox.launcher.Child
    .start``).  At most ``LIMIT`` texts are kept: past them both tables start afresh (the
    request that says ``"forget": true``).

    The table in the child is within reach of the student's code, which may empty or change
    it: then a reference names a missing text (the runner answers that call with a protocol
    error, a failed call) or another input (the student's answers are about another tree, and
    are judged against the reference answers of the input the parent meant).  Either costs
    only that student."""

    LIMIT = 5000

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def refs(self, items: tuple, literals: tuple) -> tuple[list[str], bool]:
        """The JSON of each item's entry in ``item_refs`` (its index if sent before, else its
        text, ``literals`` being the items' JSON strings), and whether the child must forget
        its table first; the texts are recorded as sent."""
        index = self.index
        forget = len(index) + len(items) > self.LIMIT
        if forget:
            index.clear()
        refs = []
        for text, literal in zip(items, literals):
            number = index.get(text)
            if number is None:
                index[text] = len(index)
                refs.append(literal)
            else:
                refs.append(str(number))
        return refs, forget


# Call-level outcomes: every item of the call shares them.
CALL_FAILURES = ("missing-module", "missing-function", "import-error", "import-timeout",
                 "timeout", "crashed", "after-timeout",
                 "budget", "protocol")


@dataclass(frozen=True)
class ItemOutcome:
    """One run of the student function on one input, as reported by the child."""

    status: str                       # "ok" | "error"
    returned: Any = None              # plain JSON data (the child converted it)
    log: dict | None = None           # the recording game's visit log ("game" convention)
    error: dict | None = None         # {"type", "message", "file", "line", "traceback"}


@dataclass(frozen=True)
class Observation:
    """Everything the parent learned from one ``Call``."""

    status: str                       # "ok" or one of CALL_FAILURES
    items: tuple = ()                 # ItemOutcome per input, when status == "ok"
    error: dict | None = None         # details of a call-level failure
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)


def canonical(value) -> str:
    """The canonical JSON text of an input, so that equal inputs make equal calls."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
