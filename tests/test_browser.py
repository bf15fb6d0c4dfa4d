"""The HTML reports, looked at in a real browser (headless Chromium) as a person would."""

import re
import shutil
from pathlib import Path

import pytest

from grader.cli import main

from conftest import CHROMEDRIVER, CHROMIUM, DATA, NO_BROWSER, ROOT, open_page
from test_mistakes import write_mistaken_student

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason=NO_BROWSER)


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    folder = tmp_path_factory.mktemp("browser")
    submissions = folder / "submissions"
    submissions.mkdir()
    for name in ("korrekt", "strikter-schnitt"):
        shutil.copytree(ROOT / "submissions" / name, submissions / name)
    write_mistaken_student(submissions / "mia", "alphabeta", "root-no-alpha")
    shutil.copytree(DATA / "hostile" / "markup", submissions / "markup<b>")
    out = folder / "out"
    assert main(["grade", "--submissions", str(submissions), "--out", str(out), "--tasks",
                 str(ROOT / "tasks"), "--lang", "en", "--allow-weak-sandbox"]) == 0
    return out


def test_a_failed_check_on_a_tree_is_drawn_as_a_sized_svg_tree(browser, reports):
    errors = open_page(browser, reports / "mia" / "feedback.html")
    assert errors == []
    trees = browser.find_elements("css selector", "svg.tree")
    assert trees, "a tree picture"
    box = trees[0].rect
    assert box["width"] > 300 and box["height"] > 150
    shapes = trees[0].find_elements("css selector", "g.node")
    assert len(shapes) == 22, "every node of the sheet's tree"
    assert trees[0].find_elements("css selector", "g.node.extra"), "nodes the reference prunes"
    assert trees[0].find_elements("css selector", ".cutmark"), "struck-through edges"
    assert trees[0].find_elements("css selector", "g.node.first"), "the first divergence"
    assert "MAX" in trees[0].text and "MIN" in trees[0].text


def test_the_random_tree_counterexample_is_drawn_too(browser, reports):
    assert open_page(browser, reports / "strikter-schnitt" / "feedback.html") == []
    trees = browser.find_elements("css selector", "svg.tree")
    assert any(len(t.find_elements("css selector", "g.node")) <= 10 for t in trees)


def test_large_searches_get_a_side_by_side_visit_table(browser, reports):
    open_page(browser, reports / "strikter-schnitt" / "feedback.html")
    rows = browser.find_elements("css selector", "table.sequence tr.differs")
    assert rows, "the tic-tac-toe search is tabulated up to its first difference"


def test_the_summary_renders_without_errors_and_links_every_student(browser, reports):
    assert open_page(browser, reports / "summary.html") == []
    assert browser.find_elements("css selector", "svg.histogram rect")
    links = {a.get_attribute("href").split("/")[-2]
             for a in browser.find_elements("css selector", "a[href$='feedback.html']")}
    assert {"korrekt", "strikter-schnitt", "mia", "markup_b_"} <= links
    assert "root-no-alpha" not in browser.page_source and \
        "does not pass the root's α on" in browser.page_source


def test_the_summary_puts_who_needs_a_person_first_and_sorts_the_task_table(browser, reports,
                                                                             course):
    assert open_page(browser, reports / "summary.html") == []
    headings = [h.get_attribute("id") for h in browser.find_elements("css selector", "h2")]
    assert headings[0] == "attention", "the list of submissions that need a person comes first"

    def column(number):
        return [row.find_elements("css selector", "td")[number].get_attribute("data-sort")
                for row in browser.find_elements("css selector", "#matrix tbody tr")]

    buttons = browser.find_elements("css selector", "#matrix thead button")
    assert len(buttons) == 2 + len(course.tasks), "submission, total and one per task"
    buttons[1].click()
    totals = [float(value) for value in column(1)]
    assert totals == sorted(totals) and totals[0] < totals[-1]
    buttons[1].click()
    assert [float(value) for value in column(1)] == sorted(totals, reverse=True)
    buttons[0].click()
    names = column(0)
    assert names == sorted(names) and len(names) == 4
    assert browser.execute_script("return document.querySelector('#matrix th[aria-sort]')"
                                  ".textContent").startswith("Submission")


def test_markup_from_a_student_is_shown_not_run(browser, reports):
    # The folder "markup<b>" is graded under the safe id "markup_b_"; its name is shown as text.
    assert open_page(browser, reports / "markup_b_" / "feedback.html") == []
    assert browser.execute_script("return document.scripts.length") == 0
    assert browser.execute_script("return document.querySelectorAll('img').length") == 0
    assert "<script>alert('xss')</script>" in browser.find_element("tag name", "body").text
    assert "markup<b>" in browser.find_element("tag name", "h1").text


def test_the_page_fits_a_phone(browser, reports):
    browser.set_window_size(390, 844)
    open_page(browser, reports / "mia" / "feedback.html")
    page_width = browser.execute_script("return document.documentElement.scrollWidth")
    assert page_width <= 400, "only the tree scrolls sideways, not the page"
    browser.set_window_size(1000, 1400)


@pytest.fixture
def phone(browser):
    """The browser at a phone's size (an iPhone X's viewport), set back afterwards."""
    browser.set_window_size(375, 812)
    yield browser
    browser.set_window_size(1000, 1400)


@pytest.mark.parametrize("student", ["strikter-schnitt", "mia"])
def test_on_a_phone_every_check_keeps_its_function_name_in_view(phone, reports, student):
    assert open_page(phone, reports / student / "feedback.html") == []
    width = phone.execute_script("return document.documentElement.clientWidth")
    assert phone.execute_script("return document.documentElement.scrollWidth") <= width, \
        "only pictures scroll sideways, not the page"
    rows = phone.find_elements("css selector", "table.checks tr.passed, table.checks tr.failed")
    assert len(rows) > 20
    # Each row's function cell, its box and its text, asked for in one round trip (one
    # WebDriver call per cell and property took seconds).
    cells = phone.execute_script(FUNCTION_CELLS, rows)
    assert len(cells) == len(rows)
    for row_id, function, box, text in cells:
        assert function.is_displayed() and box["width"] > 0 and box["height"] > 0, row_id
        assert 0 <= box["x"] and box["x"] + box["width"] <= width, row_id
        assert text == row_id.split("/")[1]


# Each row's id, its function cell (the first), the cell's box as WebDriver's rect gives it
# (in the page's coordinates) and its rendered text.
FUNCTION_CELLS = """
return arguments[0].map(row => {
    const cell = row.querySelector('td.function');
    const box = cell.getBoundingClientRect();
    return [row.id, cell, {x: box.x + window.scrollX, y: box.y + window.scrollY, width: box.width,
                   height: box.height}, cell.innerText.trim()];
});
"""


def test_a_failed_tictactoe_search_is_tabulated_with_boards_and_a_legend(browser, reports):
    assert open_page(browser, reports / "strikter-schnitt" / "feedback.html") == []
    table = browser.find_element("css selector", "#ttt-midgame-a table.sequence.positions")
    paths = table.find_elements("css selector", "td code")
    boards = table.find_elements("css selector", ".board")
    assert len(paths) >= 10 and len(boards) == len(paths), "a board beside every path"
    # Every board's box and its cells' boxes, asked for in one round trip (one WebDriver call
    # per cell took seconds).
    for board, (box, cells) in zip(boards, browser.execute_script(BOARD_BOXES, boards)):
        assert board.is_displayed()
        assert len(cells) == 9
        rows = {round(cell["y"]) for cell in cells}
        columns = {round(cell["x"]) for cell in cells}
        assert len(rows) == 3 and len(columns) == 3, "three rows of three cells"
        assert 30 <= box["width"] <= 60 and abs(box["width"] - box["height"]) <= 2
    last = boards[0].find_element("css selector", ".last")
    empty = boards[0].find_element("css selector", ".empty")
    assert last.value_of_css_property("background-color") != \
        empty.value_of_css_property("background-color"), "the last move stands out"
    legend = browser.find_element("css selector", "#ttt-midgame-a .positions-legend")
    assert legend.is_displayed()
    assert "the moves that lead to it from the task's position" in legend.text
    assert re.search(r"For example, [0-9-]+ means: X marks cell \d, then O marks cell \d",
                     legend.text)
    numbers = legend.find_elements("css selector", ".board.numbers > span")
    assert [cell.text for cell in numbers] == list("012345678")
    assert all(cell.is_displayed() for cell in numbers)


# Each board's box and the boxes of its cells (its own spans), as WebDriver's rect gives
# them: in the page's coordinates.
BOARD_BOXES = """
const rect = element => {
    const box = element.getBoundingClientRect();
    return {x: box.x + window.scrollX, y: box.y + window.scrollY, width: box.width,
            height: box.height};
};
return arguments[0].map(board => [rect(board),
                                  [...board.querySelectorAll(':scope > span')].map(rect)]);
"""
