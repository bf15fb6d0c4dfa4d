"""Sealed answers: what a self-check kit holds in place of the reference's answers.

A kit lets ``grader check --kit`` tell students where their search differs from the
reference and name a classic mistake, on the students' own machines, without the model
solutions.  If it held the reference's answers as they are (the value, the move, the whole
visit sequence), a file with no search could read them and replay them.  So a kit holds
*digests* of them instead: keyed BLAKE2b with a random salt per kit, truncated to
``DIGEST_BYTES``, each over a *context* (the call, the input, the field) so that equal
answers in two places do not give equal digests.

A judge compares a student's plain answer with a sealed one by digesting the plain one:

* ``SealedValue``: a value, a move or a whole reply; ``matches(plain)``, ``==`` (values to
  ``same_number``'s tolerance, moves only of their own type: ``same_move``);
* ``SealedSet``: the optimal moves; ``move in optimal`` (``holds_move``);
* ``SealedVisits``: a visit sequence, as a *chain* of digests of its prefixes (so that a
  check can say "your 7th visit differs" without naming the reference's 7th), the digests of
  its nodes (which of the student's nodes the reference does not visit), a digest of the
  whole sequence and one of its set, and its length as a ``SealedCount``;
* ``SealedCount``: a number of nodes, compared by trying the numbers up to a bound every
  student knows (the size of the tree);
* ``SealedValues``: the values the reference gives the inner nodes (the ``line`` check).

What a kit does not hold at all (no visible check needs it) is ``WITHHELD``.  A sealed object
never prints: ``str`` raises, so a message that would show the reference's side cannot be
rendered from one.  A verdict judged with sealed answers is marked (``grading.judge_all``),
and the report then uses the catalogue's ``kit-ok``/``kit-reason`` entries, which say where
the student differs, not what the reference has.

What a digest does not hide: the salt is in the kit (the check needs it), and the domains are
small.  Whoever digests candidate values, the root's actions or the tree's nodes with it finds
the reference's value, move and visited set, and extends the chain one node at a time to its
visit sequence.  That is work a replay of the files does not do, and it is why grades that
count come from ``grader grade`` (hidden checks; see the README).

Standard library only; never imports ``reference``.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import math

DIGEST_BYTES = 6            # 48 bits: a wrong answer matches by chance once in 2**48
STATE_BYTES = 16            # the chain's running state (only its first DIGEST_BYTES are kept)
END = b"\x00end"            # marks where a sealed visit sequence ends (no node text has \x00)
WHOLE = b"\x00whole"        # the digest of a whole sequence: not its chain's end marker
# Floats are compared on a grid of this many significant digits (with the neighbours of
# the student's value on it): ``same_number``'s tolerance is 1e-9, relative.
FLOAT_DIGITS = 9


class SealedError(TypeError):
    """A sealed answer was to be shown, or compared in a way a digest cannot answer."""


# -- canonical texts ------------------------------------------------------------------------

def number_text(value) -> str:
    """A number as text, equal for the numbers ``same_number`` takes as equal (but for values
    on the edge of the float grid, which ``candidates`` covers): whole numbers as integers,
    other floats to ``FLOAT_DIGITS`` significant digits, near-zero as 0."""
    if isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return repr(value)
    if abs(value) < 1e-9:
        return "0"
    if value.is_integer() and abs(value) < 2 ** 53:
        return str(int(value))
    text = f"{value:.{FLOAT_DIGITS}g}"
    return str(int(float(text))) if float(text).is_integer() and "e" not in text else text


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def json_text(value) -> str:
    """Canonical text of plain JSON data (an action, a node, a whole reply): lists and tuples
    alike, numbers by ``number_text``."""
    if _is_number(value):
        return number_text(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(json_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(str(k)) + ":" + json_text(v)
                              for k, v in sorted(value.items())) + "}"
    return json.dumps(value, sort_keys=True)


def candidates(value) -> list[str]:
    """The texts a plain value is compared by: its own, and for a float off the grid also
    its neighbours on it (so that 2.3333333333333335 and 2.333333333333333 meet)."""
    def options(number):
        if not _is_number(number) or isinstance(number, int) or not math.isfinite(number) \
                or abs(number) < 1e-9 or (number.is_integer() and abs(number) < 2 ** 53):
            return [json_text(number)]
        step = 10 ** (math.floor(math.log10(abs(number))) - FLOAT_DIGITS + 1)
        return list(dict.fromkeys(number_text(n) for n in (number, number - step,
                                                            number + step)))
    if isinstance(value, (list, tuple)) and value and all(_is_number(v) for v in value):
        return ["[" + ",".join(parts) + "]"
                for parts in itertools.product(*(options(v) for v in value))][:243]
    return options(value) if _is_number(value) else [json_text(value)]


def move_text(move) -> str:
    """Canonical text of a move: its JSON, so that a move is only its own type's (``8.0`` is
    not cell 8, ``true`` not column 1; lists and tuples alike, as JSON carries them)."""
    return json.dumps(move, sort_keys=True)


def node_text(node) -> str:
    return json.dumps(node) if isinstance(node, str) else json_text(node)


# -- the seal -------------------------------------------------------------------------------

class Seal:
    """Keyed BLAKE2b with one kit's salt."""

    def __init__(self, salt: bytes):
        if not 8 <= len(salt) <= 64:
            raise ValueError("a kit's salt has 8 to 64 bytes")
        self.salt = salt

    def digest(self, context: str, text: str) -> bytes:
        return hashlib.blake2b(f"{context}\x00{text}".encode(), key=self.salt,
                               digest_size=DIGEST_BYTES).digest()

    def start(self, context: str) -> bytes:
        return hashlib.blake2b(f"{context}\x00chain".encode(), key=self.salt,
                               digest_size=STATE_BYTES).digest()

    def step(self, state: bytes, text: str) -> bytes:
        return hashlib.blake2b(state + text.encode(), key=self.salt,
                               digest_size=STATE_BYTES).digest()

    def end(self, state: bytes) -> bytes:
        return hashlib.blake2b(state + END, key=self.salt,
                               digest_size=DIGEST_BYTES).digest()

    def whole(self, state: bytes) -> bytes:
        """The digest of a whole sequence whose chain ends in ``state`` (another digest than
        the chain's end marker: where the chain ends must not be found by looking it up)."""
        return hashlib.blake2b(state + WHOLE, key=self.salt, digest_size=DIGEST_BYTES).digest()

    def pad(self, context: str, count: int) -> list[bytes]:
        """Digests that match nothing, the same for the same salt (a kit is reproducible)."""
        return [self.digest(f"{context}\x00pad", str(index)) for index in range(count)]


def pack(digests) -> str:
    return base64.b64encode(b"".join(digests)).decode()


def unpack(text: str) -> list[bytes]:
    raw = base64.b64decode(text.encode(), validate=True)
    if len(raw) % DIGEST_BYTES:
        raise ValueError("a sealed list of the wrong length")
    return [raw[i:i + DIGEST_BYTES] for i in range(0, len(raw), DIGEST_BYTES)]


def padded_length(count: int) -> int:
    """A sealed sequence or set of ``count`` entries is padded to this many: its length says
    at most within a factor of two how long the reference's is."""
    length = 8
    while length < count + 1:
        length *= 2
    return length


# -- sealed answers -------------------------------------------------------------------------

class Sealed:
    """Something of the reference's answer that a kit holds only as digests: it never prints."""

    def __str__(self):
        raise SealedError(f"{type(self).__name__} cannot be shown: a self-check kit's message "
                          "must not name the reference's answer (a kit-ok/kit-reason entry "
                          "of the catalogue is missing)")

    __format__ = lambda self, spec: self.__str__()  # noqa: E731

    def __repr__(self):
        return f"<{type(self).__name__}>"

    __hash__ = None


class _Withheld(Sealed):
    """What a kit does not hold, because no visible check compares with it."""

    def __eq__(self, other):
        raise SealedError("the kit holds no answer for this comparison")

    __ne__ = __eq__

    def matches(self, other):
        raise SealedError("the kit holds no answer for this comparison")

    def __contains__(self, item):
        raise SealedError("the kit holds no answer for this comparison")


WITHHELD = _Withheld()


class SealedValue(Sealed):
    """A value, move or reply.  ``length``: a utility vector's number of components;
    ``move``: a move, compared as moves are (of the same type, ``move_text``), not as
    numbers."""

    def __init__(self, seal: Seal, context: str, digest: bytes, length: int | None = None,
                 move: bool = False):
        self.seal, self.context, self.digest, self.length = seal, context, digest, length
        self.move = move

    def matches(self, other) -> bool:
        if isinstance(other, SealedValue):
            if other.context != self.context:
                raise SealedError("two sealed values of different places cannot be compared")
            return other.digest == self.digest
        if isinstance(other, Sealed):
            raise SealedError("a sealed value compared with another sealed thing")
        texts = [move_text(other)] if self.move else candidates(other)
        return any(self.seal.digest(self.context, text) == self.digest for text in texts)

    def same_move(self, move) -> bool:
        """Whether ``move`` is this sealed move (``grader.games.moves.same_move``'s question)."""
        return self.matches(move)

    def __eq__(self, other):
        return self.matches(other)

    def __ne__(self, other):
        return not self.matches(other)


class SealedSet(Sealed):
    """A set of actions: ``action in sealed_set``."""

    def __init__(self, seal: Seal, context: str, digests):
        self.seal, self.context, self.digests = seal, context, frozenset(digests)

    def __contains__(self, item) -> bool:
        return self.seal.digest(self.context, move_text(item)) in self.digests

    def holds_move(self, move) -> bool:
        """Whether ``move`` is one of these sealed moves (``grader.games.moves.is_move_of``'s
        question)."""
        return move in self

    def __iter__(self):
        raise SealedError("a sealed set cannot be listed")


class SealedCount(Sealed):
    """A number of nodes, at most ``upper``: compared by trying the numbers up to ``upper``
    (which every student can do as well: a count is no secret, only not written down)."""

    def __init__(self, seal: Seal, context: str, digest: bytes, upper: int):
        self.seal, self.context, self.digest, self.upper = seal, context, digest, upper
        self._number = None

    def number(self) -> int:
        if self._number is None:
            self._number = next((n for n in range(self.upper + 1)
                                 if self.seal.digest(self.context, str(n)) == self.digest),
                                None)
            if self._number is None:
                raise SealedError("a sealed count beyond its bound: the kit is damaged")
        return self._number


class SealedVisits(Sealed):
    """A visit sequence: compared whole (``==``), as a set (``same_set``), node by node
    (``contains``) and position by position (``first_difference``); its length is ``count``.
    A kit holds only the parts its visible checks use; the others are None."""

    def __init__(self, seal: Seal, context: str, *, full=None, set_digest=None, chain=None,
                 members=None, count=None):
        self.seal, self.context = seal, context
        self.full, self.set_digest, self.count = full, set_digest, count
        self.chain = chain                   # list of digests, padded
        self.members = frozenset(members) if members is not None else None

    def _need(self, part):
        if getattr(self, part) is None:
            raise SealedError(f"the kit holds no {part} of this visit sequence")
        return getattr(self, part)

    def __eq__(self, other):
        if not isinstance(other, (list, tuple)):
            return NotImplemented
        return self.seal.whole(chain_state(self.seal, self.context, other)) == self._need("full")

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __len__(self):
        raise SealedError("the length of a sealed visit sequence is its count, a SealedCount")

    def __iter__(self):
        raise SealedError("a sealed visit sequence cannot be listed")

    def same_set(self, nodes) -> bool:
        return set_digest(self.seal, self.context, nodes) == self._need("set_digest")

    def contains(self, node) -> bool:
        return self.seal.digest(self.context + "/node", node_text(node)) in self._need("members")

    def first_difference(self, observed: list):
        """None if ``observed`` is the sealed sequence, else ``{"index", "observed", "ended"}``:
        the first position (from 1) where they differ, the student's node there (None where the
        student stopped) and whether the reference stopped there (it visits no more)."""
        chain = self._need("chain")
        state = self.seal.start(self.context)
        for index, node in enumerate(observed):
            ended = index < len(chain) and chain[index] == self.seal.end(state)
            state = self.seal.step(state, node_text(node))
            if index >= len(chain) or ended or chain[index] != state[:DIGEST_BYTES]:
                return {"index": index + 1, "observed": node, "ended": ended}
        index = len(observed)
        if index < len(chain) and chain[index] == self.seal.end(state):
            return None
        return {"index": index + 1, "observed": None, "ended": False}


class SealedValues(dict):
    """Every node's value: those the game gives (terminal and horizon nodes) as they are, the
    inner nodes' (the reference's minimax values) sealed, looked up by their node's digest."""

    def __init__(self, static: dict, seal: Seal, context: str, inner: dict):
        super().__init__(static)
        self.seal, self.context, self.inner = seal, context, inner

    def _sealed(self, node):
        key = self.seal.digest(self.context + "/node", node_text(node))
        digest = self.inner.get(key)
        return None if digest is None else SealedValue(self.seal, f"{self.context}/{key.hex()}",
                                                       digest)

    def __getitem__(self, node):
        if dict.__contains__(self, node):
            return dict.__getitem__(self, node)
        found = self._sealed(node)
        if found is None:
            raise KeyError(node)
        return found

    def __contains__(self, node):
        return dict.__contains__(self, node) or self._sealed(node) is not None

    def get(self, node, default=None):
        try:
            return self[node]
        except KeyError:
            return default


def chain_state(seal: Seal, context: str, nodes) -> bytes:
    state = seal.start(context)
    for node in nodes:
        state = seal.step(state, node_text(node))
    return state


def set_digest(seal: Seal, context: str, nodes) -> bytes:
    return seal.digest(context + "/set", "\x00".join(sorted({node_text(n) for n in nodes})))


# -- sealing an answer (kit build) and opening it (kit check) --------------------------------

# What each field of an answer becomes in a kit (see ``seal_answer``); fields a kit computes
# from the inputs instead (the tree's shape) or never needs are not listed.
VISIT_PARTS = ("full", "set", "chain", "members", "count")


def seal_value(seal: Seal, context: str, value, move: bool = False) -> str | dict:
    digest = pack([seal.digest(context, move_text(value) if move else json_text(value))])
    if isinstance(value, (list, tuple)) and value and all(_is_number(v) for v in value):
        return {"vector": digest, "length": len(value)}
    return digest


def open_value(seal: Seal, context: str, stored, move: bool = False) -> SealedValue:
    if isinstance(stored, dict):
        return SealedValue(seal, context, unpack(stored["vector"])[0], stored["length"])
    return SealedValue(seal, context, unpack(stored)[0], move=move)


def seal_visits(seal: Seal, context: str, visits: list, parts) -> dict:
    """The ``parts`` (of ``VISIT_PARTS``) of a visit sequence a kit keeps."""
    sealed = {}
    if "full" in parts:
        sealed["full"] = pack([seal.whole(chain_state(seal, context, visits))])
    if "set" in parts:
        sealed["set"] = pack([set_digest(seal, context, visits)])
    if "count" in parts:
        sealed["count"] = pack([seal.digest(context + "/count", str(len(visits)))])
    length = padded_length(len(visits))
    if "chain" in parts:
        state, chain = seal.start(context), []
        for node in visits:
            state = seal.step(state, node_text(node))
            chain.append(state[:DIGEST_BYTES])
        chain.append(seal.end(state))
        chain += seal.pad(context + "/chain", length - len(chain))
        sealed["chain"] = pack(chain)
    if "members" in parts:
        members = {seal.digest(context + "/node", node_text(n)) for n in visits}
        members.update(seal.pad(context + "/members", length - len(members)))
        sealed["members"] = pack(sorted(members))
    return sealed


def open_visits(seal: Seal, context: str, stored: dict, upper: int) -> SealedVisits:
    def one(part):
        return unpack(stored[part])[0] if part in stored else None
    count = one("count")
    return SealedVisits(seal, context, full=one("full"), set_digest=one("set"),
                        chain=unpack(stored["chain"]) if "chain" in stored else None,
                        members=unpack(stored["members"]) if "members" in stored else None,
                        count=None if count is None else SealedCount(
                            seal, context + "/count", count, upper))


def seal_count(seal: Seal, context: str, number: int) -> str:
    return pack([seal.digest(context, str(number))])


def open_count(seal: Seal, context: str, stored: str, upper: int) -> SealedCount:
    return SealedCount(seal, context, unpack(stored)[0], upper)


def seal_set(seal: Seal, context: str, moves) -> str:
    return pack(sorted({seal.digest(context, move_text(move)) for move in moves}))


def open_set(seal: Seal, context: str, stored: str) -> SealedSet:
    return SealedSet(seal, context, unpack(stored))


def seal_inner_values(seal: Seal, context: str, values: dict, static) -> str:
    """The inner nodes' values of a ``values`` dict (those not in ``static``), each under its
    node's digest: pairs of digests, sorted, so that neither nodes nor values can be read."""
    pairs = []
    for node, value in values.items():
        if node in static:
            continue
        key = seal.digest(context + "/node", node_text(node))
        pairs.append(key + seal.digest(f"{context}/{key.hex()}", json_text(value)))
    return base64.b64encode(b"".join(sorted(pairs))).decode()


def open_inner_values(seal: Seal, context: str, stored: str, static: dict) -> SealedValues:
    raw = base64.b64decode(stored.encode(), validate=True)
    size = 2 * DIGEST_BYTES
    inner = {raw[i:i + DIGEST_BYTES]: raw[i + DIGEST_BYTES:i + size]
             for i in range(0, len(raw), size)}
    return SealedValues(static, seal, context, inner)


def seal_answer(seal: Seal, context: str, answer: dict, parts) -> dict:
    """What a kit keeps of one reference answer: its value and action, and of the rest the
    ``parts`` its visible checks compare with (their kinds' ``SEALED_PARTS``), sealed.  The
    facts that follow from the input alone (``answers.public.public_facts``) are left out: the kit
    computes them when it checks."""
    sealed = {}
    for field in ("value", "action"):
        if field in answer:
            sealed[field] = seal_value(seal, f"{context}/{field}", answer[field],
                                       move=field == "action")
    if "optimal_actions" in parts and "optimal_actions" in answer:
        sealed["optimal_actions"] = seal_set(seal, f"{context}/optimal",
                                             answer["optimal_actions"])
    visit_parts = [p.split(":")[1] for p in parts if p.startswith("visits:")]
    if visit_parts and "visits" in answer:
        sealed["visits"] = seal_visits(seal, f"{context}/visits", answer["visits"], visit_parts)
    if "extension_visits" in parts and "extension_visits" in answer:
        sealed["extension_visits"] = seal_count(seal, f"{context}/extension",
                                                answer["extension_visits"])
    if "compared" in parts and "compared" in answer:
        sealed["compared"] = seal_count(seal, f"{context}/compared",
                                        answer["compared"]["alphabeta"])
        sealed["table_saves"] = answer["table_saves"]
    if "iterations" in parts and "iterations" in answer:
        sealed["iterations"] = [
            {"value": seal_value(seal, f"{context}/iteration{k}/value", facts["value"]),
             "optimal_actions": seal_set(seal, f"{context}/iteration{k}/optimal",
                                         facts["optimal_actions"])}
            for k, facts in enumerate(answer["iterations"])]
    if "values" in parts and "values" in answer:
        static = set(answer["terminals"]) | set(answer["horizon"])
        sealed["values"] = seal_inner_values(seal, f"{context}/values", answer["values"], static)
    return sealed


def open_answer(seal: Seal, context: str, stored: dict, public: dict) -> dict:
    """The answer a judge reads in a kit: the public facts, and what the kit keeps as sealed
    objects; what it does not keep is ``WITHHELD``."""
    answer = dict(public)
    for field in ("value", "action"):
        answer[field] = (open_value(seal, f"{context}/{field}", stored[field],
                                    move=field == "action")
                         if field in stored else WITHHELD)
    answer["optimal_actions"] = (open_set(seal, f"{context}/optimal", stored["optimal_actions"])
                                 if "optimal_actions" in stored else WITHHELD)
    # every node the reference can visit lies within the tree (the root and its descendants)
    size = 1 + len(public.get("siblings", ()))
    answer["visits"] = (open_visits(seal, f"{context}/visits", stored["visits"], size)
                        if "visits" in stored else WITHHELD)
    if "extension" in public:
        answer["extension_visits"] = (
            open_count(seal, f"{context}/extension", stored["extension_visits"],
                       len(public["extension"]))
            if "extension_visits" in stored else WITHHELD)
    if "compared" in public:
        answer["compared"] = {**public["compared"], "alphabeta": (
            open_count(seal, f"{context}/compared", stored["compared"],
                       public["compared"]["minimax"]) if "compared" in stored else WITHHELD)}
        answer["table_saves"] = stored.get("table_saves", WITHHELD)
        answer["least_saving"] = WITHHELD
    if "iterations" in public:
        kept = stored.get("iterations") or [{} for _ in public["iterations"]]
        answer["iterations"] = [
            {**facts,
             "value": (open_value(seal, f"{context}/iteration{k}/value", own["value"])
                       if "value" in own else WITHHELD),
             "optimal_actions": (open_set(seal, f"{context}/iteration{k}/optimal",
                                          own["optimal_actions"])
                                 if "optimal_actions" in own else WITHHELD)}
            for k, (facts, own) in enumerate(zip(public["iterations"], kept))]
    if "values" in stored:
        answer["values"] = open_inner_values(seal, f"{context}/values", stored["values"],
                                             public["values"])
    return answer


def seal_variant(seal: Seal, context: str, variant: dict, same_as_reference) -> dict:
    """What a kit keeps of a faulty variant's answer: enough to tell whether a student behaves
    like it (``mistakes.behaves_alike``: value, action, reply, the whole visit sequence) and,
    answered when the kit is made, whether it behaves like the reference
    (``same_as_reference(variant)``)."""
    sealed = {key: variant[key] for key in ("error", "alternative", "returns_value",
                                            "returns_action") if key in variant}
    if "error" not in variant:
        sealed["same_as_reference"] = same_as_reference(variant)
        for field in ("value", "action", "returned"):
            if field in variant:
                sealed[field] = seal_value(seal, f"{context}/{field}", variant[field],
                                           move=field == "action")
        if "visits" in variant:
            sealed["visits"] = seal_visits(seal, f"{context}/visits", variant["visits"],
                                           ("full",))
    if variant.get("alternatives"):
        sealed["alternatives"] = [seal_variant(seal, f"{context}/alternative{k}", other,
                                               same_as_reference)
                                  for k, other in enumerate(variant["alternatives"])]
    return sealed


def open_variant(seal: Seal, context: str, stored: dict) -> dict:
    variant = {key: stored[key] for key in ("error", "alternative", "returns_value",
                                            "returns_action", "same_as_reference")
               if key in stored}
    for field in ("value", "action", "returned"):
        if field in stored:
            variant[field] = open_value(seal, f"{context}/{field}", stored[field],
                                        move=field == "action")
    if "visits" in stored:
        variant["visits"] = open_visits(seal, f"{context}/visits", stored["visits"], 0)
    if "alternatives" in stored:
        variant["alternatives"] = [open_variant(seal, f"{context}/alternative{k}", other)
                                   for k, other in enumerate(stored["alternatives"])]
    return variant
