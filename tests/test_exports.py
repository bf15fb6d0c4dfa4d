"""Exports stay safe whatever a submission is called or prints: no spreadsheet formula, no
unparsable XML, no raw escape sequence in the terminal."""

import csv
import io
import tracemalloc
import xml.etree.ElementTree as ElementTree

from grader.checks.verdict import failed
from grader.grading import SubmissionResult
from grader.lms.ilias import ilias_csv
from grader.lms.moodle import moodle_csv
from grader.report.messages import Catalogue
from grader.report.safe import csv_cell, terminal_text, xml_text
from grader.lms.exports import write_batch
from grader.report.writers import gradebook_csv, junit_xml

HOSTILE_NAMES = ["=HYPERLINK(\"http://evil\",\"x\")", "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"]
NASTY = "boom \x00\x01\x1b[31mred\x07 \ufffe end"


def results_named(course, names):
    results = []
    for name in names:
        verdicts = [failed(c, "item.error", type="ValueError", message=NASTY,
                                       traceback=NASTY)
                    for t in course.tasks for c in t.checks]
        results.append(SubmissionResult(name, verdicts, output={"stdout": NASTY, "stderr": ""}))
    return results


def test_formula_cells_are_neutralised_in_every_csv(course):
    results = results_named(course, HOSTILE_NAMES)
    catalogue = Catalogue("en")
    for text, delimiter in ((gradebook_csv(results, course), ","),
                            (moodle_csv(results, course, catalogue), ","),
                            (ilias_csv(results, course, catalogue).lstrip("\ufeff"), ";")):
        cells = [row[0] for row in csv.reader(io.StringIO(text), delimiter=delimiter)][1:]
        assert sorted(cells) == sorted("'" + name.replace("\t", "\\x09").replace("\r", "\\x0d")
                                       for name in HOSTILE_NAMES)


def test_junit_xml_parses_whatever_the_messages_and_output_hold(course):
    results = results_named(course, ["a\x1bb", "ok"])
    text = junit_xml(results, course, Catalogue("en"))
    tree = ElementTree.fromstring(text.encode())
    names = [suite.get("name") for suite in tree.iter("testsuite")]
    assert names == ["a\\x1bb", "ok"]
    assert "\\x1b[31mred" in text and "\x1b" not in text and "\x00" not in text



def test_junit_xml_is_written_student_by_student_never_held_whole(course, tmp_path):
    """A class's junit.xml (25 MB for 1,000 students) is written as it is made: while the
    batch's exports are written, no more is held at once than a small part of that file,
    and what is written is the text junit_xml makes."""
    results = results_named(course, [f"s{index:03d}" for index in range(100)])
    catalogue = Catalogue("en")
    batch = {"isolation": "process", "seconds": 1.0, "jobs": 1, "python": "3",
             "interrupted": False, "total": len(results), "tasks": "-", "shard": None,
             "passed_over": []}
    # first: imports, compiled templates, the catalogue's kept sentences
    write_batch(tmp_path, results, course, catalogue, batch)
    tracemalloc.start()
    try:
        write_batch(tmp_path, results, course, catalogue, batch)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    written = (tmp_path / "junit.xml").read_text(encoding="utf-8")
    assert written == junit_xml(results, course, catalogue)
    assert peak < len(written) / 3, (peak, len(written))

def test_text_for_the_terminal_shows_control_characters_as_escapes():
    assert terminal_text("x\x1b[2J\x07y\u202ez") == "x\\x1b[2J\\x07y\\u202ez"
    assert terminal_text("Grüße\n\tok") == "Grüße\n\tok"


def test_xml_text_escapes_exactly_what_xml_1_0_does_not_allow():
    """Every code point, against XML 1.0's Char production as the specification writes it."""
    def allowed(code):
        return (code in (0x9, 0xA, 0xD) or 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD
                or 0x10000 <= code <= 0x10FFFF)
    codes = range(0x110000)
    expected = "".join(chr(code) if allowed(code) else
                       f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
                       for code in codes)
    assert xml_text("".join(map(chr, codes))) == expected
    assert xml_text("a\x0bb\ufffe") == "a\\x0bb\\ufffe"


def test_the_helpers_leave_ordinary_text_alone():
    assert csv_cell("anna") == "anna" and csv_cell(3) == 3
    assert xml_text("Grüße ♟ \U0001F600") == "Grüße ♟ \U0001F600"


def test_report_files_are_as_readable_as_the_umask_allows(tmp_path):
    import os

    from grader.report.files import write_atomically
    old = os.umask(0o027)
    try:
        write_atomically(tmp_path / "group.html", "<p>x</p>")
        os.umask(0o077)
        write_atomically(tmp_path / "private.html", "<p>x</p>")
    finally:
        os.umask(old)
    assert (tmp_path / "group.html").stat().st_mode & 0o777 == 0o640
    assert (tmp_path / "private.html").stat().st_mode & 0o777 == 0o600
