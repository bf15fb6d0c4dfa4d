"""A self-check kit: what an instructor hands students so that they can check their work
before handing it in, without being handed the model solutions or the hidden checks.

``grader kit --tasks PATH --out DIR`` writes into DIR:

* ``kit.json``: the course as the grader reads it, cut to its *visible* checks (tasks with
  none are left out, and so is every pinned answer), and how many checks are left out;
  ``kit-answers.json.gz``: the reference's answers to exactly the calls those checks make;
  ``kit-variants.json.gz``: the answers of the mistake catalogue's faulty variants to the
  same calls (so that the feedback still names a classic mistake); ``kit-small-trees.json.gz``:
  see below.  The last two are read only when a check fails.  The answers are gzipped JSON:
  their visit lists repeat node names over and over and shrink to about a tenth (a course
  with Kalah searched to the end took 20 MB as plain JSON).
  No hidden input and no hidden answer is in it: it is built from the plan of the visible
  checks only.  Random-tree checks keep their seeded trees; their feedback shows the
  smallest failing one, since there is no reference to shrink a counterexample against.
* a wheel of the grader *without* ``reference/`` (``grader.wheel``), which is all a student
  installs;
* ``check.py``, the kit's own entry point: ``python3 check.py [FOLDER]`` runs ``grader check
  --kit`` with the installed grader or, where there is none, with the kit's wheel installed
  into a virtual environment in the grader's cache folder (made on first use).

``grader check --kit DIR [FOLDER]`` gives the same feedback as ``grader check`` on the visible
checks (apart from shrinking).  Nothing in this module imports ``reference``, except
``build_kit``, through the answer book it is given.
"""

from __future__ import annotations

import datetime
import gzip
import os
from dataclasses import dataclass, replace
from pathlib import Path

from . import __version__
from .answers.cache import AnswerCache
from .cache import decode, dumps
from .answers.public import public_facts
from .answers.sealed import Seal, open_answer, open_variant, seal_answer, seal_variant
from .tasks import Check, Course, Limits, Provided, Task

FORMAT = "gametree-grader kit 3"
SALT_BYTES = 16
# Options of a check that pin the reference's answer (grader validate compares them): a kit
# leaves them out, as it leaves out the tasks' pins.
PINS = ("expect",)
KIT_FILE = "kit.json"
ANSWERS_FILE = "kit-answers.json.gz"
# Read only when a check fails: the mistake catalogue's answers, and the small trees.
VARIANTS_FILE, SMALL_FILE = "kit-variants.json.gz", "kit-small-trees.json.gz"
# Small trees per random-tree check and horizon, with their answers: where the grader shrinks
# a failing tree with the reference, a kit runs these and shows the smallest that fails the
# same way (half with small values, half with the check's own range).
SMALL_TREES = 300
ENTRY = "check.py"


class KitError(Exception):
    """A folder that is not a usable kit: says what to do."""


# -- the course, cut to its visible checks --------------------------------------------------

def visible_course(course: Course) -> tuple[Course, int]:
    """The course with only its visible checks (tasks without one left out, pins dropped, the
    checks' pinned answers too, task files named without the instructor's folders), and how
    many checks were left out (the hidden ones, and those whose judge needs the model
    solutions: ``JUDGED_WITH_REFERENCE``)."""
    from .checks import KINDS
    tasks, hidden = [], 0
    for task in course.tasks:
        # a check judged with the model solutions runs only at hand-in, like a hidden one;
        # a pinned answer (an evaluate check's expect:) is an answer, and stays out
        shown = tuple(replace(c, file=Path(c.file).name,
                              options=tuple(o for o in c.options if o[0] not in PINS))
                      for c in task.checks
                      if c.visibility == "visible"
                      and not getattr(KINDS[c.kind], "JUDGED_WITH_REFERENCE", False))
        hidden += len(task.checks) - len(shown)
        if shown:
            tasks.append(replace(task, checks=shown, pins=(), file=Path(task.file).name))
    return Course(course.title, course.language,
                  tuple(Path(file).name for file in course.files), tuple(tasks),
                  course.packages, provided=course.provided,
                  provided_wins=course.provided_wins), hidden


def course_to_json(course: Course) -> dict:
    """The course as data that ``grader.cache.dumps`` stores exactly (tuples stay tuples)."""
    return {"title": course.title, "language": course.language, "files": list(course.files),
            "packages": list(course.packages),
            # the modules the course ships to every submission (provides:), whole
            "provided": [[m.name, m.source, m.written] for m in course.provided],
            "provided_wins": course.provided_wins,
            "tasks": [_task_to_json(task) for task in course.tasks]}


def _task_to_json(task: Task) -> dict:
    data = {name: value for name, value in task.__dict__.items()
            if name not in ("checks", "limits", "due", "pins")}
    data["limits"] = task.limits.__dict__
    data["due"] = task.due.isoformat() if task.due is not None else None
    data["checks"] = [dict(check.__dict__) for check in task.checks]
    return data


def course_from_json(data: dict) -> Course:
    tasks = []
    for raw in data["tasks"]:
        raw = dict(raw)
        checks = tuple(Check(**check) for check in raw.pop("checks"))
        due = raw.pop("due")
        tasks.append(Task(**{**raw, "checks": checks, "pins": (),
                             "limits": Limits(**raw.pop("limits")),
                             "due": datetime.datetime.fromisoformat(due) if due else None}))
    provided = tuple(Provided(name, source, written, written, KIT_FILE, 0)
                     for name, source, written in data.get("provided", ()))
    return Course(data["title"], data["language"], tuple(data["files"]), tuple(tasks),
                  tuple(data["packages"]), provided=provided,
                  provided_wins=data.get("provided_wins", True))


# -- the answers ----------------------------------------------------------------------------

class KitAnswers:
    """The answer book of a kit: the reference's answers and the variants' answers to the
    visible checks' calls, sealed (``grader.answers.sealed``), with the facts that follow from the
    inputs computed when asked (``answers.public.public_facts``); a call the kit does not hold is a
    ``KitError`` (a kit made for other task files), never a computation with a model
    solution."""

    shrinks = False    # no reference to answer the smaller trees a shrink would try
    sealed = True      # its verdicts' words withhold the reference's side

    def __init__(self, seal: Seal, answers: dict | None, mistakes: dict, variants=None,
                 small=None, folder: Path | None = None):
        self._seal = seal
        self._mistakes = mistakes      # model solution -> its catalogue's mistakes
        # digest of the call's key -> sealed answers (reference, variants); check id -> small
        # trees
        self._loaded = {ANSWERS_FILE: answers, VARIANTS_FILE: variants, SMALL_FILE: small}
        self._folder = folder          # where the files not given are read from
        self._opened: dict = {}        # call key -> opened answers (the same object each time)

    @property
    def _answers(self) -> dict:
        return self._part(ANSWERS_FILE)

    def _part(self, name: str) -> dict:
        """``kit-answers.json.gz`` (digest -> sealed answers), ``kit-variants.json.gz`` (digest
        -> {mistake: sealed answers}) or ``kit-small-trees.json.gz`` (check id -> [[horizon,
        items, sealed answers], ...]), read on first use: a check that passes needs no
        variants."""
        if self._loaded[name] is None:
            try:
                self._loaded[name] = decode(gzip.decompress((self._folder / name).read_bytes()))
            except (OSError, EOFError, TypeError, ValueError) as error:
                raise KitError(f"{name} of the kit cannot be read ({error}); ask for a new "
                               "kit") from None
        return self._loaded[name]

    def __getitem__(self, call) -> list[dict]:
        key = call.key()
        if key not in self._opened:
            digest = AnswerCache.digest(key)
            try:
                stored = self._answers[digest]
            except KeyError:
                raise KitError(f"the kit holds no answer for {call.function} in "
                               f"{call.module}.py: it was made for other task files or another "
                               "grader version; ask for a new kit") from None
            self._opened[key] = open_answers(self._seal, digest, call, stored)
        return self._opened[key]

    def variant(self, call, mistake: str) -> list[dict]:
        digest = AnswerCache.digest(call.key())
        stored = self._part(VARIANTS_FILE).get(digest, {}).get(mistake)
        if not stored:
            return [{"error": "not in kit"} for _ in call.items]
        return [open_variant(self._seal, f"{digest}:{index}:{mistake}", answer)
                for index, answer in enumerate(stored)]

    def mistakes_of(self, reference: str) -> tuple:
        return tuple(self._mistakes.get(reference, ()))

    def small_trees(self, check_id: str, horizon, call=None) -> tuple | None:
        """``(items, answers)``: the kit's small trees for a random-tree check searched with
        ``horizon``, smallest first (None if the kit has none); ``call``: the check's call
        for that horizon (the small trees' answers are opened as its)."""
        for known, items, answers in self._part(SMALL_FILE).get(check_id, ()):
            if known == horizon:
                items = tuple(items)
                small_call = replace(call, items=items)
                return items, open_answers(self._seal, small_context(check_id, horizon),
                                           small_call, answers)
        return None

    def save(self) -> None:
        """Nothing to store: a kit's answers are fixed."""


def open_answers(seal: Seal, context: str, call, stored: list) -> list[dict]:
    """A call's sealed answers as its judges read them (``sealed.open_answer``)."""
    if call.convention == "plain":
        # one context for all inputs: equal values, equal digests (an evaluate check asks
        # whether the reference tells its positions apart)
        return [open_answer(seal, context, answer, {}) for answer in stored]
    return [open_answer(seal, f"{context}:{index}", answer, public)
            for index, (answer, public) in enumerate(zip(stored, public_facts(call)))]


def seal_answers(seal: Seal, context: str, call, answers: list, parts) -> list[dict]:
    if call.convention == "plain":
        return [seal_answer(seal, context, answer, parts) for answer in answers]
    return [seal_answer(seal, f"{context}:{index}", answer, parts)
            for index, answer in enumerate(answers)]


def small_context(check_id: str, horizon) -> str:
    return f"small:{check_id}:{horizon}"


@dataclass(frozen=True)
class Kit:
    course: Course
    answers: KitAnswers
    hidden: int            # checks of the full course that the kit leaves out
    folder: Path


def sealed_parts(kinds) -> set:
    """What a kit keeps of the answers of a call that checks of ``kinds`` judge."""
    from .checks import KINDS
    parts = set()
    for kind in kinds:
        if not hasattr(KINDS[kind], "SEALED_PARTS"):
            raise KitError(f"checks of kind {kind} cannot be judged in a kit: the kind says "
                           "nothing of what a kit keeps of its answers (SEALED_PARTS)")
        parts.update(KINDS[kind].SEALED_PARTS)
    return parts


def kit_data(course: Course, book, salt: bytes | None = None) -> dict:
    """Everything a kit holds, by file name, computed with the reference (``book``: an
    ``AnswerBook``) for the visible checks' calls only, and sealed with ``salt`` (random
    unless given: two kits of one course share no digest)."""
    from .grading import Plan
    from .mistakes import same_as_reference
    from .checks.random_trees import SEALED_PARTS as TREE_PARTS
    salt = salt if salt is not None else os.urandom(SALT_BYTES)
    seal = Seal(salt)
    shown, hidden = visible_course(course)
    plan = Plan.of(shown, only_visible=True)
    kinds_of: dict = {}
    for check in plan.checks:
        for call in plan.calls_of[check.id]:
            kinds_of.setdefault(call.key(), set()).add(check.kind)
    answers, variants, mistakes = {}, {}, {}
    for call in plan.calls:
        digest = AnswerCache.digest(call.key())
        reference = book[call]
        answers[digest] = seal_answers(seal, digest, call, reference,
                                       sealed_parts(kinds_of[call.key()]))
        if call.convention == "plain":
            continue
        catalogue = book.mistakes_of(call.reference)
        if catalogue:
            mistakes[call.reference] = list(catalogue)
            variants[digest] = {
                mistake: [seal_variant(seal, f"{digest}:{index}:{mistake}", answer,
                                       lambda variant, ref=ref: same_as_reference(variant, ref))
                          for index, (answer, ref) in enumerate(zip(book.variant(call, mistake),
                                                                    reference))]
                for mistake in catalogue}
    small = {check.id: [[horizon, list(call.items),
                         seal_answers(seal, small_context(check.id, horizon), call, book[call],
                                      TREE_PARTS)]
                        for horizon, call in _small_tree_calls(check, plan)]
             for check in plan.checks if check.kind == "random-trees"}
    return {KIT_FILE: {"format": FORMAT, "grader": __version__, "hidden": hidden,
                       "salt": salt.hex(), "course": course_to_json(shown),
                       "mistakes": mistakes},
            ANSWERS_FILE: answers, VARIANTS_FILE: variants, SMALL_FILE: small}


def _small_tree_calls(check, plan):
    """``(horizon, call)`` per horizon of a random-tree check: the check's call with small
    trees of its kind as items, smallest first."""
    from .calls import canonical
    from .checks.random_trees import call_for_horizon, shape_of
    from .random_tree_generator import generate, size
    shape = shape_of(check)
    small = replace(shape, branching=(min(shape.branching[0], 3), min(shape.branching[1], 3)),
                    depth=(min(shape.depth[0], 3), min(shape.depth[1], 3)))
    low, high = shape.values
    tiny = replace(small, values=(max(low, -9), min(high, 9))) if low <= 9 and high >= -9 \
        else small
    seed = check.option("seed")
    trees = {canonical(tree): tree for tree in generate(seed + 1, SMALL_TREES // 2, tiny)
             + generate(seed + 2, SMALL_TREES // 2, small)}
    items = tuple(sorted(trees, key=lambda text: (size(trees[text]), text)))
    calls = plan.calls_of[check.id]
    for horizon in sorted({call.args[0] if call.args else None for call in calls},
                          key=lambda h: (h is not None, h or 0)):
        yield horizon, replace(call_for_horizon(check, calls, horizon), items=items)


def build_kit(course: Course, book, out: Path, wheel: bool = True,
              salt: bytes | None = None) -> list[Path]:
    """Write the kit into ``out`` (created); the files written.  ``salt``: the seal's (random
    unless given; with the same salt the same course gives the same bytes)."""
    from .report.files import write_atomically
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in kit_data(course, book, salt).items():
        text = dumps(data) + "\n"
        # mtime 0: the same course gives the same bytes
        write_atomically(out / name, gzip.compress(text.encode(), mtime=0)
                         if name.endswith(".gz") else text)
        written.append(out / name)
    write_atomically(out / ENTRY, _entry_script(course))
    (out / ENTRY).chmod((out / ENTRY).stat().st_mode | 0o111)
    written.append(out / ENTRY)
    if wheel:
        from .wheel import build_wheel
        for old in out.glob("*.whl"):
            old.unlink()
        written.append(build_wheel(out, with_reference=False))
    return written


def _entry_script(course: Course) -> str:
    """check.py, with its few messages in both languages (the course's unless the student
    passes --lang): placeholders stay ``{folder}`` etc. for the script's ``str.format``."""
    from .report.messages import Catalogue
    from .report.templating import TEMPLATES
    placeholders = {name: "{" + name + "}" for name in ("folder", "wheel", "error", "code")}
    texts = {language: {key: Catalogue(language).text(f"kit.{key}", **placeholders)
                        for key in ("installing", "no_venv", "install_failed")}
             for language in ("de", "en")}
    return TEMPLATES.get_template("kit_check.py.j2").render(
        version=__version__, language=course.language, texts=texts)


def load_kit(folder: Path | str) -> Kit:
    """The kit in ``folder``; a ``KitError`` saying what to do when it is not one."""
    folder = Path(folder)
    path = folder / KIT_FILE if folder.is_dir() else folder
    try:
        data = decode(path.read_bytes())
    except FileNotFoundError:
        raise KitError(f"{folder}: no {KIT_FILE} here; pass the folder of the self-check kit "
                       "your instructor handed out") from None
    except (OSError, ValueError) as error:
        raise KitError(f"{path}: not a readable kit ({error}); ask for a new kit") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise KitError(f"{path}: not a kit of this grader ({FORMAT}); ask for a new kit")
    if data.get("grader") != __version__:
        raise KitError(f"{path}: made for grader {data.get('grader')}, this is "
                       f"{__version__}; install the wheel that came with the kit")
    try:
        course = course_from_json(data["course"])
        seal = Seal(bytes.fromhex(data["salt"]))
    except (KeyError, TypeError, ValueError) as error:
        raise KitError(f"{path}: its course cannot be read ({error}); ask for a new kit") \
            from None
    return Kit(course, KitAnswers(seal, None, data["mistakes"], folder=path.parent),
               int(data["hidden"]), path.parent)
