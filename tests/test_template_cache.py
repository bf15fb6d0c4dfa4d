"""Compiled report templates kept in the cache folder: read back only when they are ours and
nobody else could have written them (a compiled template is code)."""

import os
import re
import subprocess
import sys

import jinja2

from grader.report.compiled import OwnBytecodeCache

from conftest import ROOT


def cached_bucket(folder):
    cache = OwnBytecodeCache(str(folder))
    environment = jinja2.Environment()
    source = "{{ 1 + 1 }}"
    bucket = cache.get_bucket(environment, "t.j2", None, source)
    bucket.code = environment.compile(source, "t.j2", "t.j2")
    cache.set_bucket(bucket)
    path = folder / (cache.pattern % bucket.key)
    return cache, environment, source, path


def test_a_compiled_template_of_ours_is_read_back(tmp_path):
    cache, environment, source, path = cached_bucket(tmp_path)
    os.chmod(path, 0o600)
    assert cache.get_bucket(environment, "t.j2", None, source).code is not None


def refused_when_others_could_write_it_or_a_link_stands_in(bucket_of, path, own_mode, spare):
    """A compiled template that others could write is not read, nor one behind a link in its
    place, even to a file of ours (``spare``: where the real file goes meanwhile)."""
    os.chmod(path, 0o666)
    assert bucket_of().code is None
    os.chmod(path, own_mode)
    os.rename(path, spare)
    os.symlink(spare, path)
    assert bucket_of().code is None


def test_a_compiled_template_others_could_write_is_not_read(tmp_path):
    cache, environment, source, path = cached_bucket(tmp_path)
    refused_when_others_could_write_it_or_a_link_stands_in(
        lambda: cache.get_bucket(environment, "t.j2", None, source), path, 0o600,
        tmp_path / "real")


def test_the_pages_are_the_same_compiled_afresh_or_read_from_the_cache(tmp_path):
    """Two self-checks, the first filling the template cache, the second reading it."""
    pages = []
    for run in range(2):
        out = tmp_path / f"out-{run}"
        subprocess.run([sys.executable, "-m", "grader.cli", "check", "submissions/korrekt",
                        "--out", str(out), "--sandbox", "process"], cwd=ROOT, check=True,
                       capture_output=True, env={**os.environ,
                                                 "GRADER_CACHE_DIR": str(tmp_path / "cache")})
        pages.append([re.sub(r"[0-9]+\.[0-9]+ s", "_ s", (out / "korrekt" / name).read_text())
                      for name in ("feedback.md", "feedback.html")])
    assert list((tmp_path / "cache" / "templates").iterdir())
    assert pages[0] == pages[1]


def test_messages_are_compiled_once_and_kept_apart_by_language_and_escaping(tmp_path, monkeypatch):
    """The catalogue's entries are kept compiled too: read back in a new process (here: a new
    catalogue), the same key in the other language or the other environment (HTML escapes,
    the terminal does not) is another entry, never the first one's code."""
    from grader.report.messages import Catalogue
    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path / "cache"))
    name = "<b>Ada</b>"

    def rendered():
        german, english = Catalogue("de"), Catalogue("en")
        return (german.text("ui.feedback_title", student=name),
                str(german.html("ui.feedback_title", student=name)),
                english.text("ui.feedback_title", student=name),
                str(english.html("ui.feedback_title", student=name)))
    first = rendered()
    files = sorted(p.name for p in (tmp_path / "cache" / "templates").iterdir())
    assert any(f.startswith("__messages_text_") for f in files)
    assert any(f.startswith("__messages_html_") for f in files)
    import jinja2

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled again")
    monkeypatch.setattr(jinja2.Environment, "compile", no_compiling)
    assert rendered() == first == ("Rückmeldung für <b>Ada</b>",
                                   "Rückmeldung für &lt;b&gt;Ada&lt;/b&gt;",
                                   "Feedback for <b>Ada</b>",
                                   "Feedback for &lt;b&gt;Ada&lt;/b&gt;")
    assert sorted(p.name for p in (tmp_path / "cache" / "templates").iterdir()) == files


def probe_catalogue():
    """The English catalogue with two more entries, ``probe.value`` and ``probe.raw``, that
    show their facts."""
    from grader.report.messages import Catalogue
    catalogue = Catalogue("en")
    catalogue.entries = {**catalogue.entries,
                         "probe": {"value": "{{ value|num }} {{ more|nodes }}",
                                   "raw": "{{ value }}"}}
    return catalogue


def test_a_kept_sentence_is_only_reused_for_facts_of_the_same_values_and_types():
    """A catalogue keeps the sentences it rendered; facts that are equal in Python but shown
    differently (1, 1.0 and True, 0.0 and -0.0, text and markup) each get their own."""
    from markupsafe import Markup
    catalogue = probe_catalogue()
    values = [1, 1.0, True, -0.0, 0.0, 1, "<b>", Markup("<b>")]
    texts = [catalogue.text("probe.value", value=value, more=["A"]) for value in values]
    assert texts == ["1 A", "1.0 A", "True A", "-0.0 A", "0.0 A", "1 A", "<b> A", "<b> A"]
    pages = [str(catalogue.html("probe.raw", value=value)) for value in values]
    assert pages == ["1", "1.0", "True", "-0.0", "0.0", "1", "&lt;b&gt;", "<b>"]
    assert catalogue.text("probe.value", value=1, more={"A": 1}) == "1 A"
    assert catalogue.text("probe.value", value=[1, 2.0], more=[]) == "(1, 2.0)"


def shipped_bucket(tmp_path):
    """A template compiled beside a package (``package/__pycache__/templates``), none in the
    cache folder."""
    for folder, mode in (("cache", 0o700), ("other-cache", 0o700), ("package", 0o755)):
        (tmp_path / folder).mkdir(mode=mode)
    writer = OwnBytecodeCache(str(tmp_path / "other-cache"), shipped=tmp_path / "package")
    environment = jinja2.Environment()
    source = "{{ 1 + 1 }}"
    bucket = writer.get_bucket(environment, "t.j2", None, source)
    bucket.code = environment.compile(source, "t.j2", "t.j2")
    writer.set_bucket(bucket)
    reader = OwnBytecodeCache(str(tmp_path / "cache"), shipped=tmp_path / "package")
    path = tmp_path / "package" / "__pycache__" / "templates" / (writer.pattern % bucket.key)
    return reader, environment, source, path


def test_an_empty_cache_folder_reads_the_templates_compiled_beside_the_package(tmp_path):
    """A new cache folder (a CI runner's) takes the compiled template kept beside the
    installed grader, and keeps it itself for the next check."""
    reader, environment, source, path = shipped_bucket(tmp_path)
    assert path.is_file() and (path.stat().st_mode & 0o777) == 0o644
    assert reader.get_bucket(environment, "t.j2", None, source).code is not None
    assert [p.name for p in (tmp_path / "cache").iterdir()] == [path.name]


def test_a_template_compiled_beside_the_package_that_others_could_write_is_not_read(tmp_path):
    reader, environment, source, path = shipped_bucket(tmp_path)
    refused_when_others_could_write_it_or_a_link_stands_in(
        lambda: reader.get_bucket(environment, "t.j2", None, source), path, 0o644,
        tmp_path / "real")
    os.unlink(path)
    os.rename(tmp_path / "real", path)
    assert reader.get_bucket(environment, "t.j2", None, source).code is not None
    for cached in (tmp_path / "cache").iterdir():
        cached.unlink()
    os.chmod(path.parent, 0o777)
    assert reader.get_bucket(environment, "t.j2", None, source).code is None


def test_the_cache_turned_off_reads_nothing_beside_the_package(tmp_path, monkeypatch):
    reader, environment, source, path = shipped_bucket(tmp_path)
    monkeypatch.setenv("GRADER_NO_CACHE", "1")
    assert reader.get_bucket(environment, "t.j2", None, source).code is None
