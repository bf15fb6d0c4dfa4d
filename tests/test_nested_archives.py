"""Archives inside archives: a correct submission packed twice is graded in full; nesting too
deep, a bomb one level down, and archives that only together pass the limits are refused with
the reason.  The archives are tests/data/archives/nested/ (README.md there)."""

import tracemalloc

import pytest

from grader.submissions import (MAX_ENTRIES, MAX_NESTING, UnpackStats, _arrange, find, stage,
                                unpack)

from conftest import DATA, ROOT

NESTED = DATA / "archives" / "nested"
MODULES = ("evaluation", "minimax")
CORRECT = {"Max Mustermann_123456_assignsubmission_file_", "anna.zip"}
# Each hostile submission and what its problem must say.
REFUSED = {
    "Bernd Bombe_200001_assignsubmission_file_":
        "abgabe.tar.gz > bombe.zip: the archive unpacks to more than 20 MiB in all",
    "Karla Kette_200002_assignsubmission_file_":
        f"kette.zip > ebene2.zip > ebene3.zip > ebene4.zip: archives inside archives more "
        f"than {MAX_NESTING} deep are not unpacked; hand in one archive that holds your .py "
        f"files",
    "Sven Selbst_200003_assignsubmission_file_":
        "selbst.zip > selbst.zip > selbst.zip > selbst.zip: archives inside archives more than",
    "Viola Viele_200004_assignsubmission_file_":
        f"viele.zip > viele2.zip > viele3.zip: the archive holds more than {MAX_ENTRIES} "
        f"members in all, with the archives inside it",
    "Simon Summe_200005_assignsubmission_file_":
        "summe.zip > summe2.zip > summe3.zip: the archive unpacks to more than 20 MiB in all",
}


@pytest.fixture(scope="module")
def submissions():
    return {submission.display: submission for submission in find(NESTED)}


def test_the_fixtures_are_the_ones_the_builder_makes():
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_nested",
                                                  DATA / "archives" / "make_nested.py")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    built = builder.build()
    on_disk = {str(path.relative_to(NESTED)): path.read_bytes()
               for path in NESTED.rglob("*") if path.is_file()}
    assert sorted(on_disk) == sorted(built)
    stale = [name for name, data in built.items() if on_disk[name] != data]
    assert stale == [], "rebuild with python tests/data/archives/make_nested.py"


@pytest.mark.parametrize("display", sorted(CORRECT))
def test_a_tar_gz_inside_a_zip_is_unpacked_and_staged_whole(submissions, tmp_path, display):
    staged = stage(submissions[display], tmp_path / "staged", MODULES)
    assert staged.problem is None
    for name in ("minimax.py", "evaluation.py"):
        assert (staged.folder / name).read_bytes() == \
            (ROOT / "submissions" / "korrekt" / name).read_bytes()
    notes = [(note.key, note.facts) for note in staged.notes]
    if display == "anna.zip":
        assert notes == [("inner-archive", {"archive": "code.tar.gz", "inside": "anna.zip"})]
    else:
        assert notes == [("inner-archive", {"archive": "abgabe.zip"}),
                         ("inner-archive", {"archive": "abgabe.tar.gz",
                                            "inside": "abgabe.zip"})]


@pytest.mark.parametrize("display", sorted(REFUSED))
def test_hostile_nested_archives_are_refused_with_the_reason(submissions, tmp_path, display):
    tracemalloc.start()
    try:
        staged = stage(submissions[display], tmp_path / "staged", MODULES)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert staged.problem is not None and staged.problem.startswith(REFUSED[display])
    assert list(staged.folder.iterdir()) == []      # nothing half-unpacked is graded
    assert peak < 16 << 20                          # the 512 MiB bomb is never inflated
    assert not any(tmp_path.glob(".unpack-*"))      # scratch folders are gone


def test_the_bomb_is_refused_from_its_header_without_inflating_a_byte(submissions, tmp_path):
    """Staged as the worker does, with the budget passed down: the inner zip's declared size
    is refused before its member is opened."""
    folder = tmp_path / "copy"
    budget = UnpackStats()
    root = unpack(NESTED / "Bernd Bombe_200001_assignsubmission_file_" / "abgabe.tar.gz",
                  folder / "abgabe", budget)
    assert (root / "bombe.zip").stat().st_size < 1 << 20
    before = budget.unpacked
    with pytest.raises(Exception, match="more than 20 MiB in all"):
        _arrange(root, MODULES, budget, ("abgabe.tar.gz",))
    assert budget.archives == 2 and budget.files == 2
    assert budget.unpacked - before == 512 << 20     # declared, never written
    assert not (root / "bombe" / "minimax.py").exists()


def test_limits_that_each_archive_keeps_are_counted_over_all_levels(submissions, tmp_path):
    """Every level of viele.zip and summe.zip is within the limits of one archive: alone,
    the innermost unpacks without a word."""
    innermost = tmp_path / "levels"
    budget = UnpackStats()
    folder = unpack(NESTED / "Simon Summe_200005_assignsubmission_file_" / "summe.zip",
                    innermost / "1", budget)
    assert budget.unpacked < 20 << 20
    for level in (2, 3):
        alone = UnpackStats()
        folder = unpack(folder / f"summe{level}.zip", innermost / str(level), alone)
        assert alone.unpacked < 20 << 20
        budget.unpacked += alone.unpacked
    assert budget.unpacked > 20 << 20 and (folder / "minimax.py").is_file()


def test_several_archives_where_the_code_is_missing_need_a_person(tmp_path):
    into = tmp_path / "copy"
    into.mkdir()
    for name in ("teil1.zip", "teil2.tar.gz"):
        (into / name).write_bytes((NESTED / "anna.zip").read_bytes())
    with pytest.raises(Exception, match="the archives teil1.zip, teil2.tar.gz were not "
                                        "unpacked"):
        _arrange(into, MODULES)
