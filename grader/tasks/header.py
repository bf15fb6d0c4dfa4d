"""The course header of a task file (``course:``): title, language, cut rule, limits, the
modules students hand in, the due date, third-party packages, the course's own modules and
the Gradescope leaderboard.

The schema has checked every key and type before these readers run (``Sheet.section``); they
read what the values mean: a package that may not be provided, a module file that does not
compile, a leaderboard column whose ``task`` belongs to another kind of column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..yamlsrc import LocatedDict
from .model import DEFAULT_MODULES, LEADERBOARD_VALUES, LeaderboardColumn, Limits, Provided
from .schema import default
from .sheet import Sheet


@dataclass
class Header:
    """What a file's header sets for its tasks and for the course."""

    title: str = ""
    language: str = "en"
    prune_on_equality: bool = True
    limits: Limits = field(default_factory=Limits)
    modules: dict = field(default_factory=lambda: dict(DEFAULT_MODULES))
    packages: list = field(default_factory=list)
    leaderboard: list = field(default_factory=list)
    provided: list = field(default_factory=list)
    provided_wins: bool | None = None      # None: this file does not say


def read_header(sheet: Sheet, raw, line: int) -> Header:
    """The header ``raw`` (written at ``line``); sets ``sheet.due``."""
    header = sheet.section("course", raw, line)
    if header is None:
        return Header()
    sheet.due = sheet.date(header, "due")
    return Header(title=str(header.get("title", "")),
                  language=header.get("language", default("course", "language")),
                  prune_on_equality=header.get("prune_on_equality",
                                               default("course", "prune_on_equality")),
                  limits=read_limits(header.get("limits")),
                  modules={**DEFAULT_MODULES, **{str(function): module for function, module
                                                 in header.get("modules", {}).items()}},
                  packages=read_packages(sheet, header),
                  leaderboard=read_leaderboard(sheet, header),
                  provided=read_provides(sheet, header),
                  provided_wins=header.get("provided_wins"))


def read_limits(raw: LocatedDict | None, inherited: Limits | None = None) -> Limits:
    """``limits:`` (checked by the schema): the course's, or a task's over ``inherited``."""
    if raw is None:
        return inherited or Limits()
    return Limits(**{key: float(value) for key, value in raw.items()})


def read_packages(sheet: Sheet, header: LocatedDict) -> list[str]:
    """``packages``: names of distributions installed beside the grader."""
    from ..sandbox.packages import problem_with
    raw = header.get("packages") or []
    names = []
    for index, name in enumerate(raw):
        problem = problem_with(name)
        if problem is not None:
            sheet.problem(raw.line_of(index), problem)
        elif name not in names:
            names.append(name)
    return names


def read_provides(sheet: Sheet, header: LocatedDict) -> list[Provided]:
    """``provides``: Python files beside this task file (paths relative to it), each a module
    every submission may import."""
    raw = header.get("provides") or []
    modules = []
    for index, text in enumerate(raw):
        line = raw.line_of(index)
        path = Path(sheet.file).parent / text
        name = path.name[:-3] if path.name.endswith(".py") else ""
        if not name.isidentifier():
            sheet.problem(line, f"{text!r} is not a Python module's file; 'provides' lists "
                          "files such as utils.py (relative to this task file)")
            continue
        try:
            source = path.read_text(encoding="utf-8")
            compile(source, str(path), "exec", dont_inherit=True)
        except (OSError, UnicodeDecodeError) as error:
            sheet.problem(line, f"{text}: cannot read the module ({error}); the path is "
                          "relative to this task file")
            continue
        except SyntaxError as error:
            sheet.problem(line, f"{path}:{error.lineno}: {error.msg}")
            continue
        if any(module.name == name for module in modules):
            sheet.problem(line, f"{name}.py is listed twice")
            continue
        modules.append(Provided(name, source, str(path), text, sheet.file, line))
    return modules


def read_leaderboard(sheet: Sheet, header: LocatedDict) -> list[LeaderboardColumn]:
    """``gradescope: {leaderboard: [...]}``: the leaderboard's columns (their tasks and checks
    are looked up once every file is read, ``grader.tasks.loader``)."""
    entries = header.get("gradescope", {}).get("leaderboard") or []
    columns = []
    for index, entry in enumerate(entries):
        line = entries.line_of(index)
        name, value = entry["name"], entry["value"]
        order = entry.get("order", LEADERBOARD_VALUES[value])
        needed = {"task": "task", "visited": "check"}.get(value)
        for key in ("task", "check"):
            if key in entry and key != needed:
                sheet.problem(entry.line_of(key), f"{key!r} does not belong to a leaderboard "
                              f"column of value {value}")
        of = entry.get(needed) if needed else None
        if needed and of is None:
            sheet.problem(line, f"a leaderboard column of value {value} names its {needed}'s "
                          f"id: {needed}: ID")
            continue
        columns.append(LeaderboardColumn(name.strip(), value, order, of, sheet.file, line))
    return columns
