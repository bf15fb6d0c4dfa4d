"""The staged runner carries compiled bytecode, which a child (started with -B) uses instead of
compiling the runner, the games and the conventions from source; kept in the cache folder only
as files of ours (bytecode is code)."""

import hashlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from grader.sandbox.staging import BYTECODE_FOLDER, stage_runner


def staged_sources(stage: Path) -> list[Path]:
    return sorted((stage / "grader").rglob("*.py"))


def test_every_staged_module_has_hash_checked_bytecode_the_child_loads(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path / "cache"))
    script = stage_runner(tmp_path / "stage")
    sources = staged_sources(tmp_path / "stage")
    assert script in sources and len(sources) > 10
    for source in sources:
        compiled = Path(importlib.util.cache_from_source(str(source))).read_bytes()
        # PEP 552: flags 0b11 (hash-based, checked), then the source's hash
        assert int.from_bytes(compiled[4:8], "little") == 0b11
        assert compiled[8:16] == importlib.util.source_hash(source.read_bytes())
    # A child started as the launcher starts one imports the runner from the bytecode.
    done = subprocess.run(
        [sys.executable, "-s", "-S", "-B", "-v", "-c",
         "import sys; sys.path.insert(0, sys.argv[1]); import grader.sandbox.child, "
         "grader.conventions, grader.games.tree", str(tmp_path / "stage")],
        capture_output=True, text=True, check=True)
    loaded = [line for line in done.stderr.splitlines() if line.startswith("# code object from")]
    assert any("child.cpython" in line for line in loaded)
    assert any("tree.cpython" in line for line in loaded)
    assert "bytecode is stale" not in done.stderr


def test_kept_bytecode_is_reused_and_only_when_it_is_ours(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path / "cache"))
    stage_runner(tmp_path / "first")
    kept = tmp_path / "cache" / BYTECODE_FOLDER
    files = sorted(kept.iterdir())
    assert len(files) == len(staged_sources(tmp_path / "first"))
    assert all(oct(f.stat().st_mode & 0o777) == "0o600" for f in files)
    # Planted bytecode (here: a file anyone could have written) is never copied.
    child = Path(importlib.util.cache_from_source(str(tmp_path / "first" / "grader" /
                                                      "sandbox" / "child.py")))
    digest = hashlib.sha256((tmp_path / "first" / "grader" / "sandbox" / "child.py")
                            .read_bytes()).hexdigest()
    planted = kept / f"{digest}.{sys.implementation.cache_tag}.pyc"
    planted.write_bytes(b"planted")
    os.chmod(planted, 0o666)
    script = stage_runner(tmp_path / "second")
    staged = Path(importlib.util.cache_from_source(str(script))).read_bytes()
    assert staged == child.read_bytes() != b"planted"
    assert planted.read_bytes() != b"planted", "compiled afresh and kept in its place"


def test_without_the_cache_the_runner_is_compiled_where_it_is_staged(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("GRADER_NO_CACHE", "1")
    stage_runner(tmp_path / "stage")
    assert not (tmp_path / "cache").exists()
    assert all(Path(importlib.util.cache_from_source(str(s))).is_file()
               for s in staged_sources(tmp_path / "stage"))


def test_the_kept_bytecode_is_pruned_to_the_newest(tmp_path, monkeypatch):
    import grader.sandbox.staging as staging
    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path / "cache"))
    kept = tmp_path / "cache" / BYTECODE_FOLDER
    kept.mkdir(parents=True, mode=0o700)
    for number in range(50):                   # an old grader's files
        old = kept / f"{number:064x}.{sys.implementation.cache_tag}.pyc"
        old.write_bytes(b"old")
        os.utime(old, (1_000_000 + number, 1_000_000 + number))
    monkeypatch.setattr(staging, "KEEP_BYTECODE", 40)
    stage_runner(tmp_path / "stage")
    names = {p.name for p in kept.iterdir()}
    assert len(names) == 40
    staged = len(staged_sources(tmp_path / "stage"))
    assert sum(1 for name in names if not name.startswith("0" * 40)) == staged, \
        "this grader's files are the newest and stay"


def test_a_runner_file_a_submission_rewrote_is_staged_again_even_with_its_old_times(tmp_path,
                                                                                   monkeypatch):
    # At the process level a child runs as the grading user and could rewrite its runner,
    # keeping the size and setting the modification time back; the ctime still moves.
    from grader.sandbox.staging import StagedRunner
    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path / "cache"))
    runner = StagedRunner(tmp_path / "runner")
    original = runner.script.read_bytes()
    status = os.stat(runner.script)
    forged = original.replace(b"import", b"IMPORT", 1)
    assert len(forged) == len(original) and forged != original
    runner.script.write_bytes(forged)
    os.utime(runner.script, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert runner.intact().read_bytes() == original
    # and an untouched runner is left as it is
    inode = os.stat(runner.script).st_ino
    assert runner.intact().read_bytes() == original
    assert os.stat(runner.script).st_ino == inode
