"""What a student sees first: the self-check's terminal lines (failures whole, a passing task in
one line, a module failure said once; wrapped between words at the terminal's width, not at
all without one) and feedback.html's overview (points per task, failed checks linked)."""

import html.parser
import os
import subprocess
import sys

import pytest

from grader.report.terminal import render

from conftest import ROOT


def check_output(student, tmp_path, **env):
    done = subprocess.run([sys.executable, "-m", "grader.cli", "check",
                           str(ROOT / "submissions" / student), "--out", str(tmp_path),
                           "--lang", "en"], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env={**os.environ, **env})
    return done.returncode, done.stdout.splitlines()


def test_a_correct_submission_is_one_line_per_task(tmp_path, course):
    status, lines = check_output("korrekt", tmp_path)
    assert status == 0
    tasks = [line for line in lines if line.startswith("✔ ")]
    assert len(tasks) == len(course.tasks)
    assert len(lines) == 1 + 1 + len(course.tasks) + 1 + 1 + 2   # title, blank, tasks, blank,
    assert not any(line.startswith("✘") for line in lines)        # hidden, page, points


def test_a_faulty_submission_shows_its_failures_first_and_whole(tmp_path, course):
    status, lines = check_output("strikter-schnitt", tmp_path)
    assert status == 1
    failed = [i for i, line in enumerate(lines) if line.startswith("✘ ")]
    passed = [i for i, line in enumerate(lines) if line.startswith("✔ ")]
    assert max(failed) < min(passed), "the failing tasks come first"
    assert [lines[i].split("(")[-1] for i in failed] == [
        "ttt-midgame-a): 5/6", "ttt-midgame-b): 5/6", "random-trees): 4/6"]
    detail = lines[failed[0] + 1]
    # the whole message on one line: no terminal, so no hard wrap in the middle of it
    assert detail.startswith("  ✘ alphabeta · Number of visited nodes (0/1): You visit 125 "
                             "nodes, the reference only 88.")
    assert detail.endswith("(the lecture's pseudo-code: “if β ≤ α: break”).")
    assert lines[failed[0] + 2] == "  ✔ 5 more checks passed"
    assert len(lines) < 30


def test_a_module_failure_is_said_once_and_its_checks_are_not_listed(tmp_path, course):
    status, lines = check_output("syntaxfehler", tmp_path)
    assert status == 1
    assert lines[1].startswith("✘ minimax, alphabeta, negamax: minimax.py cannot be loaded: "
                               "SyntaxError")
    assert sum("SyntaxError" in line for line in lines) == 1
    assert not any(line.startswith("  ✘") for line in lines), "no check listed one by one"
    assert "✘ Aufgabe 1: Minimax und Alpha-Beta am Baum des Blatts (tree-blatt3): 0/14 " \
           "(see above: alphabeta, minimax, negamax)" in lines


@pytest.mark.parametrize("width", [24, 40, 80])
def test_lines_are_wrapped_between_words_under_their_text(width):
    text = (" alphabeta · Number of visited nodes (0/1): You visit 125 nodes, the reference "
            "only 88; counterexample {A: [-3, [-3, 0]]} at https://example.org/a-very-long-"
            "address-that-is-one-word")
    wrapped = render([("red", "  ✘", text)], width)
    pieces = [mark + rest for _, mark, rest in wrapped]
    words = text.split()
    assert " ".join(" ".join(pieces).split()) == "✘ " + " ".join(words)
    assert all(piece.startswith("    ") for piece in pieces[1:]), "under the text, not the mark"
    for piece in pieces:
        assert len(piece) <= width or len(piece.split()) == 1 or piece.strip() in words
        assert all(word in words or word == "✘" for word in piece.split()), "never mid-word"


def test_without_a_width_nothing_is_wrapped():
    lines = [("red", "✘", " " + "word " * 200)]
    assert render(lines, None) == lines


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.overview_links, self.in_overview = set(), [], False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "nav" and attrs.get("class") == "overview":
            self.in_overview = True
        if tag == "a" and self.in_overview:
            self.overview_links.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == "nav":
            self.in_overview = False


def test_feedback_html_starts_with_an_overview_linking_every_failed_check(tmp_path):
    check_output("strikter-schnitt", tmp_path)
    page = (tmp_path / "strikter-schnitt" / "feedback.html").read_text()
    links = Links()
    links.feed(page)
    assert page.index('<nav class="overview"') < page.index("<section")
    failed = [href for href in links.overview_links if href.count("/") == 2]
    assert failed == ["#ttt-midgame-a/alphabeta/count", "#ttt-midgame-b/alphabeta/count",
                      "#random-trees/alphabeta/random-trees"]
    assert all(href[1:] in links.ids for href in links.overview_links), "every link lands"
