"""What a student's code prints (issue 23): captured from pipes the parent drains, cut at a
cap with the bytes dropped counted and said in the reports, and never a failure of the
student's code, whatever it prints, in grading and in a tournament.  Real sandboxed children
at the strongest level that works here (tests/test_hostile.py floods both strong levels)."""

from __future__ import annotations

import json
import re
import shutil
import time
from collections import Counter
from pathlib import Path

import markupsafe
import pytest

from grader.report.messages import Catalogue
from grader.report.views import SHOWN_OUTPUT
from grader.report.writers import JUNIT_OUTPUT, junit_xml, render_student
from grader.sandbox.captured import OUTPUT_CAP
from grader.sandbox.base import ResourceLimits
from grader.sandbox.levels import best_level
from grader.sandbox.launcher import Child

from conftest import DATA, ROOT

OUTPUT = DATA / "debug-output"
OLD_FILE_LIMIT = 1 << 20         # what a child could print before its print failed (EFBIG)


@pytest.fixture
def child(tmp_path, child_script):
    """A child of the drucker/ modules at the strongest level here, stopped afterwards."""
    started = Child(child_script, OUTPUT / "drucker", tmp_path, best_level(),
                    ResourceLimits(cpu_seconds=60))
    yield started
    started.stop()


def load(child, module):
    return json.loads(child.request({"op": "load", "module": module}, 20))


# -- the launcher: pipes, cap, counts, phases -------------------------------------------------

def test_every_way_of_printing_is_captured_cut_at_the_cap_and_counted(child):
    assert load(child, "viel")["status"] == "ok"
    output = child.output()
    stdout = 2_000_000 + 300_000 + 200_000 + 100_000 + 50_000      # as viel.py writes it
    stderr = 1_000_000 + 24_000
    assert output["stdout"] == ("z" * 199 + "\n") * (OUTPUT_CAP // 200) + "z" * (OUTPUT_CAP % 200)
    assert output["stdout_dropped"] == stdout - OUTPUT_CAP
    assert len(output["stderr"]) == OUTPUT_CAP
    assert output["stderr_dropped"] == stderr - OUTPUT_CAP


def test_a_child_printing_while_nobody_reads_blocks_only_itself(child):
    assert load(child, "hintergrund")["status"] == "ok"
    # Between requests nothing reads: the thread fills its pipe and waits.  The next request
    # is answered all the same (its output is read while the parent waits), and so is
    # looking at the output (a bounded drain), with the thread still printing.
    # How far the thread gets depends on the machine's load, so the output is looked at
    # again (each look a request of its own) until it has grown: a child that blocked the
    # parent, or whose printing stopped the runner, never gets there.
    first = _printed_past(child, "vorher", 0)
    _printed_past(child, "nachher", first)


def _printed_past(child, module, dropped, tries=200):
    """Load ``module`` (answered while the thread prints) until the bytes dropped from
    stdout exceed ``dropped``; return them."""
    for _ in range(tries):
        assert load(child, module)["status"] == "ok"
        now = child.output()["stdout_dropped"]
        if now > dropped:
            return now
        time.sleep(0.05)
    pytest.fail(f"the printing thread got no further than {dropped} dropped bytes")


def test_output_after_the_mark_is_kept_apart(child):
    assert load(child, "vorher")["status"] == "ok"
    child.mark_output()
    assert load(child, "nachher")["status"] == "ok"
    output = child.output()
    assert (output["stdout"], output["later_stdout"]) == ("vorher\n", "nachher\n")
    child.stop()                              # what was left in the pipes is read at the end
    assert child.output()["later_stdout"] == "nachher\n"


# -- grading: a correct search that prints keeps its marks -------------------------------------

@pytest.fixture(scope="module")
def printing_search(grade, course):
    return grade(OUTPUT / "korrekt-mit-ausgaben"), course


def test_a_correct_search_that_prints_a_line_per_node_keeps_full_marks(printing_search):
    result, _ = printing_search
    assert result.score == result.max_score, [(v.check.id, v.reason) for v in result.verdicts
                                              if not v.passed]
    printed = sum(len(result.output[stream].encode()) + result.output[f"{stream}_dropped"]
                  for stream in ("stdout", "stderr"))
    assert printed > 2 * OLD_FILE_LIMIT            # far more than a file could take before


def test_its_feedback_shows_the_output_cut_with_the_bytes_dropped(printing_search):
    result, course = printing_search
    catalogue = Catalogue(course.language)
    output = result.output
    printed = sum(len(output[stream].encode()) + output[f"{stream}_dropped"]
                  for stream in ("stdout", "stderr"))
    shown = (output["stdout"] + output["stderr"])[:SHOWN_OUTPUT]
    dropped = printed - len(shown.encode())
    files = render_student(result, course, catalogue)
    for page, render, escape in (("feedback.md", catalogue.text, str),
                                 ("feedback.html", catalogue.html, markupsafe.escape)):
        assert str(escape(shown.splitlines()[0])) in files[page]
        assert str(render("ui.output_dropped", bytes=dropped)) in files[page], page
        assert "File too large" not in files[page] and "OSError" not in files[page]


def test_output_of_hidden_checks_reaches_only_the_instructor(printing_search):
    result, course = printing_search
    catalogue = Catalogue(course.language)
    assert result.output["later_stdout"]           # the hidden checks printed too
    hidden = catalogue.text("ui.output_hidden")
    files = render_student(result, course, catalogue)
    assert hidden not in files["feedback.md"] and hidden not in files["feedback.html"]
    junit = junit_xml([result], course, catalogue)
    assert hidden in junit
    everything = sum(len(result.output[key].encode()) + result.output[f"{key}_dropped"]
                     for key in ("stdout", "stderr", "later_stdout", "later_stderr"))
    system_out = re.search(r"<system-out>(.*?)</system-out>", junit, re.S).group(1)
    stated = int(re.search(r"([\d.]+) weitere Bytes", system_out).group(1).replace(".", ""))
    # what is not shown of both phases (a character of text is 1 to 4 bytes)
    assert everything - 4 * JUNIT_OUTPUT <= stated <= everything - JUNIT_OUTPUT


# -- a tournament: a player that prints never forfeits -----------------------------------------

NIM = {"kind": "nim", "sticks": 20, "max_take": 3, "last_loses": True}
PRINTED_PER_MOVE = 80 * 205       # spieler-mit-ausgaben prints this at every move
PRINTERS = 4


def test_a_player_printing_16_kb_per_move_forfeits_no_game_in_a_16_player_tournament(tmp_path):
    from grader.play.entrants import Setup, stage_entrants
    from grader.play.tournament import run_tournament
    submissions = tmp_path / "abgaben"
    for number in range(1, PRINTERS + 1):
        shutil.copytree(OUTPUT / "spieler-mit-ausgaben", submissions / f"drucker-{number}")
    baselines = ["random", "greedy"] + [f"alphabeta:{d}" for d in range(1, 16 - PRINTERS - 1)]
    entrants, left_out = stage_entrants(submissions, tmp_path / "staged", ("minimax",),
                                        baselines)
    assert len(entrants) == 16 and not left_out
    # one arena: every printer's child is kept for all its matchups (at most 8 are kept)
    setup = Setup(title="t", language="de", task="t", spec=NIM, module="minimax",
                  function="alphabeta", depth=3, evaluation=None, move_seconds=2.0,
                  game_seconds=30.0, opening=2, seed=5, pairs=1, level=best_level())
    record = run_tournament(setup, entrants, tmp_path / "turnier", jobs=1).record
    assert record["complete"] and len(record["games"]) == 16 * 15
    forfeits = Counter((g["replay"]["players"][g["replay"]["forfeit"]["player"]]["name"],
                        g["replay"]["forfeit"]["reason"])
                       for g in record["games"] if g["replay"]["forfeit"])
    assert not forfeits
    moves = Counter(g["replay"]["players"][m["player"]]["name"]
                    for g in record["games"] for m in g["replay"]["moves"]
                    if not m.get("opening"))
    for number in range(1, PRINTERS + 1):
        # each printer's child printed well past what its output file could take before
        assert moves[f"drucker-{number}"] * PRINTED_PER_MOVE > 1.5 * OLD_FILE_LIMIT
