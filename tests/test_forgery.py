"""The forgery scan: every way of reaching for the runner is flagged with file and line, and
correct solutions, whatever their style, are not."""

import json
import os
import sys
from pathlib import Path

import pytest

from grader.submissions.forgery.rules import KINDS, MAX_FINDINGS
from grader.submissions.forgery.scan import Finding, findings_json, scan

from conftest import DATA, ROOT

FORGERY = DATA / "forgery"
CORRECT = sorted({path.parent for pattern in ("submissions/*/*.py", "tests/data/styles/*/*.py",
                                              "tests/data/conventions/*/*/*.py",
                                              "tests/data/set-order/*.py")
                  for path in ROOT.glob(pattern)})


def flagged(folder: Path) -> set[tuple[str, int, str]]:
    return {(f.file, f.line, f.kind) for f in scan(folder)}


def lines_of(folder: Path, kind: str) -> set[int]:
    return {f.line for f in scan(folder) if f.kind == kind}


def test_the_correct_solutions_are_found():
    # Guards the test below against passing because the glob matched nothing.
    assert len(CORRECT) >= 20
    assert ROOT / "submissions" / "korrekt" in CORRECT


@pytest.mark.parametrize("folder", CORRECT, ids=lambda p: str(p.relative_to(ROOT)))
def test_correct_solutions_are_not_flagged(folder):
    assert scan(folder) == []


def test_lookalike_names_comments_and_harmless_sys_uses_are_not_flagged():
    # A Frame class, a gc variable that is not the gc module, inspect.signature, print to
    # stderr, sys.stdout reassigned, sys.modules[__name__], os.write(1), the __main__ guard,
    # and a docstring and a comment that name frames and gc.get_objects.
    assert scan(FORGERY / "lookalikes") == []


def test_existing_forged_results_submission_is_flagged_at_the_pipe_write():
    findings = scan(DATA / "hostile" / "forged-results")
    assert ("minimax.py", 19, "reply-descriptor") in {(f.file, f.line, f.kind) for f in findings}
    assert any("sys.argv" in f.what for f in findings)


def test_existing_patch_modules_submission_is_flagged_at_the_patch():
    assert flagged(DATA / "hostile" / "patch-modules") == {("minimax.py", 14, "runner-modules")}


def test_frame_walk_to_the_runners_locals_is_flagged_on_each_line():
    assert lines_of(FORGERY / "frames", "frame-introspection") == {7, 9, 10, 11}


def test_frame_access_through_aliases_is_flagged():
    lines = lines_of(FORGERY / "frame-aliases", "frame-introspection")
    # from-imports (4, 5), import-as (9), getattr on a re-bound alias (13), a stored bound
    # method (17), inspect.stack (21), a traceback's tb_frame (29), settrace (36), calls
    # through the from-import names (40, 41), traceback.walk_stack (42).
    assert lines == {4, 5, 9, 13, 17, 21, 29, 36, 40, 41, 42}


def test_alias_findings_say_what_the_alias_stands_for():
    whats = {f.line: f.what for f in scan(FORGERY / "frame-aliases")}
    assert whats[9] == "s._getframe (sys._getframe)"
    assert whats[40] == "here (sys._getframe)"


def test_gc_searches_are_flagged_through_import_calls():
    assert lines_of(FORGERY / "gc-objects", "gc-introspection") == {7, 11, 18, 19}


def test_reply_descriptor_writes_are_flagged_but_not_the_argv_read():
    assert lines_of(FORGERY / "reply-fd", "reply-descriptor") == {10, 11, 12, 14, 16, 17}


def test_proc_self_paths_are_flagged_also_in_f_strings():
    assert lines_of(FORGERY / "proc-self", "proc-self") == {5, 10}


def test_runner_modules_imports_lookups_and_patches_are_flagged():
    assert lines_of(FORGERY / "runner-modules", "runner-modules") == {5, 6, 8, 9, 16, 17, 18,
                                                                       19, 23}


def test_builtins_patching_is_flagged_in_all_three_forms():
    assert flagged(FORGERY / "builtins-patching") == {
        ("minimax.py", 8, "builtins-patching"), ("minimax.py", 9, "builtins-patching"),
        ("minimax.py", 10, "builtins-patching")}


def test_ctypes_and_proc_self_mem_are_flagged_as_native_memory():
    assert lines_of(FORGERY / "native-memory", "native-memory") == {1, 5, 9}


def test_computed_names_are_flagged_and_literal_exec_is_scanned_as_code():
    findings = scan(FORGERY / "dynamic-code")
    assert {(f.line, f.kind) for f in findings} == {
        (8, "dynamic-code"), (12, "dynamic-code"), (15, "gc-introspection"),
        (16, "dynamic-code")}
    assert next(f.what for f in findings if f.line == 15) == "exec: gc.get_objects"


def test_python_2_file_that_does_not_parse_is_still_flagged_by_tokens():
    source = (FORGERY / "python2-syntax" / "minimax.py").read_text()
    with pytest.raises(SyntaxError):
        compile(source, "minimax.py", "exec", dont_inherit=True)
    # Line 8 is a comment naming frame.f_globals: the tokenizer skips it.
    assert flagged(FORGERY / "python2-syntax") == {
        ("minimax.py", 6, "frame-introspection"), ("minimax.py", 7, "frame-introspection"),
        ("minimax.py", 14, "gc-introspection")}


def test_past_an_unterminated_string_raw_lines_are_still_matched(tmp_path):
    (tmp_path / "minimax.py").write_text(
        'import sys\nframe = sys._getframe(1)\ntext = """never closed\n'
        "f = open('/proc/self/fd/4', 'w')\n")
    assert flagged(tmp_path) == {("minimax.py", 2, "frame-introspection"),
                                 ("minimax.py", 4, "reply-descriptor")}


def test_symlinks_to_files_and_folders_are_not_followed(tmp_path):
    student = tmp_path / "student"
    student.mkdir()
    (student / "minimax.py").write_text("def minimax(game, state):\n    return 0, None\n")
    (student / "helper.py").symlink_to(FORGERY / "frames" / "minimax.py")
    (student / "lib").symlink_to(FORGERY / "gc-objects", target_is_directory=True)
    (student / "loop").symlink_to(student, target_is_directory=True)
    assert scan(student) == []
    # The same files, copied rather than linked, are flagged: the links were what hid them.
    (student / "helper.py").unlink()
    (student / "helper.py").write_bytes((FORGERY / "frames" / "minimax.py").read_bytes())
    assert lines_of(student, "frame-introspection") == {7, 9, 10, 11}


def test_a_file_over_the_size_limit_is_reported_not_scanned(tmp_path):
    padding = "# " + "x" * 78 + "\n"
    text = "import sys\nsys._getframe(1)\n" + padding * ((3 << 20) // len(padding))
    (tmp_path / "minimax.py").write_text(text)
    (tmp_path / "small.py").write_text("import gc\ngc.get_objects()\n")
    findings = scan(tmp_path)
    assert [(f.file, f.line, f.kind) for f in findings] == [
        ("minimax.py", 1, "not-scanned"), ("small.py", 2, "gc-introspection")]


def test_more_files_than_the_limit_are_reported_once(tmp_path):
    for index in range(5):
        (tmp_path / f"m{index}.py").write_text("import gc\ngc.get_objects()\n")
    findings = scan(tmp_path, max_files=3)
    assert [(f.file, f.kind) for f in findings] == [
        ("m0.py", "gc-introspection"), ("m1.py", "gc-introspection"),
        ("m2.py", "gc-introspection"), ("m3.py", "not-scanned")]


def test_compiled_modules_beside_the_source_are_reported(tmp_path):
    (tmp_path / "helper.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "helper.cpython-311.pyc").write_bytes(b"\0" * 16)
    assert flagged(tmp_path) == {("helper.cpython-311-x86_64-linux-gnu.so", 1, "not-scanned")}


def test_findings_are_capped_and_deduplicated(tmp_path):
    lines = ["import gc, sys"] + ["gc.get_objects(); gc.get_referrers(1)"] * 80
    lines.append("sys._getframe(); sys._getframe(1)")
    (tmp_path / "minimax.py").write_text("\n".join(lines) + "\n")
    findings = scan(tmp_path)
    assert len(findings) == MAX_FINDINGS
    assert len({(f.file, f.line, f.kind) for f in findings}) == MAX_FINDINGS
    assert [f.line for f in findings] == list(range(2, 2 + MAX_FINDINGS))


def test_a_file_that_is_not_utf8_is_still_scanned(tmp_path):
    (tmp_path / "minimax.py").write_bytes(
        "# Spielbaum für Blatt 3\nimport sys\nname = 'Müller'\nf = sys._getframe()\n"
        .encode("latin-1"))
    assert flagged(tmp_path) == {("minimax.py", 4, "frame-introspection")}


def test_control_characters_in_names_and_constructs_are_escaped(tmp_path):
    name = "evil\x1b[2K\rok.py"
    (tmp_path / name).write_text("import sys\nsys._getframe()\nopen('/proc/self/fd/\\n4')\n")
    findings = scan(tmp_path)
    assert {f.file for f in findings} == {"evil\\x1b[2K\\x0dok.py"}
    for finding in findings:
        assert all(ch.isprintable() for ch in finding.file + finding.what)


def test_nested_folders_give_posix_paths_relative_to_the_submission(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "sub" / "deep.py").write_text("import ctypes\n")
    assert flagged(tmp_path) == {("pkg/sub/deep.py", 1, "native-memory")}


def test_a_missing_folder_gives_no_findings_and_no_error(tmp_path):
    assert scan(tmp_path / "nowhere") == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files without permission")
def test_an_unreadable_file_is_reported_not_scanned(tmp_path):
    path = tmp_path / "minimax.py"
    path.write_text("import gc\ngc.get_objects()\n")
    path.chmod(0)
    try:
        assert flagged(tmp_path) == {("minimax.py", 1, "not-scanned")}
    finally:
        path.chmod(0o644)


def test_findings_json_is_plain_data_for_results_json():
    finding = Finding("minimax.py", 7, "frame-introspection", "sys._getframe")
    data = findings_json([finding])
    assert data == [{"file": "minimax.py", "line": 7, "kind": "frame-introspection",
                     "what": "sys._getframe"}]
    assert json.loads(json.dumps(data)) == data


def test_every_kind_has_a_message_in_both_languages():
    import yaml
    from grader.report.messages import MESSAGES_DIR, Catalogue
    for language in ("de", "en"):
        section = yaml.safe_load((MESSAGES_DIR / f"{language}.yaml").read_text())["forgery"]
        assert set(section) == set(KINDS)
        catalogue = Catalogue(language)
        for kind in KINDS:
            text = catalogue.text(f"forgery.{kind}", what="sys._getframe")
            assert "sys._getframe" in text


def test_scanning_never_imports_or_runs_the_student_code(tmp_path):
    marker = tmp_path / "ran"
    (tmp_path / "minimax.py").write_text(
        f"open({str(marker)!r}, 'w').close()\nimport sys\nsys._getframe()\n")
    before = set(sys.modules)
    assert flagged(tmp_path) == {("minimax.py", 3, "frame-introspection")}
    assert not marker.exists()
    assert "minimax" not in set(sys.modules) - before


def test_module_dicts_star_imports_posix_and_attribute_name_strings_are_followed():
    findings = {(f.line, f.kind): f.what for f in scan(FORGERY / "more-aliases")}
    assert set(findings) == {(6, "frame-introspection"), (7, "frame-introspection"),
                             (8, "runner-modules"), (9, "reply-descriptor")}
    assert findings[(9, "reply-descriptor")] == "posix.write(3, …) (os.write)"
