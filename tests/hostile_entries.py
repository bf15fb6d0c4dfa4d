"""Hostile names, archives and folder contents that cannot sensibly live in git (names that
are not UTF-8, links to the grader's own files, compressed bombs), made in a submissions folder
for the adversarial batch (tests/test_hostile.py) and its benchmark (bench/hostile_batch.py).

``add(submissions, correct)`` returns what each entry must come to: the expected outcome per
display name, for the tests to check.
"""

from __future__ import annotations

import io
import os
import py_compile
import shutil
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

WRONG = '''def minimax(game, state):
    return 0, None
'''


def _tar_bytes(members, mode="w:gz") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as bundle:
        for info, data in members:
            bundle.addfile(info, io.BytesIO(data) if data is not None else None)
    return buffer.getvalue()


def long_name_bomb() -> bytes:
    """A small .tar.gz whose GNU long-name header claims ~1.3 GB of name."""
    header = tarfile.TarInfo("././@LongLink")
    header.type = tarfile.GNUTYPE_LONGNAME
    header.size = 1_300_000_000
    block = header.tobuf(format=tarfile.GNU_FORMAT)
    raw = io.BytesIO()
    import gzip
    with gzip.GzipFile(fileobj=raw, mode="wb") as out:
        out.write(block)
        zeros = b"\0" * (1 << 20)
        for _ in range(40):           # 40 MiB of the claimed name, compressing to ~40 KB
            out.write(zeros)
    return raw.getvalue()


def many_members(count: int = 1_000_000) -> bytes:
    """A ~1 MB .tar.gz of ``count`` empty directory entries (each a 512-byte header): one
    gzip member of 2,048 headers, repeated (gzip streams may be concatenated)."""
    import gzip
    info = tarfile.TarInfo("d")
    info.type = tarfile.DIRTYPE
    member = gzip.compress(info.tobuf(format=tarfile.USTAR_FORMAT) * 2048, compresslevel=9)
    return member * (count // 2048)


HOSTILE = ROOT / "tests" / "data" / "hostile"


def copy_hostile(submissions: Path, fork_flood: bool = True) -> None:
    """Copy every hostile submission of tests/data/hostile into ``submissions``, each with the
    shared modules it imports (``forge``: speaking for the runner; ``korrekt``: a correct
    search), so that each folder is whole, as a student's would be."""
    shared = {"forge": HOSTILE / "_shared" / "forge.py",
              "korrekt": ROOT / "submissions" / "korrekt" / "minimax.py"}
    for student in sorted(HOSTILE.iterdir()):
        if not student.is_dir() or student.name.startswith("_"):
            continue
        if student.name == "fork-flood" and not fork_flood:
            continue
        target = submissions / student.name
        shutil.copytree(student, target)
        source = (student / "minimax.py").read_text() if (student / "minimax.py").exists() else ""
        for module, path in shared.items():
            if f"import {module}" in source or f"from {module} import" in source:
                shutil.copy(path, target / f"{module}.py")


def add(submissions: Path, correct: Path, heavy: bool = True) -> dict:
    """Make the hostile entries; returns {report-id prefix or display: expectation}."""
    expected = {}

    def copy(name) -> Path:
        target = submissions / name
        shutil.copytree(correct, target)
        return target

    copy(os.fsdecode(b"m\xfcller-not-utf8"))
    expected["m\\xfcller-not-utf8"] = "full"
    copy("gradebook.csv")
    expected["gradebook.csv"] = "full"
    copy("=HYPERLINK(1)")
    expected["=HYPERLINK(1)"] = "full"
    copy("\x1b[31mred\x07")
    expected["\\x1b[31mred\\x07"] = "full"

    # One student, two archives: both graded, both listed.
    for suffix, maker in ((".zip", "zip"), (".tar", "tar")):
        path = submissions / f"anna{suffix}"
        if maker == "zip":
            with zipfile.ZipFile(path, "w") as bundle:
                for file in correct.iterdir():
                    bundle.write(file, f"anna/{file.name}")
        else:
            with tarfile.open(path, "w") as bundle:
                bundle.add(correct, arcname="anna")
        expected[f"anna{suffix}"] = "full"

    if heavy:
        (submissions / "bomb.tar.gz").write_bytes(long_name_bomb())
        expected["bomb.tar.gz"] = "problem"
        (submissions / "members.tar.gz").write_bytes(many_members())
        expected["members.tar.gz"] = "problem"

    # The grader's own model solution, linked in: never followed at any level.
    linked = submissions / "link-to-reference"
    linked.mkdir()
    (linked / "minimax.py").symlink_to(ROOT / "reference" / "search.py")
    (linked / "pagemap.py").symlink_to("/proc/self/pagemap")
    expected["link-to-reference"] = "zero"

    # A submission folder that is itself a link.
    (submissions / "linked-folder").symlink_to(correct, target_is_directory=True)
    expected["linked-folder"] = "problem"

    # A stale bytecode cache of a correct solution beside a wrong visible source: the
    # visible source is what is graded.
    stale = submissions / "stale-bytecode"
    stale.mkdir()
    source = stale / "minimax.py"
    shutil.copy(correct / "minimax.py", source)
    cache = stale / "__pycache__" / "minimax.cpython-311.pyc"
    py_compile.compile(str(source), cfile=str(cache), doraise=True)
    stat = source.stat()
    padded = WRONG + "#" * max(0, stat.st_size - len(WRONG) - 1) + "\n"
    source.write_text(padded)           # same size, same mtime: the cache would be "fresh"
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    expected["stale-bytecode"] = "low"

    # A package that would shadow the visible module.
    shadow = copy("shadow-package")
    (shadow / "minimax").mkdir()
    (shadow / "minimax" / "__init__.py").write_text(WRONG)
    expected["shadow-package"] = "full"

    # Archives inside archives (tests/data/archives/nested/): a zip bomb inside a tar.gz, zips
    # nested too deep, an archive holding its own name, limits passed only together.
    nested = ROOT / "tests" / "data" / "archives" / "nested"
    for folder in sorted(nested.iterdir()):
        if folder.is_dir() and not folder.name.startswith("Max Mustermann"):
            shutil.copytree(folder, submissions / folder.name)
            expected[folder.name] = "problem"
    return expected
