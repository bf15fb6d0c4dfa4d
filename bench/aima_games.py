"""AIMA's own games.py on the bundled course courses/aima/, unchanged and with the textbook's
classic mistakes put in one edit at a time; and the course's own example students.

The textbook's code is third-party code and is not part of this repository: the script reads
it from a local clone or mirror of aimacode/aima-python (the last commit with the flat layout
students use, ``games.py`` beside ``utils.py``, is the parent of a84722ea), writes it into a
scratch folder and grades it there, exactly as a student would hand it in (no adapter).

    python bench/aima_games.py [--repo /work/.mirror/aimacode+aima-python/repo]
                               [--commit a84722ea^] [--lang en]

Prints, per submission, its score, the functions that lost points and the mistake the
feedback names (quoted from the catalogue), AIMA's file once more with AIMA's own utils.py
provided by the course (``provides:``) instead of the grader's stand-in; then how many lines
the course's task file holds (without comments and blank lines).  Without the repository, only the course's own students
are graded.  The scores do not depend on the machine: nothing here is timed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
COURSE = ROOT / "courses" / "aima" / "tasks"
STUDENTS = ROOT / "courses" / "aima" / "submissions"
MIRROR = Path("/work/.mirror/aimacode+aima-python/repo")

# One edit each of AIMA's own games.py, the same mistakes the course's example students make
# in their own (project-written) games.py: (text, replacement, which occurrence).
EDITS = {
    "root-minimises": (
        "    return max(game.actions(state), key=lambda a: min_value(game.result(state, a)))",
        "    return min(game.actions(state), key=lambda a: min_value(game.result(state, a)))", 0),
    "no-terminal-test": (
        "    def max_value(state):\n        if game.terminal_test(state):\n"
        "            return game.utility(state, player)\n        v = -np.inf",
        "    def max_value(state):\n        v = -np.inf", 0),
    "utility-for-mover": (
        "    def min_value(state):\n        if game.terminal_test(state):\n"
        "            return game.utility(state, player)",
        "    def min_value(state):\n        if game.terminal_test(state):\n"
        "            return game.utility(state, game.to_move(state))", 0),
    "v-starts-at-0": (
        "    def max_value(state, alpha, beta):\n        if game.terminal_test(state):\n"
        "            return game.utility(state, player)\n        v = -np.inf",
        "    def max_value(state, alpha, beta):\n        if game.terminal_test(state):\n"
        "            return game.utility(state, player)\n        v = 0", 0),
    "strict-cut-max": ("            if v >= beta:", "            if v > beta:", 0),
    "root-alpha-dropped": ("        v = min_value(game.result(state, a), best_score, beta)\n",
                           "        v = min_value(game.result(state, a), -np.inf, beta)\n", 0),
    "last-action": ("        if v > best_score:\n            best_score = v\n            best_action = a",
                    "        if v > best_score:\n            best_score = v\n        best_action = a",
                    0),
    "depth-from-0": ("        v = min_value(game.result(state, a), best_score, beta, 1)",
                     "        v = min_value(game.result(state, a), best_score, beta, 0)", 0),
    "strict-cut-min": ("            if v <= alpha:", "            if v < alpha:", 1),
}


def mutated(source: str, name: str) -> str:
    old, new, occurrence = EDITS[name]
    parts = source.split(old)
    if len(parts) < occurrence + 2:
        raise ValueError(f"{name}: the edited line is not in this games.py")
    return old.join(parts[:occurrence + 1]) + new + old.join(parts[occurrence + 1:])


def textbook_source(repo: Path, commit: str, name: str = "games.py") -> str | None:
    if not repo.exists():
        return None
    done = subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{name}"],
                          capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def with_textbook_utils(scratch: Path, utils: str) -> Path:
    """The course's task files in ``scratch``, providing AIMA's own utils.py (``provides:``)
    instead of the grader's stand-in."""
    course = scratch / "course-with-utils"
    course.mkdir()
    (course / "utils.py").write_text(utils)
    for file in COURSE.glob("*.yaml"):
        text = file.read_text()
        (course / file.name).write_text(text.replace(
            "  packages: [numpy]", "  packages: [numpy]\n  provides: [utils.py]", 1))
    return course


def grade_all(folders: dict, lang: str, course_path: Path = COURSE) -> list:
    """``(name, score, maximum, functions that lost points, mistakes named)`` per folder."""
    from grader.batch import budget_of, prepare
    from grader.grading import grade_submission
    from grader.sandbox.staging import stage_runner
    from grader.tasks import load_course
    course = load_course(course_path)
    plan, answers = prepare(course)
    rows = []
    with tempfile.TemporaryDirectory() as stage:
        runner = stage_runner(Path(stage))
        for name, folder in folders.items():
            result = grade_submission(plan, answers, runner, folder, budget_of(course))
            failed = [v for v in result.verdicts if not v.passed]
            named = sorted({m for v in failed for m in v.facts.get("diagnosis") or ()})
            rows.append((name, result.score, result.max_score,
                         sorted({v.check.function for v in failed}), named))
    return rows


def print_table(title: str, rows: list, lang: str) -> None:
    from grader.report.messages import Catalogue
    catalogue = Catalogue(lang)
    print(f"\n{title}\n")
    print("| submission | score | loses points in | named (the feedback's words) |")
    print("|---|---|---|---|")
    for name, score, maximum, functions, named in rows:
        words = "; ".join(f"“{catalogue.lookup(f'mistake.{m}')}” ({m})" for m in named) or "—"
        print(f"| {name} | {score:g}/{maximum:g} | {', '.join(functions) or '—'} | {words} |")


def course_lines() -> int:
    """Lines of the course's task files that are neither blank nor only a comment."""
    return sum(1 for file in COURSE.glob("*.yaml") for line in file.read_text().splitlines()
               if line.strip() and not line.strip().startswith("#"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=MIRROR,
                        help="a clone or bare mirror of aimacode/aima-python")
    parser.add_argument("--commit", default="a84722ea^",
                        help="the commit whose games.py to grade [a84722ea^]")
    parser.add_argument("--lang", default="en", choices=("en", "de"))
    args = parser.parse_args()
    source = textbook_source(args.repo, args.commit)
    if source is None:
        print(f"no games.py at {args.commit} in {args.repo}: only the course's own students "
              "are graded")
    else:
        with tempfile.TemporaryDirectory(prefix="aima-games-") as scratch:
            folders = {}
            for name in ["unchanged", *EDITS]:
                folder = Path(scratch) / name
                folder.mkdir()
                (folder / "games.py").write_text(source if name == "unchanged"
                                                 else mutated(source, name))
                folders[name] = folder
            rows = grade_all(folders, args.lang)
            utils = textbook_source(args.repo, args.commit, "utils.py")
            if utils is not None:   # the course hands out AIMA's own utils.py (provides:)
                rows += [(f"{name}, AIMA's utils.py provided", *row) for name, *row in
                         grade_all({"unchanged": folders["unchanged"]}, args.lang,
                                   with_textbook_utils(Path(scratch), utils))]
            print_table(f"AIMA's games.py ({args.commit}), handed in as it is and with one "
                        "edit each", rows, args.lang)
    students = {folder.name: folder for folder in sorted(STUDENTS.iterdir())}
    print_table("The course's own example students (courses/aima/submissions)",
                grade_all(students, args.lang), args.lang)
    print(f"\nThe course's task files: {course_lines()} lines without comments and blank "
          "lines; no adapter in any submission.")


if __name__ == "__main__":
    main()
