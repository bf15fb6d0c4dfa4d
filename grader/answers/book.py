"""The answer book: the reference answers of every call of a course, computed once per task
(or read from the answer cache) and shared by every submission of a batch."""

from __future__ import annotations

import hashlib

from ..calls import Call
from .compute import answer_call


# A faulty variant's answers follow from the call and the mistake alone (the catalogue's code
# does not change while a process runs), and are the dearest thing a kit computes: the books
# of one process share them, e.g. two kits of one course, or a kit after a batch.  Bounded, so
# that a long-lived process does not keep every course's variants.
VARIANTS_KEPT = 1024
_VARIANTS_OF_PROCESS: dict[tuple, list[dict]] = {}


class AnswerBook:
    """Reference answers of every call of a course, computed on first use, then shared by the
    whole batch; also the answers of the catalogue's faulty variants (``variant``).

    With a ``cache`` (see ``grader.answers.cache``), answers stored by an earlier run are taken
    from it instead of computed, and ``save`` stores what this run computed.

    A self-check kit's book (``grader.kit.KitAnswers``) answers the same questions from
    precomputed answers, without the model solutions.
    """

    shrinks = True     # the reference can answer new inputs: counterexamples can be shrunk
    sealed = False     # its answers are plain (a kit's are sealed: grader.answers.sealed)

    def __init__(self, cache=None):
        self._answers: dict[str, list[dict]] = {}
        self._variants: dict[tuple, list[dict]] = {}
        self._cache = cache
        self._stored: dict[str, list[dict]] = cache.load() if cache is not None else {}
        self._computed = False       # something the cache does not hold yet
        # an earlier version's answers (AnswerCache.load_earlier), read when a call is first
        # not found in this key's file
        self._earlier: dict[str, list[dict]] | None = None
        # the variants' answers, in their own file, read when a variant is first asked for
        self._variant_cache = cache.variants() if cache is not None else None
        self._stored_variants: dict[str, list[dict]] | None = None
        self._new_variants: dict[str, list[dict]] = {}

    @classmethod
    def for_course(cls, course, use_cache: bool = True) -> "AnswerBook":
        """A book backed by the course's answer cache (unless ``use_cache`` is false or the
        cache is turned off)."""
        if not use_cache:
            return cls()
        from .cache import AnswerCache
        return cls(AnswerCache.for_course(course))

    def mistakes_of(self, reference: str) -> tuple:
        """The catalogue's mistakes of a model solution (none for one without variants)."""
        from reference.variants import MISTAKES_OF
        return tuple(MISTAKES_OF.get(reference, ()))

    def variant(self, call: Call, mistake: str) -> list[dict]:
        from ..mistakes import variant_answers
        key = (call.key(), mistake)
        if key not in self._variants:
            # filed by a digest: a random-tree call's key is some 300 kB of text
            shared = (hashlib.sha256(key[0].encode()).hexdigest(), mistake)
            filed = hashlib.sha256(f"{mistake}\0{shared[0]}".encode()).hexdigest()
            stored = self._stored_variant(filed)
            found = _VARIANTS_OF_PROCESS.get(shared, stored)
            if found is None:
                found = variant_answers(call, mistake)
            if shared not in _VARIANTS_OF_PROCESS:
                if len(_VARIANTS_OF_PROCESS) >= VARIANTS_KEPT:
                    _VARIANTS_OF_PROCESS.clear()
                _VARIANTS_OF_PROCESS[shared] = found
            if stored is None and self._variant_cache is not None:
                # computed here or by another book of this process: this cache keeps it too
                self._new_variants[filed] = found
            self._variants[key] = found
        return self._variants[key]

    def _stored_variant(self, filed: str) -> list[dict] | None:
        if self._variant_cache is None:
            return None
        if self._stored_variants is None:
            self._stored_variants = self._variant_cache.load()
        return self._stored_variants.get(filed)

    def __getitem__(self, call: Call) -> list[dict]:
        key = call.key()
        if key not in self._answers:
            stored = self._stored.get(self._cache.digest(key)) if self._stored else None
            if stored is None:
                stored = self._earlier_answer(key)
                if stored is None:
                    stored = answer_call(call)
                self._computed = True
            self._answers[key] = stored
        return self._answers[key]

    def _earlier_answer(self, key: str) -> list[dict] | None:
        """The answers of the call of ``key`` in the file of an earlier version of the
        course's task files (the same call, so the same answers: see ``grader.answers.cache``),
        or None."""
        if self._cache is None:
            return None
        if self._earlier is None:
            self._earlier = self._cache.load_earlier()
        return self._earlier.get(self._cache.digest(key))

    def save(self) -> None:
        """Store the answers computed so far in the cache (with those it held already), and
        the variants' in theirs; a cache that cannot be written is skipped: grading never
        depends on it."""
        if self._cache is None:
            return
        if self._computed:
            known = {**self._stored, **{self._cache.digest(key): answer
                                        for key, answer in self._answers.items()}}
            if self._cache.save(known):
                self._stored, self._computed = known, False
        if self._new_variants:
            # (a book asked for a variant has read the file: ``_stored_variant``)
            known = {**self._stored_variants, **self._new_variants}
            if self._variant_cache.save(known):
                self._stored_variants, self._new_variants = known, {}
