"""Finding, naming, unpacking and staging hostile submissions (grader/submissions/).

Each test is named for the behaviour it guards.  Archives that cannot sensibly be committed
(names that are not UTF-8, a million members) are built here; tests/data/archives/ holds the
small real ones.
"""

import importlib.machinery
import io
import json
import os
import py_compile
import shutil
import stat
import subprocess
import sys
import tarfile
import tracemalloc
import zipfile
import zlib

import pytest

from grader.notes import Note
from grader.report.messages import Catalogue
from grader.submissions import archives, limits, staging
from grader.submissions.archives import unpack
from grader.submissions.finding import Submission, find
from grader.submissions.limits import MAX_ENTRIES, ArchiveError, UnpackStats
from grader.submissions.names import RESERVED_NAMES
from grader.submissions.staging import content_hash, stage

from conftest import DATA, ROOT

KORREKT = ROOT / "submissions" / "korrekt"
ARCHIVES = DATA / "archives"


def bname(raw: bytes) -> str:
    """A file name from raw bytes, as Path.iterdir() would give it."""
    return os.fsdecode(raw)


def make_zip(path, entries):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, data in entries.items():
            bundle.writestr(name, data)
    return path


def make_tar(path, entries, mode="w", format=tarfile.GNU_FORMAT, **options):
    with tarfile.open(path, mode, format=format, **options) as bundle:
        for name, data in entries.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            bundle.addfile(info, io.BytesIO(data))
    return path


def korrekt_files(prefix=""):
    return {prefix + p.name: p.read_bytes() for p in KORREKT.iterdir()}


def notes_by_key(notes):
    return {note.key: note.facts for note in notes}


def the(found, **match):
    [submission] = [s for s in found if all(getattr(s, k) == v for k, v in match.items())]
    return submission


@pytest.fixture
def root(tmp_path):
    folder = tmp_path / "export"
    folder.mkdir()
    return folder


def has_control(text):
    return any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or 0x202A <= ord(c) <= 0x202E
               or 0x2066 <= ord(c) <= 0x2069 for c in text)


# -- names -----------------------------------------------------------------------------------

def test_a_folder_named_in_bytes_that_are_not_utf8_gets_a_safe_id_and_an_escaped_display(
        root, tmp_path):
    shutil.copytree(KORREKT, root / bname(b"sch\xfcler\x1b[31m"))
    shutil.copytree(KORREKT, root / "\u202eevil")
    shutil.copytree(KORREKT, root / "Jose\u0301")          # decomposed é
    found = find(root)
    latin = the(found, source=root / bname(b"sch\xfcler\x1b[31m"))
    assert latin.display == "sch\\xfcler\\x1b[31m"
    assert latin.student == "sch_ler__31m"
    bidi = the(found, source=root / "\u202eevil")
    assert bidi.display == "\\u202eevil" and bidi.student == "_evil"
    assert the(found, source=root / "Jose\u0301").student == "Jos\u00e9"    # NFC
    for submission in found:
        assert not has_control(submission.display)
        staged = stage(submission, tmp_path / "staged" / submission.student)
        assert staged.problem is None
        assert staged.folder.name == submission.student
        assert (staged.folder / "minimax.py").read_bytes() == (KORREKT / "minimax.py").read_bytes()
        assert content_hash(staged.folder) == content_hash(KORREKT)


def test_a_student_named_like_a_report_file_gets_another_id(root):
    for name in ("gradebook.csv", "Summary.HTML", "check"):
        (root / name).mkdir()
    make_zip(root / "JUNIT.xml.zip", korrekt_files())
    found = find(root)
    reserved = {name.casefold() for name in RESERVED_NAMES}
    assert len(found) == 4
    for submission in found:
        assert submission.student.casefold() not in reserved
        assert notes_by_key(submission.notes)["reserved-name"]["student"] == submission.student
    assert the(found, display="gradebook.csv").student == "gradebook.csv~2"
    assert the(found, display="JUNIT.xml.zip").student == "JUNIT.xml~2"


def test_ids_have_no_leading_dot_or_dash_never_empty_and_at_most_80_characters(root):
    for name in ("-rf", "---", "x" * 100 + "1", "x" * 100 + "2", "ü" * 100, "a b!c"):
        (root / name).mkdir()
    ids = {s.display: s.student for s in find(root)}
    assert ids["-rf"] == "rf"
    assert ids["---"] == "submission"
    assert ids["x" * 100 + "1"] == "x" * 80
    assert ids["x" * 100 + "2"] == "x" * 78 + "~2"
    assert ids["ü" * 100] == "ü" * 80
    assert ids["a b!c"] == "a b_c"
    assert all(len(i) <= 80 and not i.startswith((".", "-")) for i in ids.values())


def test_anna_zip_and_anna_tar_are_both_found_with_distinct_ids_and_collision_notes(root):
    make_zip(root / "anna.zip", korrekt_files())
    make_tar(root / "anna.tar", korrekt_files())
    (root / "Anna").mkdir()
    (root / "b c!").mkdir()
    (root / "b c?").mkdir()
    found = find(root)
    ids = [s.student for s in found]
    assert len(set(i.casefold() for i in ids)) == len(ids) == 5
    # Sorted by raw bytes: "Anna" < "anna.tar" < "anna.zip".
    assert [the(found, display=d).student for d in ("Anna", "anna.tar", "anna.zip")] == \
        ["Anna", "anna~2", "anna~3"]
    for display in ("Anna", "anna.tar", "anna.zip"):
        collision = notes_by_key(the(found, display=display).notes)["collision"]
        assert sorted(collision["others"]) == sorted({"Anna", "anna.tar", "anna.zip"} - {display})
    assert notes_by_key(the(found, display="b c!").notes)["collision"]["others"] == ["b c?"]
    assert notes_by_key(the(found, display="b c?").notes)["collision"]["others"] == ["b c!"]
    assert find(root) == found                    # deterministic


def test_finding_opens_and_unpacks_nothing(root, monkeypatch):
    make_zip(root / "anna.zip", korrekt_files())
    (root / "notes.txt").write_text("not a submission")
    (root / ".hidden").mkdir()
    (root / "_private").mkdir()
    (root / "ben").mkdir()
    for module in (archives, staging):
        monkeypatch.setattr(module, "unpack", lambda *a: pytest.fail("find unpacked"))
    monkeypatch.setattr(zipfile, "ZipFile", lambda *a: pytest.fail("find opened a zip"))
    found = find(root)
    assert [(s.display, s.kind) for s in found] == [("anna.zip", "archive"), ("ben", "folder")]


def test_what_finding_passes_over_is_listed_unless_tools_put_it_there(root):
    from grader.submissions.finding import passed_over
    for name in ("_private", ".hidden", ".git", "__MACOSX", "__pycache__", ".idea", "ben"):
        (root / name).mkdir()
    make_zip(root / "_anna.zip", korrekt_files())
    (root / "_notes.txt").write_text("not an archive")
    (root / ".DS_Store").write_text("finder")
    (root / "_env").mkdir()
    (root / "_env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    assert passed_over(root) == [".hidden", "_anna.zip", "_private"]
    assert [s.display for s in find(root)] == ["ben"]


def test_the_summary_and_the_terminal_say_what_was_not_graded(root, tmp_path, capsys):
    from grader.cli import main
    shutil.copytree(KORREKT, root / "anna")
    shutil.copytree(KORREKT, root / "_ben")
    out = tmp_path / "reports"
    assert main(["grade", "--tasks", str(ROOT / "tasks"), "--submissions", str(root),
                 "--out", str(out), "--lang", "en"]) == 0
    said = " ".join(capsys.readouterr().err.split())
    assert "Not graded (names starting with . or _ are taken for hidden or tool folders; " \
        "rename a student's to grade it): _ben" in said
    summary = " ".join((out / "summary.html").read_text().split())
    assert "Not graded: _ben. Folders and archives whose names start with" in summary
    assert not (out / "_ben").exists()


# -- links, hard links, special files ---------------------------------------------------------

def test_links_inside_a_folder_are_neither_followed_nor_hashed(root, tmp_path):
    folder = root / "anna"
    shutil.copytree(KORREKT, folder)
    secret = tmp_path / "secret.py"
    secret.write_text("SECRET = 1\n")
    os.symlink("/proc/self/pagemap", folder / "pagemap.py")
    os.symlink(secret, folder / "outside.py")
    (folder / "sub").mkdir()
    os.symlink("/etc", folder / "sub" / "etc")
    before = content_hash(folder)
    secret.write_text("SECRET = 2\n")
    assert content_hash(folder) == before                   # the link's target is not read
    staged = stage(find(root)[0], tmp_path / "staged")
    assert staged.problem is None
    assert sorted(p.name for p in staged.folder.rglob("*")) == sorted(
        ["evaluation.py", "minimax.py", "sub"])
    assert not any(p.is_symlink() for p in staged.folder.rglob("*"))
    links = notes_by_key(staged.notes)["links-ignored"]
    assert links == {"paths": ["outside.py", "pagemap.py", "sub/etc"], "count": 3}
    assert content_hash(staged.folder) == content_hash(folder) == content_hash(KORREKT)


def test_a_symlink_in_the_submissions_root_is_listed_with_a_problem(root, tmp_path):
    shutil.copytree(KORREKT, tmp_path / "elsewhere")
    make_zip(tmp_path / "real.zip", korrekt_files())
    os.symlink(tmp_path / "elsewhere", root / "anna")
    os.symlink(tmp_path / "real.zip", root / "ben.zip")
    os.symlink("/nonexistent", root / "dangling.tgz")
    os.symlink(tmp_path / "real.zip", root / "notes.txt")         # not a submission's name
    found = find(root)
    assert [(s.display, s.kind) for s in found] == [("anna", "link"), ("ben.zip", "link"),
                                                    ("dangling.tgz", "link")]
    for submission in found:
        staged = stage(submission, tmp_path / "staged" / submission.student)
        assert "a link, not followed" in staged.problem
        assert submission.display in staged.problem
        assert list(staged.folder.iterdir()) == []


def test_a_hard_link_is_skipped(root, tmp_path):
    folder = root / "anna"
    shutil.copytree(KORREKT, folder)
    secret = tmp_path / "secret.py"
    secret.write_text("SECRET = 1\n")
    os.link(secret, folder / "notes.py")
    staged = stage(find(root)[0], tmp_path / "staged")
    assert staged.problem is None
    assert not (staged.folder / "notes.py").exists()
    assert (staged.folder / "minimax.py").exists()
    assert notes_by_key(staged.notes)["hardlinks-ignored"] == {"paths": ["notes.py"],
                                                               "count": 1}


def test_a_fifo_is_skipped_without_blocking(root, tmp_path):
    folder = root / "anna"
    shutil.copytree(KORREKT, folder)
    os.mkfifo(folder / "evaluation2.py")
    staged = stage(find(root)[0], tmp_path / "staged")
    assert staged.problem is None and not (staged.folder / "evaluation2.py").exists()
    assert notes_by_key(staged.notes)["special-files-ignored"]["paths"] == ["evaluation2.py"]


def test_copies_are_plain_files_owned_by_the_grader(root, tmp_path):
    folder = root / "anna"
    shutil.copytree(KORREKT, folder)
    (folder / "sub").mkdir(mode=0o700)
    (folder / "sub" / "x.py").write_text("X = 1\n")
    os.chmod(folder / "sub" / "x.py", 0o4777)
    os.utime(folder / "minimax.py", (1, 1))
    staged = stage(find(root)[0], tmp_path / "staged")
    assert stat.S_IMODE(os.stat(staged.folder / "sub" / "x.py").st_mode) == 0o644
    assert stat.S_IMODE(os.stat(staged.folder / "sub").st_mode) == 0o755
    assert os.stat(staged.folder / "sub" / "x.py").st_uid == os.getuid()
    assert os.stat(staged.folder / "minimax.py").st_mtime > 1


def test_names_inside_a_folder_that_are_not_utf8_are_kept_and_hashed(root, tmp_path):
    folder = root / "anna"
    shutil.copytree(KORREKT, folder)
    (folder / bname(b"caf\xe9.py")).write_text("X = 1\n")
    os.symlink("/etc/passwd", folder / bname(b"link\xff\x1b.py"))
    staged = stage(find(root)[0], tmp_path / "staged")
    assert (staged.folder / bname(b"caf\xe9.py")).read_text() == "X = 1\n"
    assert notes_by_key(staged.notes)["links-ignored"]["paths"] == ["link\\xff\\x1b.py"]
    assert len(content_hash(staged.folder)) == 64


# -- bytecode and shadowing packages ----------------------------------------------------------

def import_who(folder):
    """What `import minimax; minimax.who()` gives in ``folder`` (the grader's child does
    not write bytecode, but reads it)."""
    code = "import sys; sys.path.insert(0, '.'); import minimax; print(minimax.who())"
    return subprocess.run([sys.executable, "-B", "-I", "-c", code], cwd=folder,
                          capture_output=True, text=True, check=True).stdout.strip()


def test_a_stale_pycache_beside_the_source_is_not_staged(root, tmp_path):
    folder = root / "anna"
    folder.mkdir()
    source = folder / "minimax.py"
    source.write_text("def who():\n    return 'cached'\n")
    cache = folder / "__pycache__" / f"minimax.{sys.implementation.cache_tag}.pyc"
    py_compile.compile(source, cfile=cache, doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
    stamp = os.stat(source).st_mtime
    # Same length, same mtime: the .pyc's header matches the visible source.
    source.write_text("def who():\n    return 'source'\n")
    os.utime(source, (stamp, stamp))
    (folder / "helper.pyc").write_bytes(cache.read_bytes())
    (folder / f"fast{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"\x7fELF")
    (folder / "legacy.pyd").write_bytes(b"MZ")
    assert import_who(folder) == "cached", "the fixture's .pyc must win over the source"
    staged = stage(find(root)[0], tmp_path / "staged")
    assert staged.problem is None
    assert sorted(p.name for p in staged.folder.rglob("*")) == ["minimax.py"]
    assert import_who(staged.folder) == "source"
    bytecode = notes_by_key(staged.notes)["bytecode-ignored"]
    assert bytecode["count"] == 4 and "__pycache__/" in bytecode["paths"]


def test_a_package_beside_a_module_of_the_same_name_is_not_staged(root, tmp_path):
    folder = root / "anna"
    (folder / "minimax").mkdir(parents=True)
    (folder / "minimax" / "__init__.py").write_text("def who():\n    return 'package'\n")
    (folder / "minimax.py").write_text("def who():\n    return 'module'\n")
    (folder / "helpers").mkdir()
    (folder / "helpers" / "__init__.py").write_text("")
    assert import_who(folder) == "package"
    staged = stage(find(root)[0], tmp_path / "staged")
    assert staged.problem is None
    assert not (staged.folder / "minimax").exists()
    assert (staged.folder / "helpers" / "__init__.py").exists()        # no module beside it
    assert import_who(staged.folder) == "module"
    assert Note("shadow-package") in staged.notes
    assert notes_by_key(staged.notes)["shadow-package"] == {"module": "minimax",
                                                             "folder": "minimax/"}


# -- folder limits ----------------------------------------------------------------------------

def many_files(folder):
    for index in range(501):
        (folder / f"f{index}.py").write_text("")


def large_file(folder):
    with open(folder / "data.py", "wb") as handle:
        handle.truncate(21 << 20)                   # sparse: costs no disk


def deep_folders(folder):
    (folder / os.path.join(*["d"] * 21)).mkdir(parents=True)


def many_entries(folder):
    for index in range(2001):
        (folder / f"d{index}").mkdir()


@pytest.mark.parametrize("build, message", [
    (many_files, "more than 500 files"),
    (large_file, "more than 20 MiB"),
    (deep_folders, "more than 20 folders deep"),
    (many_entries, "more than 2000 entries"),
])
def test_folder_limits_are_refused_with_a_message(root, tmp_path, build, message):
    folder = root / "anna"
    shutil.copytree(KORREKT, folder)
    build(folder)
    staged = stage(find(root)[0], tmp_path / "staged")
    assert message in staged.problem
    assert list(staged.folder.iterdir()) == []      # nothing half-staged is graded


# -- archives: bombs --------------------------------------------------------------------------

def test_the_long_name_tar_bomb_is_refused_without_reading_the_header(tmp_path):
    bomb = ARCHIVES / "longname-bomb.tar.gz"
    header = tarfile.TarInfo.frombuf(zlib.decompressobj(31).decompress(bomb.read_bytes(), 512),
                                     "utf-8", "surrogateescape")
    assert header.type == tarfile.GNUTYPE_LONGNAME and header.size > 10 ** 9
    assert bomb.stat().st_size < 64 << 10
    stats = UnpackStats()
    tracemalloc.start()
    try:
        with pytest.raises(ArchiveError, match="extended header of 1300000000 bytes"):
            unpack(bomb, tmp_path / "out", stats)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20
    assert stats.headers == 1 and stats.decompressed == 512


@pytest.mark.parametrize("kind", [tarfile.XHDTYPE, tarfile.XGLTYPE, tarfile.GNUTYPE_LONGLINK])
def test_any_oversized_extended_header_is_refused_unread(tmp_path, kind):
    info = tarfile.TarInfo("././@Header")
    info.type, info.size = kind, 100 << 20
    archive = tmp_path / "x.tar"
    archive.write_bytes(info.tobuf(tarfile.GNU_FORMAT) + bytes(1 << 20))
    stats = UnpackStats()
    with pytest.raises(ArchiveError, match="extended header"):
        unpack(archive, tmp_path / "out", stats)
    assert stats.decompressed == 512


@pytest.fixture(scope="module")
def million_members(tmp_path_factory):
    """A .tar.gz of a million empty members (~0.5 MB), built without a million TarInfos: the
    same folder over and over (folders count as members; a folder may come twice).  Its gzip
    stream is one member of a thousand headers, compressed once and written a thousand times
    (gzip members may follow one another, RFC 1952), then the end of the archive: compressing
    all 512 MB took 3.6 CPU-seconds.  The member limit falls in its third gzip member."""
    header = tar_member("d/", tarfile.DIRTYPE).tobuf(tarfile.GNU_FORMAT)
    path = tmp_path_factory.mktemp("bomb") / "million.tar.gz"
    packed = zlib.compressobj(6, zlib.DEFLATED, 31)
    thousand = packed.compress(header * 1_000) + packed.flush()
    with open(path, "wb") as out:
        for _ in range(1_000):
            out.write(thousand)
        end = zlib.compressobj(6, zlib.DEFLATED, 31)
        out.write(end.compress(bytes(1024)) + end.flush())
    return path


def test_a_million_member_tar_is_refused_at_the_member_limit(million_members, tmp_path):
    assert million_members.stat().st_size < limits.MAX_ARCHIVE_BYTES
    stats = UnpackStats()
    with pytest.raises(ArchiveError, match=f"more than {MAX_ENTRIES} members"):
        unpack(million_members, tmp_path / "out", stats)
    assert stats.headers == MAX_ENTRIES + 1
    assert stats.decompressed == (MAX_ENTRIES + 1) * 512


def test_a_tar_gz_of_several_gzip_members_is_unpacked_whole(tmp_path):
    """gzip members may follow one another (``cat a.gz b.gz``, RFC 1952): the tar stream is
    read across them, also where a member ends while a read is cut short (the reader once
    went round for ever there), and where a read ends inside the next member's magic."""
    files = {"minimax.py": b"def minimax(game, state):\n    return 0, None\n" * 40,
             "notes.txt": bytes(range(256)) * 400}
    tar = make_tar(tmp_path / "plain.tar", files).read_bytes()
    # (where the tar stream is cut, the first member's compression level): stored, the first
    # member of 65,507 bytes takes 65,535 in gzip, one byte short of the reader's 64 KiB
    for cut, level in ((1024, 6), (1536, 6), (2048, 6), (65_507, 0)):
        first = zlib.compressobj(level, zlib.DEFLATED, 31)
        second = zlib.compressobj(6, zlib.DEFLATED, 31)
        archive = tmp_path / f"members-{cut}.tar.gz"
        archive.write_bytes(first.compress(tar[:cut]) + first.flush()
                            + second.compress(tar[cut:]) + second.flush())
        if level == 0:
            assert archive.read_bytes()[(1 << 16) - 1:(1 << 16) + 1] == b"\x1f\x8b"
        root = unpack(archive, tmp_path / f"out-{cut}", UnpackStats())
        assert {path.name: path.read_bytes() for path in root.iterdir()} == files, cut


def test_a_zip_with_too_many_members_is_refused_from_its_directory(tmp_path):
    archive = make_zip(tmp_path / "many.zip", {f"f{i}.py": b"" for i in range(2001)})
    stats = UnpackStats()
    with pytest.raises(ArchiveError, match="more than 2000 members"):
        unpack(archive, tmp_path / "out", stats)
    assert stats.headers == 0 and list((tmp_path / "out").iterdir()) == []
    # The end record lies (says 1 member): counting the directory itself still refuses.
    data = bytearray(archive.read_bytes())
    data[-22 + 8:-22 + 12] = (1).to_bytes(2, "little") * 2
    (tmp_path / "liar.zip").write_bytes(bytes(data))
    stats = UnpackStats()
    with pytest.raises(ArchiveError, match="more than 2000 members"):
        unpack(tmp_path / "liar.zip", tmp_path / "out2", stats)
    assert stats.headers == MAX_ENTRIES + 1 and list((tmp_path / "out2").iterdir()) == []


def test_a_highly_compressed_zip_member_is_refused(tmp_path):
    archive = make_zip(tmp_path / "z.zip", {"minimax.py": bytes(2 << 20)})
    with pytest.raises(ArchiveError, match="compressed more than 200:1"):
        unpack(archive, tmp_path / "out")


def test_a_highly_compressed_tar_gz_is_refused(tmp_path):
    archive = make_tar(tmp_path / "z.tar.gz", {"minimax.py": bytes(2 << 20)}, "w:gz")
    stats = UnpackStats()
    with pytest.raises(ArchiveError, match="compressed more than 200:1"):
        unpack(archive, tmp_path / "out", stats)
    assert stats.decompressed < (1 << 20) + (128 << 10)


def test_a_tar_stream_longer_than_the_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(archives, "MAX_STREAM_BYTES", 256 << 10)
    archive = make_tar(tmp_path / "big.tar.gz", {"data.py": os.urandom(1 << 20)}, "w:gz")
    stats = UnpackStats()
    with pytest.raises(ArchiveError, match="decompresses to more than"):
        unpack(archive, tmp_path / "out", stats)
    assert stats.decompressed <= (256 << 10) + (64 << 10)


@pytest.mark.parametrize("suffix", [".zip", ".tar", ".tgz"])
def test_archive_limits_on_files_and_size_are_refused_with_a_message(tmp_path, suffix,
                                                                      monkeypatch):
    files = {f"f{i}.py": b"" for i in range(501)}
    build = make_zip if suffix == ".zip" else \
        (lambda p, e: make_tar(p, e, "w:gz" if suffix == ".tgz" else "w"))
    with pytest.raises(ArchiveError, match="more than 500 files"):
        unpack(build(tmp_path / f"many{suffix}", files), tmp_path / "out1")
    monkeypatch.setattr(limits, "MAX_BYTES", 1 << 20)
    with pytest.raises(ArchiveError, match="unpacks to more than 1 MiB"):
        unpack(build(tmp_path / f"big{suffix}", {"a.py": os.urandom(600 << 10),
                                                  "b.py": os.urandom(600 << 10)}),
               tmp_path / "out2")


def test_an_archive_larger_than_the_limit_is_refused_before_it_is_opened(root, tmp_path):
    with open(root / "anna.zip", "wb") as handle:
        handle.truncate(21 << 20)
    staged = stage(find(root)[0], tmp_path / "staged")
    assert "larger than 20 MiB" in staged.problem


# -- archives: names and members --------------------------------------------------------------

def test_a_zip_with_a_cp437_member_name_unpacks_without_crashing(tmp_path):
    archive = tmp_path / "cp437.zip"
    make_zip(archive, {**korrekt_files(), "grXYe.py": b"A = 1\n", "QQQQx.py": b"B = 2\n"})
    # Without the UTF-8 flag, zip names are cp437: 0x81 0xE1 is "üß"; 0x1b is ESC.
    data = archive.read_bytes().replace(b"grXYe.py", b"gr\x81\xe1e.py") \
        .replace(b"QQQQx.py", b"\x1b[2Jx.py")
    archive.write_bytes(data)
    folder = unpack(archive, tmp_path / "out")
    assert (folder / "grüße.py").read_text() == "A = 1\n"
    assert (folder / "_[2Jx.py").read_text() == "B = 2\n"


@pytest.mark.parametrize("format", [tarfile.GNU_FORMAT, tarfile.PAX_FORMAT])
def test_a_tar_with_a_member_name_that_is_not_utf8_unpacks_without_crashing(tmp_path, format):
    long = "d" * 120 + "/"                      # a pax (or GNU long-name) header for the name
    archive = make_tar(tmp_path / "x.tar", {**korrekt_files(),
                                            bname(b"caf\xe9.py"): b"A = 1\n",
                                            long + bname(b"\xff\x1b.py"): b"B = 2\n"},
                       format=format)
    folder = unpack(archive, tmp_path / "out")
    assert (folder / "caf_.py").read_text() == "A = 1\n"
    assert (folder / ("d" * 120) / "__.py").read_text() == "B = 2\n"
    assert (folder / "minimax.py").read_bytes() == (KORREKT / "minimax.py").read_bytes()


def tar_with(tmp_path, info, data=b""):
    info.size = len(data) if info.isreg() else 0
    path = tmp_path / "x.tar"
    with tarfile.open(path, "w", format=tarfile.GNU_FORMAT) as bundle:
        bundle.addfile(info, io.BytesIO(data) if data else None)
    return path


def tar_member(name, kind=tarfile.REGTYPE, linkname=""):
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, linkname
    return info


@pytest.mark.parametrize("info, message", [
    (tar_member("../../evil\x1b[2J.py"), "unsafe path: ../../evil\\x1b[2J.py"),
    (tar_member("/etc/cron.d/x"), "unsafe path: /etc/cron.d/x"),
    (tar_member("minimax.py", tarfile.SYMTYPE, "/etc/passwd"), "link or special file: minimax.py"),
    (tar_member("minimax.py", tarfile.LNKTYPE, "/etc/passwd"), "link or special file: minimax.py"),
    (tar_member("dev", tarfile.CHRTYPE), "link or special file: dev"),
    (tar_member("fifo", tarfile.FIFOTYPE), "link or special file: fifo"),
    (tar_member("x" * 1100), "longer than 1024 bytes"),
])
def test_unsafe_tar_members_are_refused_with_the_member_named(tmp_path, info, message):
    with pytest.raises(ArchiveError) as refused:
        unpack(tar_with(tmp_path, info, b"x" if info.isreg() else b""), tmp_path / "out")
    assert message in str(refused.value)
    assert not has_control(str(refused.value))
    assert not (tmp_path.parent / "evil\x1b[2J.py").exists()


def test_a_zip_link_or_traversal_is_refused(tmp_path):
    link = zipfile.ZipInfo("minimax.py")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    with zipfile.ZipFile(tmp_path / "link.zip", "w") as bundle:
        bundle.writestr(link, "/etc/passwd")
    with pytest.raises(ArchiveError, match="link or special file: minimax.py"):
        unpack(tmp_path / "link.zip", tmp_path / "out1")
    make_zip(tmp_path / "up.zip", {"..\\..\\evil.py": b""})
    with pytest.raises(ArchiveError, match="unsafe path"):
        unpack(tmp_path / "up.zip", tmp_path / "out2")


def test_a_zip_made_on_windows_with_backslashes_unpacks_into_folders(tmp_path):
    archive = make_zip(tmp_path / "win.zip", {"anna\\": b"", **korrekt_files("anna\\")})
    folder = unpack(archive, tmp_path / "out")
    assert folder == tmp_path / "out" / "anna"
    assert (folder / "minimax.py").read_bytes() == (KORREKT / "minimax.py").read_bytes()


def test_two_members_with_the_same_safe_name_are_refused(tmp_path):
    archive = make_tar(tmp_path / "x.tar", {bname(b"a\xff.py"): b"1", bname(b"a\xfe.py"): b"2"})
    with pytest.raises(ArchiveError, match="twice"):
        unpack(archive, tmp_path / "out")


def test_an_archive_is_staged_from_its_single_folder_under_the_folder_rules(root, tmp_path):
    cache = f"anna/__pycache__/minimax.{sys.implementation.cache_tag}.pyc"
    entries = {**korrekt_files("anna/"), cache: b"stale", "anna/minimax/__init__.py": b"",
               "__MACOSX/anna/._minimax.py": b"", ".DS_Store": b""}
    make_zip(root / "anna.zip", entries)
    with tarfile.open(root / "ben.tgz", "w:gz", format=tarfile.PAX_FORMAT,
                      pax_headers={"comment": "git archive writes a global header"}) as bundle:
        bundle.add(KORREKT, arcname=".")
    found = find(root)
    anna = stage(the(found, display="anna.zip"), tmp_path / "anna")
    assert anna.problem is None
    assert sorted(p.name for p in anna.folder.iterdir()) == ["evaluation.py", "minimax.py"]
    assert set(notes_by_key(anna.notes)) == {"bytecode-ignored", "shadow-package"}
    ben = stage(the(found, display="ben.tgz"), tmp_path / "ben")
    assert ben.problem is None
    assert content_hash(ben.folder) == content_hash(anna.folder) == content_hash(KORREKT)


@pytest.mark.parametrize("data", [b"", b"not an archive at all" * 40, b"\x1f\x8b\x08" + bytes(40),
                                  b"PK\x03\x04\x1b[2J" + bytes(600)])
def test_broken_archives_become_problems(root, tmp_path, data):
    for name in ("a.zip", "b.tar", "c.tgz"):
        (root / name).write_bytes(data)
    for submission in find(root):
        staged = stage(submission, tmp_path / submission.student)
        assert staged.problem and not has_control(staged.problem)
        assert list(staged.folder.iterdir()) == []


def test_an_empty_but_valid_archive_is_an_empty_submission(root, tmp_path):
    (root / "a.zip").write_bytes(b"PK\x05\x06" + bytes(18))
    (root / "b.tar").write_bytes(bytes(10240))
    for submission in find(root):
        staged = stage(submission, tmp_path / submission.student)
        assert staged.problem is None and list(staged.folder.iterdir()) == []


def test_an_unexpected_error_becomes_a_problem(root, tmp_path, monkeypatch):
    shutil.copytree(KORREKT, root / "anna")

    def broken(*args):
        raise KeyError("bug")
    monkeypatch.setattr(staging, "_copy_tree", broken)
    staged = stage(find(root)[0], tmp_path / "staged")
    assert staged.problem == "internal error while unpacking: KeyError"


# -- reports ----------------------------------------------------------------------------------

@pytest.mark.parametrize("language", ["de", "en"])
def test_every_note_renders_in_both_languages(language):
    catalogue = Catalogue(language)
    facts = {"display": "anna.zip", "student": "anna~2", "others": ["anna.tar"],
             "other_students": ["anna"], "paths": ["a.py", "b/"], "count": 12,
             "module": "minimax", "folder": "minimax/"}
    for key in ("collision", "reserved-name", "links-ignored", "hardlinks-ignored",
                "special-files-ignored", "bytecode-ignored", "shadow-package"):
        text = catalogue.text(f"note.{key}", **facts)
        assert "{" not in text and len(text) > 20
    assert "anna.tar" in catalogue.text("note.collision", **facts)
    assert "(+10)" in catalogue.text("note.links-ignored", **facts)


def test_a_hostile_export_is_graded_end_to_end_with_distinct_ids(tmp_path, course):
    from grader.cli import main
    export = tmp_path / "export"
    export.mkdir()
    shutil.copytree(KORREKT, export / bname(b"sch\xfcler"))
    shutil.copytree(KORREKT, export / "gradebook.csv")
    make_zip(export / "anna.zip", korrekt_files("anna/"))
    make_tar(export / "anna.tar", korrekt_files())
    out = tmp_path / "out"
    assert main(["grade", "--tasks", str(ROOT / "tasks"), "--submissions", str(export),
                 "--out", str(out), "--jobs", "2", "--allow-weak-sandbox"]) == 0
    assert (out / "gradebook.csv").is_file()
    assert (out / "gradebook.csv").read_text().count("\n") == 5
    results = {p.name: json.loads((p / "results.json").read_text())
               for p in out.iterdir() if p.is_dir()}
    assert set(results) == {"sch_ler", "gradebook.csv~2", "anna", "anna~2"}
    for result in results.values():
        full = sum(t["max_score"] for t in result["tests"])
        assert full == course.max_score
        assert result["score"] == full


# -- LMS downloads: an uploaded archive, a subfolder, a file named in another case ------------

def moodle_download(root):
    """Folders as Moodle's "download all submissions" makes them, each arranged differently."""
    source = {name: (KORREKT / name).read_bytes() for name in ("minimax.py", "evaluation.py")}
    max_folder = root / "Max Mustermann_123456_assignsubmission_file_"
    max_folder.mkdir(parents=True)
    with zipfile.ZipFile(max_folder / "abgabe.zip", "w") as archive:
        for name, data in source.items():
            archive.writestr(f"Blatt3/{name}", data)
        archive.writestr("__MACOSX/Blatt3/._minimax.py", b"\0")
    erika = root / "Erika Musterfrau_654321_assignsubmission_file_" / "Abgabe Blatt 3"
    erika.mkdir(parents=True)
    (erika / "Minimax.py").write_bytes(source["minimax.py"])
    (erika / "evaluation.py").write_bytes(source["evaluation.py"])
    two = root / "Zwei Ordner_111111_assignsubmission_file_"
    for name in ("alt", "neu"):
        (two / name).mkdir(parents=True)
        (two / name / "minimax.py").write_bytes(source["minimax.py"])
    return root


def test_an_uploaded_archive_a_subfolder_and_a_name_in_another_case_are_arranged(tmp_path):
    modules = ("evaluation", "minimax")
    found = {s.display.split("_")[0]: s for s in find(moodle_download(tmp_path / "download"))}

    staged = stage(found["Max Mustermann"], tmp_path / "max", modules)
    assert staged.problem is None
    assert sorted(p.name for p in staged.folder.iterdir()) == ["evaluation.py", "minimax.py"]
    assert [n.key for n in staged.notes] == ["inner-archive"]
    assert staged.notes[0].facts["archive"] == "abgabe.zip"

    staged = stage(found["Erika Musterfrau"], tmp_path / "erika", modules)
    assert sorted(p.name for p in staged.folder.iterdir()) == ["evaluation.py", "minimax.py"]
    assert [n.key for n in staged.notes] == ["subfolder", "case-renamed"]
    assert staged.notes[0].facts["folder"] == "Abgabe Blatt 3/"
    assert staged.notes[1].facts == {"found": "Minimax.py", "expected": "minimax.py"}

    # Two folders at the same depth: which one is meant needs a person, not a guess.
    staged = stage(found["Zwei Ordner"], tmp_path / "zwei", modules)
    assert sorted(p.name for p in staged.folder.iterdir()) == ["alt", "neu"]
    assert [(n.key, n.facts) for n in staged.notes] == [
        ("subfolder-ambiguous", {"folders": ["alt/", "neu/"]})]

    # Without the course's modules (or with one at the top), nothing is moved.
    assert not stage(found["Erika Musterfrau"], tmp_path / "plain").notes
    assert (tmp_path / "plain" / "Abgabe Blatt 3" / "Minimax.py").is_file()


def test_what_cannot_be_arranged_without_a_guess_is_left_as_it_is_with_a_note(tmp_path):
    modules = ("evaluation", "minimax")
    two_cases = tmp_path / "cases"
    two_cases.mkdir()
    for name in ("Minimax.py", "MINIMAX.py"):
        (two_cases / name).write_text("def minimax(game, state):\n    return 0, None\n")
    staged = stage(Submission("cases", "cases", two_cases, "folder"), tmp_path / "a", modules)
    assert sorted(p.name for p in staged.folder.iterdir()) == ["MINIMAX.py", "Minimax.py"]
    assert [(n.key, n.facts) for n in staged.notes] == [
        ("case-ambiguous", {"expected": "minimax.py", "found": ["MINIMAX.py", "Minimax.py"]})]

    deep = tmp_path / "deep"
    (deep / "a" / "b" / "c" / "d").mkdir(parents=True)
    (deep / "a" / "b" / "c" / "d" / "minimax.py").write_text("")
    staged = stage(Submission("deep", "deep", deep, "folder"), tmp_path / "b", modules)
    assert (staged.folder / "a").is_dir() and not (staged.folder / "minimax.py").exists()
    assert [(n.key, n.facts) for n in staged.notes] == [
        ("module-too-deep", {"path": "a/b/c/d/minimax.py", "depth": 3})]


def test_a_moodle_download_is_graded_as_its_students_handed_it_in(tmp_path):
    from grader.cli import main
    download = moodle_download(tmp_path / "download")
    out = tmp_path / "out"
    assert main(["grade", "--submissions", str(download), "--out", str(out), "--lang", "en",
                 "--allow-weak-sandbox"]) == 0
    results = {folder.name.split("_")[0]: json.loads((folder / "results.json").read_text())
               for folder in out.iterdir() if (folder / "results.json").is_file()}
    assert results["Max Mustermann"]["score"] == results["Erika Musterfrau"]["score"] == 60
    assert results["Zwei Ordner"]["score"] == 0
    summary = (out / "summary.html").read_text()
    attention = summary[summary.index('id="attention"'):summary.index('id="remarks"')]
    remarks = summary[summary.index('id="remarks"'):summary.index("</table>",
                                                                  summary.index('id="remarks"'))]
    # what was done without a doubt is noted apart; two folders to choose from need a person
    assert "was unpacked and graded" in remarks and "only the case differed" in remarks
    assert "was unpacked" not in attention and "which one to grade needs a person" in attention


def test_version_control_caches_and_virtual_environments_are_left_out_silently(tmp_path):
    """A student's repository, as a course repository or a Classroom download holds it: its
    .git and .venv (thousands of files) are nobody's answer and must not exceed the limits."""
    repository = tmp_path / "repository"
    shutil.copytree(ROOT / "submissions" / "korrekt", repository)
    for folder, count in ((".git/objects", 600), (".venv/lib/site-packages/numpy", 600),
                          (".pytest_cache/v", 3)):
        (repository / folder).mkdir(parents=True)
        for number in range(count):
            (repository / folder / f"f{number}").write_text("x")
    (repository / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (repository / "umgebung").mkdir()      # a virtual environment by any name
    (repository / "umgebung" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    staged = stage(Submission("r", "r", repository, "folder"), tmp_path / "staged",
                   ("evaluation", "minimax"))
    assert staged.problem is None and staged.notes == ()
    assert sorted(p.name for p in staged.folder.iterdir()) == sorted(
        p.name for p in (ROOT / "submissions" / "korrekt").iterdir()
        if p.name != "__pycache__")
