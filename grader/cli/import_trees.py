"""``grader import-trees``: the game-tree tests of the Pacman multi-agent project (NAME.test
with NAME.solution) as a YAML task file."""

from __future__ import annotations

import re
from pathlib import Path

from .common import EXIT_BAD_INPUT, EXIT_OK, console

NAME = "import-trees"

IMPORT_EPILOG = """\
example:
  grader import-trees multiagent/test_cases/q2 --out tasks/pacman-q2.yaml
  grader validate tasks/pacman-q2.yaml

exit status: 0 every test imported; 2 no such folder, a bad --prefix, nothing importable, or
a test that could not be imported (the others are still written)."""


def register(command) -> None:
    importer = command(NAME, help="turn the Pacman multi-agent project's "
                       "game-tree tests (*.test, *.solution) into a task file",
                       description="Turn the game-tree tests of the Pacman "
                       "multi-agent project (NAME.test with NAME.solution) into a "
                       "YAML task file.", epilog=IMPORT_EPILOG)
    importer.add_argument("folder", help="folder with NAME.test and NAME.solution files")
    importer.add_argument("--out", help="task file to write [print to the terminal]")
    importer.add_argument("--module", default="multiAgents",
                          help="the students' module with the agents [multiAgents]")
    importer.add_argument("--prefix", help="prefix of the task ids, so that several folders "
                          "can be imported into one course [the folder's name]")


def run(args) -> int:
    from ..importer import import_trees, to_yaml
    err = console(stderr=True)
    folder = Path(args.folder)
    if not folder.is_dir():
        err.print(f"{folder}: no such folder", markup=False)
        return EXIT_BAD_INPUT
    if args.prefix is not None and not re.fullmatch(r"[A-Za-z0-9_.-]+", args.prefix):
        err.print(f"--prefix {args.prefix!r}: use letters, digits, '-', '_' or '.'",
                  markup=False)
        return EXIT_BAD_INPUT
    document, problems, skipped = import_trees(folder, args.module, args.prefix)
    for warning in skipped:
        err.print(f"warning: {warning}", markup=False, highlight=False)
    for problem in problems:
        err.print(str(problem), markup=False, highlight=False)
    if not document["tasks"]:
        err.print(f"{folder}: no test could be imported", markup=False)
        return EXIT_BAD_INPUT
    text = to_yaml(document)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        err.print(f"Wrote {len(document['tasks'])} task(s) to {args.out}; check them with "
                  f"`grader validate {args.out}`.", markup=False)
    else:
        print(text, end="")
    return EXIT_BAD_INPUT if problems else EXIT_OK
