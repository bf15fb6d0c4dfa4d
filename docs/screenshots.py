"""Make the manual's screenshots: a student page with a tree, the top of a faulty student's
page (its overview: points per task, the failed checks linked) and the instructor summary.

    python docs/screenshots.py        (needs Debian's chromium)

Grades three example students (one of them with the catalogue's "root does not pass alpha
on" mistake) and photographs the pages with headless Chromium.
"""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from grader.cli import main  # noqa: E402
from test_mistakes import write_mistaken_student  # noqa: E402


def shoot(page: Path, picture: Path, size: str) -> None:
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                        "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                        f"--user-data-dir={profile}", f"--window-size={size}",
                        f"--screenshot={picture}", page.as_uri()],
                       check=True, capture_output=True)


def main_() -> None:
    with tempfile.TemporaryDirectory() as folder:
        submissions = Path(folder) / "submissions"
        submissions.mkdir()
        for name in ("korrekt", "strikter-schnitt", "ohne-alphabeta"):
            shutil.copytree(ROOT / "submissions" / name, submissions / name)
        write_mistaken_student(submissions / "mia", "alphabeta", "root-no-alpha")
        out = Path(folder) / "out"
        main(["grade", "--submissions", str(submissions), "--out", str(out)])
        shoot(out / "mia" / "feedback.html", ROOT / "docs" / "feedback.png", "900,1250")
        shoot(out / "strikter-schnitt" / "feedback.html", ROOT / "docs" / "feedback-top.png",
              "900,700")
        shoot(out / "summary.html", ROOT / "docs" / "summary.png", "1000,1150")


if __name__ == "__main__":
    main_()
