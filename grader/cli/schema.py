"""``grader schema``: the task-file schema (JSON Schema) that the loader checks task files
against, printed or written for editors with a YAML language server (``grader.tasks.schema``
builds it; nothing of it is imported until the command runs)."""

from __future__ import annotations

from pathlib import Path

NAME = "schema"
SCHEMA_EPILOG = """\
examples:
  grader schema                                 # print it
  grader schema --out tasks/task-file.schema.json

A task file names the schema on its first line, as a path relative to the task file or a URL:
  # yaml-language-server: $schema=task-file.schema.json
The installed grader ships it as task-file.schema.json in grader/tasks/.

exit status: 0 printed or written; 1 FILE could not be written."""


def register(command) -> None:
    schema = command(NAME, help="print the task-file schema (JSON Schema) for editors",
                     description="Print the task-file schema (JSON Schema, draft-07) that the "
                     "loader checks task files against, for editors with a YAML language "
                     "server.", epilog=SCHEMA_EPILOG)
    schema.add_argument("--out", type=Path, metavar="FILE",
                        help="write the schema into FILE instead of printing it")


def run(args) -> int:
    from ..tasks.schema import publish
    return publish(args.out)
