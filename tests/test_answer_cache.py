"""The answer cache: what it loads equals what the reference computes, in value and type; a
file it cannot vouch for is ignored; its key follows every input of the answers; and
grading never depends on it."""

from __future__ import annotations

import ast
import hashlib
import json
import math
import re
import shutil
from pathlib import Path

import pytest

import grader.answers.book
from grader.answers import cache as answers_cache
from grader.answers.cache import AnswerCache, course_key
from grader.cache import cache_dir, decode, dumps
from grader.answers.book import AnswerBook
from grader.batch import prepare
from grader.cli import main
from grader.grading import Plan
from grader.tasks import TaskFileError, load_course

from conftest import DATA, ROOT


@pytest.fixture(autouse=True)
def cache_folder(tmp_path, monkeypatch):
    """Every test here gets a cache folder of its own."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("GRADER_CACHE_DIR", str(folder))
    monkeypatch.delenv("GRADER_NO_CACHE", raising=False)
    return folder


def same_in_type_and_value(loaded, computed, where="answer"):
    """Equal, and of exactly the same type at every level (dict keys included)."""
    assert type(loaded) is type(computed), f"{where}: {type(loaded)} != {type(computed)}"
    if isinstance(computed, float) and math.isnan(computed):
        assert math.isnan(loaded), where
        return
    if isinstance(computed, dict):
        assert list(loaded) == list(computed), f"{where}: keys or their order differ"
        for (key, value), (computed_key, computed_value) in zip(loaded.items(), computed.items()):
            same_in_type_and_value(key, computed_key, f"{where} key {computed_key!r}")
            same_in_type_and_value(value, computed_value, f"{where}[{computed_key!r}]")
        return
    if isinstance(computed, (list, tuple)):
        assert len(loaded) == len(computed), f"{where}: length"
        for index, (item, computed_item) in enumerate(zip(loaded, computed)):
            same_in_type_and_value(item, computed_item, f"{where}[{index}]")
        return
    assert loaded == computed, where


def every_course(tmp_path) -> list:
    """The bundled course, every task file under tests/ that is one, and the Pacman trees
    imported with ``grader import-trees``."""
    courses = [load_course(ROOT / "tasks")]
    for file in sorted(DATA.rglob("*.yaml")):
        try:
            courses.append(load_course(file))
        except TaskFileError:
            continue   # the malformed ones of tests/data/bad, and the stand-ins' name list
    imported = tmp_path / "imported.yaml"
    assert main(["import-trees", str(DATA / "pacman-trees"), "--out", str(imported)]) == 0
    courses.append(load_course(imported))
    return courses


def test_every_loaded_answer_equals_the_computed_one_in_type_and_value(tmp_path, monkeypatch):
    courses = every_course(tmp_path)
    assert len(courses) >= 9

    def no_computing(call):
        raise AssertionError(f"computed although cached: {call.function}")
    # Course by course: the cache keeps the newest KEEP_FILES courses' answers, and there
    # are more courses than that under tests/data.
    for course in courses:
        plan, book = prepare(course, answers=AnswerBook.for_course(course))
        computed = {call.key(): book[call] for call in plan.calls}
        with monkeypatch.context() as patched:
            patched.setattr(grader.answers.book, "answer_call", no_computing)
            loaded = AnswerBook.for_course(course)
            for call in plan.calls:
                same_in_type_and_value(loaded[call], computed[call.key()],
                                       f"{course.files} {call.function}")


def test_the_variants_answers_are_kept_in_a_file_of_their_own_and_come_back_as_computed(
        cache_folder, monkeypatch):
    """The mistake catalogue's faulty variants (what a failed check and a kit compare with)
    are kept beside the reference's answers, in a file of their own that a self-check whose
    checks all pass never reads; loaded, they equal the computed ones in type and value.
    The bundled course's are computed first by a book of the process without a cache (as in
    a batch before a kit): the process shares them, and the cache keeps them all the same."""
    import grader.mistakes
    for tasks in ("tasks", "courses/vorlesung/tasks"):
        course = load_course(ROOT / tasks)
        plan, book = prepare(course, answers=AnswerBook.for_course(course))
        asked = [(call, mistake) for call in plan.calls if getattr(call, "reference", None)
                 for mistake in book.mistakes_of(call.reference)][:40]
        assert len(asked) >= 20
        if tasks == "tasks":
            uncached = AnswerBook()
            for call, mistake in asked:
                uncached.variant(call, mistake)
        computed = [book.variant(call, mistake) for call, mistake in asked]
        book.save()
        cache = AnswerCache.for_course(course)
        assert cache.variants().path.is_file() and cache.variants().path != cache.path
        assert len(cache.load()) == len(plan.calls), "the answers' file holds answers only"
        with monkeypatch.context() as patched:
            grader.answers.book._VARIANTS_OF_PROCESS.clear()
            patched.setattr(grader.mistakes, "variant_answers", lambda call, mistake: (
                pytest.fail(f"computed although cached: {call.function} {mistake}")))
            loaded = AnswerBook.for_course(course)
            for call in plan.calls:
                loaded[call]
            assert loaded._stored_variants is None, "answers alone do not read the variants"
            for (call, mistake), answers in zip(asked, computed):
                same_in_type_and_value(loaded.variant(call, mistake), answers,
                                       f"{call.function} {mistake}")


def test_the_encoding_keeps_what_json_cannot_say():
    value = {"tuple": (1, "a", (2.5, None)), "int keys": {1: "one", -2: [3]},
             "tuple keys": {("A", 1): True}, "$": "a dollar key", "floats": [1.0, -0.0, 1e300],
             "non-finite": [math.inf, -math.inf, math.nan], "ints": [1, 10**18, -7],
             "nested": [[{"$": {"v": ()}}]], "empty": [{}, [], ()], "text": "ä\n\"$\""}
    same_in_type_and_value(decode(dumps(value)), value)


def test_the_answers_file_reads_back_what_was_written_in_type_and_value():
    """The file's text is written by msgspec's encoder and read by json's: every number comes
    back as the same int or float (the edges of floats and ints too), every text as it was."""
    import random
    draw = random.Random(28)
    value = {"tuple": (1, "a", (2.5, None)), "int keys": {1: "one"}, "$": "dollar",
             "floats": [1.0, -0.0, 1e300, 1e16, 5e-324, 0.1, 2.0 ** 60, -1.5e-7]
             + [draw.uniform(-1e9, 1e9) for _ in range(200)]
             + [draw.random() * 10.0 ** draw.randint(-300, 300) for _ in range(200)],
             "ints": [10**40, -(10**40), 2**64, -(2**63) - 1, 0], "non-finite": [math.inf],
             "text": "ä\u2028\x00\"$\\ \U0001f600", "bools": [True, False, None]}
    written = answers_cache.encoded({"digest": [value]})
    same_in_type_and_value(decode(written), {"digest": [value]})


@pytest.mark.parametrize("value", [{"a set": {1, 2}}, [type("Tagged", (str,), {})("A")],
                                   {"bytes": b"x"}])
def test_a_value_it_cannot_bring_back_exactly_is_not_stored(cache_folder, value):
    cache = AnswerCache(cache_folder, "k" * 64)
    assert cache.save({"digest": [{"value": value}]}) is False
    assert not cache.path.exists()


@pytest.mark.parametrize("text", ['{"$": "tuple"}', '{"$": "tuple", "v": 1}',
                                  '{"$": "float", "v": "1e999"}', '{"$": "code", "v": "x"}',
                                  '{"$": "dict", "v": [[[1], 2]]}', '[NaN]', '[Infinity]',
                                  '{"$": "dict", "v": [[1, 2, 3]]}'])
def test_malformed_tagged_values_are_refused(text):
    with pytest.raises((ValueError, TypeError)):
        decode(text)


def saved_cache(course) -> AnswerCache:
    prepare(course, only_visible=True, answers=AnswerBook.for_course(course))
    cache = AnswerCache.for_course(course)
    assert cache.path.exists() and cache.load()
    return cache


@pytest.fixture(scope="module")
def computed_once(course, tmp_path_factory):
    """The bundled course's visible answers, computed once for this module: the bytes of the
    cache file that computing them saves, the plan and the answers.  The tests that spoil a
    cache file start from a copy of these bytes (the same file, made once instead of once
    per test) and compare what is computed again with these answers."""
    with pytest.MonkeyPatch.context() as patched:
        patched.setenv("GRADER_CACHE_DIR", str(tmp_path_factory.mktemp("computed-once")))
        patched.delenv("GRADER_NO_CACHE", raising=False)
        saved = saved_cache(course).path.read_bytes()
    plan, answers = prepare(course, only_visible=True)
    return saved, plan, answers


def copied_cache(course, computed_once) -> AnswerCache:
    """The course's cache file in this test's cache folder: the one ``computed_once`` saved,
    written as the cache writes its files (``keep``: mode 0600, in a private folder)."""
    from grader.cache import keep
    cache = AnswerCache.for_course(course)
    cache.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    assert keep(cache.path, computed_once[0])
    assert cache.load(), "the copied file is trusted as the saved one was"
    return cache


def replace_header(field, value):
    def edit(data: bytes) -> bytes:
        header, _, payload = data.partition(b"\n")
        meta = json.loads(header)
        meta[field] = value
        return json.dumps(meta).encode() + b"\n" + payload
    return edit


def edit_answer(data: bytes) -> bytes:
    """A value changed by hand, the digest left as it was."""
    header, _, payload = data.partition(b"\n")
    payload = re.sub(rb'"value":(-?\d+)', lambda m: b'"value":%d' % (int(m[1]) + 1), payload,
                     count=1)
    return header + b"\n" + payload


SPOILED = {
    "truncated": lambda data: data[:len(data) // 2],
    "garbage": lambda data: b"\x00\xff not json",
    "empty": lambda data: b"",
    "header only": lambda data: data.partition(b"\n")[0],
    "older format": replace_header("format", "gametree-grader answers 0"),
    "hash edited by hand": replace_header("key", "0" * 64),
    "digest edited by hand": replace_header("digest", "0" * 64),
    "answer edited by hand": edit_answer,
}


@pytest.mark.parametrize("spoil", SPOILED.values(), ids=SPOILED.keys())
def test_a_spoiled_cache_file_is_ignored_and_the_answers_computed_again(course, spoil,
                                                                        computed_once):
    cache = copied_cache(course, computed_once)
    good = cache.path.read_bytes()
    spoiled = spoil(good)
    assert spoiled != good
    cache.path.write_bytes(spoiled)
    assert cache.load() == {}
    plan, book = prepare(course, only_visible=True, answers=AnswerBook.for_course(course))
    _, _, fresh = computed_once
    for call in plan.calls:
        same_in_type_and_value(book[call], fresh[call])
    assert cache.load(), "the recomputed answers were stored again"


def test_a_wrong_shape_with_a_matching_digest_is_ignored(course, computed_once):
    cache = copied_cache(course, computed_once)
    payload = b'{"abc": [1, 2]}'
    header = json.dumps({"format": answers_cache.FORMAT, "key": cache.key,
                         "digest": hashlib.sha256(payload).hexdigest()})
    cache.path.write_bytes(header.encode() + b"\n" + payload)
    assert cache.load() == {}


def test_a_file_others_may_write_is_not_trusted(course):
    cache = saved_cache(course)
    assert cache.path.stat().st_mode & 0o777 == 0o600
    cache.path.chmod(0o620)
    assert cache.load() == {}


def test_the_key_follows_the_task_files(tmp_path):
    copy = tmp_path / "blatt3.yaml"
    shutil.copyfile(ROOT / "tasks" / "blatt3.yaml", copy)
    before = course_key(load_course(copy))
    copy.write_text(copy.read_text() + "\n# a comment changes no answer, but the file\n")
    assert course_key(load_course(copy)) != before


def answered_then_edited(tmp_path, old: str, new: str):
    """The bundled course's visible answers computed and kept, then its task file edited
    (``old`` -> ``new``) in place, as an instructor edits it: ``(before, after)``."""
    copy = tmp_path / "edited" / "blatt3.yaml"
    copy.parent.mkdir()
    text = (ROOT / "tasks" / "blatt3.yaml").read_text()
    assert old in text
    copy.write_text(text)
    before = load_course(copy)
    prepare(before, only_visible=True, answers=AnswerBook.for_course(before))
    kept = AnswerCache.for_course(before)
    assert kept.load()
    copy.write_text(text.replace(old, new, 1))
    after = load_course(copy)
    assert course_key(after) != kept.key
    return kept, after


def computing_counted(monkeypatch) -> list:
    """The functions whose reference answers are computed from now on, in order."""
    computed, compute = [], grader.answers.book.answer_call
    monkeypatch.setattr(grader.answers.book, "answer_call",
                        lambda call: computed.append(call.function) or compute(call))
    return computed


def test_an_edited_task_file_takes_the_unchanged_calls_answers_from_its_earlier_version(
        tmp_path, monkeypatch):
    """Its key changes, so its own file is not found; the answers of the calls the edit left
    alone come from the earlier version's file, the others (the random-tree check whose seed
    changed) are computed; each equals what the reference computes, in type and value."""
    kept, after = answered_then_edited(tmp_path, "seed: 2026,", "seed: 2027,")
    plan = Plan.of(after, only_visible=True)      # the calls, none of their answers computed
    earlier = kept.load()                         # read and checked once, not once per call
    changed = [call for call in plan.calls if AnswerCache.digest(call.key()) not in earlier]
    assert changed and len(changed) < len(plan.calls)
    with monkeypatch.context() as patched:
        computed = computing_counted(patched)
        plan, book = prepare(after, only_visible=True, answers=AnswerBook.for_course(after))
    assert computed == [call.function for call in changed]
    fresh = AnswerBook()
    for call in plan.calls:
        same_in_type_and_value(book[call], fresh[call], call.function)
    assert len(AnswerCache.for_course(after).load()) == len(plan.calls), \
        "the edited version's file holds all its answers"


def test_a_file_computed_with_other_sources_lends_no_answers(tmp_path, monkeypatch):
    """An earlier version's file of other answer sources (a grader upgrade) is no lineage of
    the edited course: every answer is computed."""
    _, after = answered_then_edited(tmp_path, "seed: 2026,", "seed: 2027,")
    monkeypatch.setattr(answers_cache, "sources_digest", lambda: "0" * 64)
    computed = computing_counted(monkeypatch)
    plan, _ = prepare(after, only_visible=True, answers=AnswerBook.for_course(after))
    assert len(computed) == len(plan.calls)


def copied_sources(tmp_path, monkeypatch) -> dict:
    roots = {name: tmp_path / "src" / name for name in answers_cache.PACKAGES}
    shutil.copytree(ROOT / "grader", roots["grader"],
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "reference", roots["reference"],
                    ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(answers_cache, "_package_dirs", lambda: roots)
    return roots


@pytest.mark.parametrize("source, changes_the_key", [
    ("reference/minimax.py", True), ("reference/evaluation.py", True),
    ("grader/answers/search.py", True), ("grader/games/tree.py", True),
    ("grader/random_tree_generator.py", True), ("grader/calls.py", True),
    ("grader/report/writers.py", False), ("grader/cli/grade.py", False),
])
def test_the_key_follows_the_sources_the_answers_are_computed_with(
        tmp_path, monkeypatch, course, source, changes_the_key):
    roots = copied_sources(tmp_path, monkeypatch)
    before = course_key(course)
    package, _, rest = source.partition("/")
    path = roots[package] / rest
    path.write_text(path.read_text() + "\n# edited\n")
    assert (course_key(course) != before) is changes_the_key


def test_the_sources_digest_is_kept_by_their_metadata_and_found_again(
        tmp_path, monkeypatch, course):
    """Finding the answer sources means scanning some 80 files: their digest is kept under a
    fingerprint of the files' metadata, read back while nothing changed, and made afresh
    after any edit."""
    roots = copied_sources(tmp_path, monkeypatch)
    monkeypatch.setattr(answers_cache, "RACY_SECONDS", -3600.0)   # the copies count as old
    computed = answers_cache._sources_digest_computed()
    before = course_key(course)
    kept = list((tmp_path / "cache" / answers_cache.SOURCES).iterdir())
    assert len(kept) == 1 and computed in kept[0].read_text()

    def no_scanning():
        raise AssertionError("scanned again")
    scanning = answers_cache.answer_sources
    monkeypatch.setattr(answers_cache, "answer_sources", no_scanning)
    assert answers_cache.sources_digest() == computed and course_key(course) == before
    monkeypatch.setattr(answers_cache, "answer_sources", scanning)
    # An edit of the same size: the change time tells.
    search = roots["reference"] / "minimax.py"
    text = search.read_text()
    search.write_text(text.replace("def ", "def_", 1).replace("def_", "def ", 1)
                      .replace("return", "retUrn", 1))
    assert answers_cache.sources_digest() != computed
    search.write_text(text)
    assert answers_cache.sources_digest() == computed
    # A kept digest others could have written is not read.
    fresh = answers_cache.sources_digest()
    for planted in (tmp_path / "cache" / answers_cache.SOURCES).iterdir():
        planted.write_text(planted.read_text().replace(fresh, "0" * 64))
        planted.chmod(0o666)
    assert answers_cache.sources_digest() == fresh


def test_a_new_install_of_the_same_sources_finds_their_digest_by_content(
        tmp_path, monkeypatch, course):
    """A CI runner installs the grader into a new virtual environment each run (new inodes
    and times) and keeps the cache folder: the digest is found by the files' contents
    without scanning them, and an edit of their contents is scanned again."""
    monkeypatch.setattr(answers_cache, "RACY_SECONDS", -3600.0)   # the copies count as old
    copied_sources(tmp_path / "first", monkeypatch)
    computed = answers_cache.sources_digest()
    roots = copied_sources(tmp_path / "second", monkeypatch)
    scanning = answers_cache.answer_sources
    with monkeypatch.context() as patched:
        patched.setattr(answers_cache, "answer_sources",
                        lambda: pytest.fail("scanned again"))
        assert answers_cache.sources_digest() == computed
    assert answers_cache.answer_sources is scanning
    search = roots["reference"] / "minimax.py"
    search.write_text(search.read_text().replace("return", "retUrn", 1))
    assert answers_cache.sources_digest() != computed


def test_sources_changed_just_now_are_not_kept(tmp_path, monkeypatch, course):
    copied_sources(tmp_path, monkeypatch)    # every copy is younger than RACY_SECONDS
    course_key(course)
    folder = tmp_path / "cache" / answers_cache.SOURCES
    assert not folder.exists() or not list(folder.iterdir())


def test_the_key_follows_the_python_version(course, monkeypatch):
    before = course_key(course)
    monkeypatch.setattr(answers_cache.sys, "version", "3.99.0 (a different build)")
    assert course_key(course) != before


def imports_by_ast(path: Path, module: str) -> set[str]:
    """The slow, exact way: every import statement of the parsed source."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - (node.level - 1)] \
                if node.level else []
            origin = ".".join(base + ([node.module] if node.module else []))
            names.add(origin)
            names.update(f"{origin}.{alias.name}" for alias in node.names)
    return names


def test_the_textual_import_scan_finds_what_the_parser_finds():
    roots = answers_cache._package_dirs()
    for path in answers_cache.answer_sources():
        package = "grader" if path.is_relative_to(roots["grader"]) else "reference"
        parts = path.relative_to(roots[package]).with_suffix("").parts
        module = ".".join((package, *(parts[:-1] if parts[-1] == "__init__" else parts)))
        found = answers_cache._imported_names(path.read_text(), module,
                                             path.name == "__init__.py")
        assert imports_by_ast(path, module) <= found, path


def test_the_answer_sources_are_grader_answers_and_what_it_imports():
    roots = answers_cache._package_dirs()
    sources = {p.relative_to(roots["grader"].parent).as_posix()
               for p in answers_cache.answer_sources()}
    assert {"grader/answers/compute.py", "grader/answers/search.py", "grader/games/tree.py",
            "grader/calls.py", "reference/minimax.py", "reference/evaluation.py"} <= sources
    assert not [path for path in sources if path.startswith("grader/cli/")]
    assert "grader/report/writers.py" not in sources


def test_an_unwritable_cache_folder_is_skipped_in_silence(tmp_path, monkeypatch, course):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("GRADER_CACHE_DIR", str(blocker / "cache"))
    plan, book = prepare(course, only_visible=True, answers=AnswerBook.for_course(course))
    assert book[plan.calls[0]]
    assert not (blocker / "cache").exists()


def test_the_cache_can_be_turned_off(course, cache_folder, monkeypatch):
    monkeypatch.setenv("GRADER_NO_CACHE", "1")
    prepare(course, only_visible=True, answers=AnswerBook.for_course(course))
    assert not cache_folder.exists()


def test_without_a_cache_folder_set_it_goes_to_the_xdg_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("GRADER_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "gametree-grader"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "gametree-grader"


@pytest.mark.parametrize("student", ["korrekt", "strikter-schnitt"])
def test_check_says_the_same_with_and_without_the_cache(tmp_path, capsys, cache_folder,
                                                        student):
    def check(*options):
        status = main(["check", str(ROOT / "submissions" / student), "--tasks",
                       str(ROOT / "tasks"), "--out", str(tmp_path / "out"), *options])
        feedback = re.sub(r"\d+\.\d+ s\b", "(time) s",   # how long it ran differs
                          (tmp_path / "out" / student / "feedback.md").read_text())
        return status, capsys.readouterr().out, feedback
    uncached = check("--no-cache")
    assert not cache_folder.exists(), "--no-cache stores nothing"
    cold = check()
    assert list(cache_folder.iterdir()), "the first check stored its answers"
    warm = check()
    assert uncached == cold == warm


def test_the_sandbox_mounts_no_folder_that_holds_the_cache(tmp_path, monkeypatch):
    """The hidden checks' answers are in the cache after ``grader grade``: no folder the
    bubblewrap child is shown may hold it (the default place, and the one set here)."""
    from grader.sandbox.base import ResourceLimits
    from grader.sandbox.launcher import command
    stage, submission = tmp_path / "stage", tmp_path / "submission"
    argv = command("bubblewrap", stage, stage / "child.py", submission, 3, 4,
                   ResourceLimits(), None)
    shown = [Path(argv[index + 1]).resolve() for index, flag in enumerate(argv)
             if flag in ("--bind", "--ro-bind", "--dev-bind", "--bind-try", "--ro-bind-try")]
    assert shown, "the command binds the system and the submission"
    places = [cache_dir()]
    monkeypatch.delenv("GRADER_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    places.append(cache_dir())
    for place in places:
        place = place.resolve()
        assert not [folder for folder in shown if place.is_relative_to(folder)], place
