"""The answer form of a hand exercise, filled in as a student would, in a real browser
(headless Chromium): the file it saves is graded, on that student's own tree."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from grader.answers.book import AnswerBook
from grader.cli import main
from grader.grading import grade_submission, prepare
from grader.hand.notation import show
from grader.hand.sheets import call_for, from_roster
from grader.tasks import load_course

from conftest import CHROMEDRIVER, CHROMIUM, NO_BROWSER, ROOT, open_page

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason=NO_BROWSER)

COURSE = ROOT / "courses" / "von-hand-varianten"
ROSTER = COURSE / "teilnehmer.csv"


def wait_for(path: Path, seconds: float = 20.0) -> Path:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and path.stat().st_size > 0:
            return path
        time.sleep(0.1)
    raise AssertionError(f"{path} was not saved")


def test_a_student_fills_in_the_form_and_the_saved_file_gets_full_marks(browser, tmp_path,
                                                                       child_script):
    assert main(["sheets", "--tasks", str(COURSE / "tasks"), "--roster", str(ROSTER),
                 "--out", str(tmp_path / "sheets"), "--no-moodle"]) == 0
    course = load_course(COURSE / "tasks")
    student = from_roster(ROSTER)[4]                     # Elif Yılmaz: a name with ı
    answer = AnswerBook()[call_for(course.task("aufgabe1"), student.key)][0]
    run = answer["alphabeta"]
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    browser.execute_cdp_cmd("Browser.setDownloadBehavior",
                            {"behavior": "allow", "downloadPath": str(downloads)})
    errors = open_page(browser, tmp_path / "sheets" / student.folder / "aufgabe1-form.html")
    assert errors == []

    def field(question, node=None):
        selector = f'[data-question="{question}"]' + (f'[data-node="{node}"]' if node else "")
        return browser.find_element("css selector", selector)

    inner = [n for n in answer["order"] if n in answer["children"]]
    for node in inner:
        field("values", node).send_keys(show(answer["values"][node]))
        if node in run["intervals"]:
            alpha, beta = run["intervals"][node]
            field("alpha", node).send_keys(show(alpha))        # −∞ typed as the sign itself
            field("beta", node).send_keys("+inf" if beta == float("inf") else show(beta))
            field("returns", node).send_keys(show(run["returns"][node]))
        else:
            field("interval-pruned", node).click()
            field("return-pruned", node).click()
    for parent, child in run["cut_edges"]:
        browser.find_element("css selector", f'[data-question="cut"][data-parent="{parent}"]'
                             f'[data-child="{child}"]').click()
    field("visited").send_keys(str(len(run["visits"])))
    table = answer["orders"]["C"]
    best = next(order for order, count in table["orders"] if count == table["fewest"])
    field("order", "C").send_keys(" ".join(best).lower())  # "f e g": spaces, small letters
    from selenium.webdriver.support.ui import Select
    Select(field("move")).select_by_value(answer["optimal_moves"][0])
    preview = browser.find_element("css selector", "#preview").text
    assert f'variant: "{answer["variant"]}"' in preview
    browser.find_element("css selector", "#save").click()
    saved = wait_for(downloads / "aufgabe1.yaml")
    assert browser.find_element("css selector", "#saved").is_displayed()

    submission = tmp_path / "abgabe"
    submission.mkdir()
    (submission / "aufgabe1.yaml").write_bytes(saved.read_bytes())
    plan, answers = prepare(course)
    result = grade_submission(plan, answers, child_script, submission, 60, "process",
                              identity=student.key)
    assert result.score == result.max_score == course.max_score, [
        (v.check.kind, v.score, v.facts.get("problems")) for v in result.verdicts
        if not v.passed]

    # reopened, the form still holds what was typed (kept in the browser)
    open_page(browser, tmp_path / "sheets" / student.folder / "aufgabe1-form.html")
    assert field("values", inner[0]).get_attribute("value") == show(answer["values"][inner[0]])


def test_a_students_sheet_prints_on_one_a4_page_per_task(browser, tmp_path):
    import base64
    import re
    assert main(["sheets", "--tasks", str(COURSE / "tasks"), "--roster", str(ROSTER),
                 "--out", str(tmp_path / "sheets"), "--no-moodle"]) == 0
    student = from_roster(ROSTER)[0]
    assert open_page(browser, tmp_path / "sheets" / student.folder / "sheet.html") == []
    pdf = base64.b64decode(browser.execute_cdp_cmd(
        "Page.printToPDF", {"preferCSSPageSize": True})["data"])
    width, height = (float(v) for v in re.search(
        rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)", pdf).groups())
    assert (round(width / 72 * 25.4), round(height / 72 * 25.4)) == (210, 297), "A4"
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1, "one page for one task"
