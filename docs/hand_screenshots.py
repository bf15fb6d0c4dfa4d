"""Make the manual's screenshots of hand exercises: a printed sheet and a feedback page with a
follow-on error.

    python docs/hand_screenshots.py        (needs Debian's chromium and chromium-driver)

Writes the sheets of the bundled course courses/von-hand-varianten for its roster and
photographs one student's sheet as printed (print media, an A4 page at 96 dpi); grades the
three-mistakes answer file of tests/data/hand/drei-fehler on the sheet's own tree
(courses/von-hand) and photographs its feedback page.
"""

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from grader.cli import main  # noqa: E402

A4 = (794, 1123)          # 210 x 297 mm at 96 dpi


def browser(profile: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--hide-scrollbars", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def shoot(driver, page: Path, picture: Path, size, media: str = "screen") -> None:
    driver.set_window_size(*size)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": media})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
    driver.get(page.as_uri())
    if media == "print":
        # a screenshot has no @page: the sheet's page margins (16 mm, 15 mm) as padding
        driver.execute_script("document.body.style.padding = '16mm 15mm'; "
                              "document.body.style.boxSizing = 'border-box';")
    driver.save_screenshot(str(picture))


def main_() -> None:
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        course = ROOT / "courses" / "von-hand-varianten"
        main(["sheets", "--tasks", str(course / "tasks"), "--roster",
              str(course / "teilnehmer.csv"), "--out", str(folder / "sheets")])
        submissions = folder / "submissions"
        shutil.copytree(ROOT / "tests" / "data" / "hand" / "drei-fehler",
                        submissions / "drei-fehler")
        main(["grade", "--tasks", str(ROOT / "courses" / "von-hand" / "tasks"),
              "--submissions", str(submissions), "--out", str(folder / "out")])
        driver = browser(folder / "profile")
        try:
            shoot(driver, folder / "sheets" / "wnowak2" / "sheet.html",
                  ROOT / "docs" / "hand-sheet.png", A4, media="print")
            shoot(driver, folder / "out" / "drei-fehler" / "feedback.html",
                  ROOT / "docs" / "hand-feedback.png", (1000, 1150))
        finally:
            driver.quit()


if __name__ == "__main__":
    main_()
