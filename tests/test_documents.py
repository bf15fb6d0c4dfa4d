"""Parsed YAML kept in the cache folder (grader.yamlsrc): read back, a task file is the same
document with the same lines and problems, without parsing; a kept file that is not ours or
not of the kept shape is never trusted."""

import json
import math
import os
from datetime import date, datetime, timedelta, timezone

import pytest
import yaml

from grader import yamlsrc
from grader.yamlsrc import LocatedDict, LocatedList, load, load_plain

TEXT = """\
course: {title: "Blatt 3", language: de}
due: 2026-12-01
opens: 2026-11-20 08:30:00+01:00
tasks:
  - id: t1
    points: 1.5
    big: 123456789012345678901234567890
    weird: [.inf, -.inf, -0.0, ~, true, "07"]
    3: int key
    true: bool key
    2026-01-02: date key
    tree: {A: {B: [3, 5], C: [2, 9]}}
  - id: t1
    id: again
"""


def shape(value):
    """A value with every line and type spelt out, for exact comparison."""
    if isinstance(value, LocatedDict):
        return ("map", value.line, [(type(k).__name__, k, value.line_of(k), shape(v))
                                    for k, v in value.items()])
    if isinstance(value, LocatedList):
        return ("seq", value.line, [(value.line_of(i), shape(v)) for i, v in enumerate(value)])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    if isinstance(value, float):
        return ("float", repr(value))
    return (type(value).__name__, value)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / yamlsrc.DOCUMENTS


def no_parsing(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("parsed again")
    monkeypatch.setattr(yaml, "compose", refuse)
    monkeypatch.setattr(yaml, "load", refuse)


def test_a_kept_document_is_the_parsed_one_down_to_lines_types_and_problems(
        tmp_path, cache, monkeypatch):
    (tmp_path / "a.yaml").write_text(TEXT)
    parsed, problems = load(tmp_path / "a.yaml")
    assert [str(p) for p in problems] == [f"{tmp_path / 'a.yaml'}:14: duplicate key 'id' "
                                          "(first at line 13); remove or rename one of them"]
    task = parsed["tasks"][0]
    assert parsed["due"] == date(2026, 12, 1)
    assert parsed["opens"] == datetime(2026, 11, 20, 8, 30, tzinfo=timezone(timedelta(hours=1)))
    assert task["big"] == 123456789012345678901234567890 and task[3] == "int key"
    assert len(list(cache.iterdir())) == 1
    no_parsing(monkeypatch)
    # the same text elsewhere: the same document, its problems named by the new file
    (tmp_path / "b.yaml").write_text(TEXT)
    kept, kept_problems = load(tmp_path / "b.yaml")
    assert shape(kept) == shape(parsed)
    assert [(p.line, p.message) for p in kept_problems] == [(p.line, p.message) for p in problems]
    assert {p.file for p in kept_problems} == {str(tmp_path / "b.yaml")}


def test_a_kept_document_others_could_write_or_of_another_shape_is_parsed_afresh(
        tmp_path, cache):
    (tmp_path / "a.yaml").write_text(TEXT)
    parsed, _ = load(tmp_path / "a.yaml")
    [kept] = cache.iterdir()
    os.chmod(kept, 0o666)
    assert shape(load(tmp_path / "a.yaml")[0]) == shape(parsed)
    assert oct(kept.stat().st_mode & 0o777) == "0o600", "written again, as ours"
    for forged in ({"m": 1, "k": [["course", 1, {"x": 1}]]},       # an object of no kept form
                   {"m": 1, "k": [["a", 1, 1], ["a", 2, 2]]},       # a key twice
                   {"m": "1", "k": []},                              # a line that is no number
                   {"m": 1, "k": [], "x": 1},                        # a key too many
                   {"s": 1, "i": [[1, [1, 2]]]}):                    # a bare list
        kept.write_text(json.dumps({"format": yamlsrc.DOCUMENT_FORMAT, "document": forged,
                                    "problems": []}))
        assert shape(load(tmp_path / "a.yaml")[0]) == shape(parsed)


def test_what_json_cannot_bring_back_is_not_kept(tmp_path, cache):
    (tmp_path / "a.yaml").write_text("blob: !!binary aGVsbG8=\n")
    assert load(tmp_path / "a.yaml")[0] == {"blob": b"hello"}
    assert not list(cache.iterdir())


def test_files_that_do_not_parse_are_not_kept(tmp_path, cache):
    (tmp_path / "a.yaml").write_text("a: [1, 2\n")
    document, problems = load(tmp_path / "a.yaml")
    assert document is None and problems[0].line == 2
    assert not cache.exists() or not list(cache.iterdir())


def test_a_catalogue_is_kept_as_plain_data(tmp_path, cache, monkeypatch):
    (tmp_path / "de.yaml").write_text("ui:\n  hello: 'Hallo {{ name }}'\n  n: 3\n  x: .inf\n")
    parsed = load_plain(tmp_path / "de.yaml")
    no_parsing(monkeypatch)
    kept = load_plain(tmp_path / "de.yaml")
    assert kept == parsed == {"ui": {"hello": "Hallo {{ name }}", "n": 3, "x": math.inf}}


def test_without_the_cache_nothing_is_kept(tmp_path, cache, monkeypatch):
    monkeypatch.setenv("GRADER_NO_CACHE", "1")
    (tmp_path / "a.yaml").write_text(TEXT)
    load(tmp_path / "a.yaml")
    assert not cache.exists()
