"""A task's ``checks:`` -> ``Check``s, and its ``expect:`` -> pins.

Each check is checked against the schema's definition of its kind first (``check-<kind>``:
the keys every check takes and the kind's ``OPTIONS``): a check that is no mapping or names
no known kind is not read further, and unknown options are refused.  Then the kind module
reads its options (``parse_options``), raw, against the task, as it always has: where it says
what is wrong with an option, its message stands; where it is silent, the schema's does.  A
check that names no ``function`` becomes one ``Check`` per function of the task it applies
to.
"""

from __future__ import annotations

from .. import checks as check_kinds
from ..checks.common import SEARCH_FUNCTIONS
from .model import SEARCH_PINS, Check
from .schema import default
from .sheet import Sheet

# Check kinds a convention cannot support: its functions return no value, or no action.
REFUSED = {"multi-agent": ("value",),
           "negamax-sign": ("action", "hygiene"),
           "aima": ("value",)}
# Conventions whose searches return the action alone.
ACTION_ONLY = ("multi-agent", "aima")


def read_checks(sheet: Sheet, raw, context, default_visibility: str) -> list[Check]:
    """The task's checks, ids unique within the task (``task/function/kind``, then ``-2``,
    ``-3``, ... for a second check of the same kind)."""
    raw_checks = raw.get("checks")
    if raw_checks is None:       # missing or refused: the schema said so
        return []
    result: list[Check] = []
    used_ids: set[str] = set()
    for index, item in enumerate(raw_checks):
        line = raw_checks.line_of(index)
        findings, _ = sheet.judge("check", item, line)
        if any(finding.key in (None, "kind") for finding in findings):
            sheet.report(findings)      # no mapping, or no kind that can read it
            continue
        # The kind reads its own options, raw, and says what is wrong with them; the
        # schema's findings count where it is silent on that key.
        unknown = {finding.key for finding in findings if finding.unknown}
        sheet.report(finding for finding in findings if finding.unknown)
        item = item.without(unknown) if unknown else item
        wrong = {finding.key for finding in findings}
        since = len(sheet.problems)
        kind = item["kind"]
        module = check_kinds.KINDS[kind]
        points = item["points"] if "points" in item and "points" not in wrong else \
            default(f"check-{kind}", "points")
        visibility = item["visibility"] if "visibility" in item and "visibility" not in wrong \
            else default_visibility
        if visibility == "after_due" and sheet.due is None:
            sheet.problem(item.line_of("visibility") if "visibility" in item else line,
                          "after_due needs the date in the course header, e.g. "
                          "due: 2026-12-01T23:59:00+01:00")
        functions = [] if "function" in wrong else check_functions(sheet, item, context, module)
        options = module.parse_options(item, context, line)
        if "points" not in item and hasattr(module, "points_of"):
            points = module.points_of(options)   # a kind whose options say its points
        sheet.report_unsaid([finding for finding in findings if not finding.unknown], since)
        for function in functions:
            check_id = f"{context.task_id}/{function}/{kind}"
            number = 2
            while check_id in used_ids:
                check_id = f"{context.task_id}/{function}/{kind}-{number}"
                number += 1
            used_ids.add(check_id)
            result.append(Check(id=check_id, task_id=context.task_id, kind=kind,
                                function=function, points=float(points),
                                visibility=visibility,
                                options=tuple(sorted(options.items())),
                                file=sheet.file, line=line))
    return result


def check_functions(sheet: Sheet, item, context, module) -> list[str]:
    """The task's functions a check applies to (judged by their model solution)."""
    if "function" in item:
        function = item["function"]
        if function not in context.functions:
            sheet.problem(item.line_of("function"), f"{function!r} is not one of this task's "
                          f"functions ({', '.join(context.functions)})")
            return []
        functions = [function]
    else:
        functions = list(context.functions)
    fitting = [f for f in functions if module.applies_to(context.references.get(f, f))]
    refused = REFUSED.get(context.convention, ())
    if module.KIND in refused:
        returns = ("the action alone, no value" if context.convention in ACTION_ONLY
                   else "no action")
        sheet.problem(item.line_of("kind"), f"a {module.KIND} check cannot judge the "
                      f"{context.convention} convention (its functions return {returns}); "
                      "judge the action, the visited nodes, their count or the horizon")
        return []
    if not fitting and functions:
        sheet.problem(item.line_of("kind"), f"a {module.KIND} check does not apply to "
                      f"{', '.join(functions)}")
    return fitting


def read_pins(sheet: Sheet, raw, functions, references) -> tuple:
    """``expect:``: per search function, the figures ``grader validate`` verifies, as
    ``(function, ((field, value, line), ...), line)``."""
    value = raw.get("expect")
    if value is None:
        return ()
    from ..answers.pins import TECHNIQUE_PINS
    pins = []
    for function, fields in value.items():
        if function not in functions or (references.get(function) not in SEARCH_FUNCTIONS
                                         and references.get(function) not in TECHNIQUE_PINS):
            sheet.problem(value.line_of(function), f"cannot pin answers of {function!r}: pin "
                          "the search functions of this task")
            continue
        known = TECHNIQUE_PINS.get(references.get(function), SEARCH_PINS)
        for key in fields:
            if key not in known:
                sheet.problem(fields.line_of(key), f"unknown key {key!r}; known keys here: "
                              f"{', '.join(known)}")
        pins.append((function, tuple((k, _freeze(v), fields.line_of(k))
                                     for k, v in fields.items()), value.line_of(function)))
    return tuple(pins)


def _freeze(value):
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value
