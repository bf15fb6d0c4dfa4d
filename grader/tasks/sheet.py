"""One task file being read: where its problems go, and the schema check every reader of a
section starts with.

Every reader of the package takes the ``Sheet`` as its first argument and reports through
``sheet.problem(line, message)``; problems are collected, never raised, so that a file's every
problem is listed at once (``grader.tasks.loader`` raises them together).
"""

from __future__ import annotations

import datetime
import re

from ..yamlsrc import LocatedDict, Problem
from .schema import SECTIONS, schema
from .validate import REFUSED, Checker


class Sheet:
    """The state of one task file's reading: its name, the problems and warnings found so
    far, and what its header sets for its tasks (``due``)."""

    def __init__(self, file: str, problems: list[Problem], warnings: list | None = None,
                 fitted: bool = False):
        self.file = file
        self.problems = problems
        self.warnings = warnings if warnings is not None else []
        self.due: datetime.datetime | None = None
        # ``fitted``: this very text fitted this very schema before (``grader.tasks.fitted``)
        self.checker = _Fitted() if fitted else Checker(schema(), SECTIONS)

    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.file, line, message))

    def fits(self, definition: str, value, line: int, key=None) -> tuple[bool, object]:
        """``value`` checked against the schema's ``definition`` (``document``: the whole
        schema): whether it fits, and the value with the keys whose values do not taken out
        (each reported here)."""
        findings, clean = self.judge(definition, value, line, key)
        self.report(findings)
        return not findings, None if clean is REFUSED else clean

    def judge(self, definition: str, value, line: int, key=None) -> tuple[list, object]:
        """The schema's ``Finding``s on ``value`` and its clean value, reported nowhere."""
        fragment = schema() if definition == "document" else schema()["definitions"][definition]
        return self.checker.check(fragment, value, line, key)

    def report(self, findings) -> None:
        for finding in findings:
            self.problem(finding.line, finding.message)

    def report_unsaid(self, findings, since: int) -> None:
        """Report the findings that no problem since ``since`` said already: one at the same
        line that names the same key (a check kind's own message on its option)."""
        said = self.problems[since:]
        for finding in findings:
            named = re.compile(rf"(?<![\w-]){re.escape(str(finding.key))}(?![\w-])")
            if not any(problem.line == finding.line and named.search(problem.message)
                       for problem in said):
                self.problem(finding.line, finding.message)

    def section(self, definition: str, value, line: int) -> LocatedDict | None:
        """The mapping of a section (``document``, ``course``, ``task``) as its reader reads
        it: None where it is no mapping at all; otherwise without the keys the schema
        refused."""
        _, clean = self.fits(definition, value, line)
        return clean if isinstance(clean, LocatedDict) else None

    # -- values the schema cannot judge alone ----------------------------------------------
    def date(self, mapping: LocatedDict, key: str) -> datetime.datetime | None:
        """A date or a date and time; a day alone means its end."""
        value = mapping.get(key)
        if value is None:
            return None
        if isinstance(value, datetime.datetime):
            moment = value
        elif isinstance(value, datetime.date):
            moment = datetime.datetime.combine(value, datetime.time(23, 59, 59))
        else:
            try:
                moment = datetime.datetime.fromisoformat(str(value))
            except ValueError:
                self.problem(mapping.line_of(key), f"{key} must be a date such as 2026-12-01 or "
                             "2026-12-01T23:59:00+01:00")
                return None
        if moment.tzinfo is None:
            moment = moment.astimezone()  # the grading machine's local time zone
        return moment


class _Fitted:
    """The checker of a task file whose text fitted the schema, without a single finding,
    when it was last read (with the same schema and checker): every value fits as it is,
    which is what the schema's checker would find again, at a fifth of reading the file."""

    quiet = 0

    def check(self, fragment, value, line, key=None, whole=None, about=None):
        return [], value

    def fits(self, fragment, value, line, key=None) -> bool:
        return True
