"""The self-check's terminal view: failures first and whole, everything that passed in one line
per task.

A student reads this after every change, so it says at a glance what is left to do: a task
whose checks all pass is one line; a task with failures shows each failed check in full (the
message, the counterexample, the named mistake), and the passed ones as a count.  A failure
that many checks share (a syntax error, a missing file or function) is said once, at the top,
and the checks it takes down are not listed one by one: their task's line points up to it.

Text is wrapped at the terminal's width between words, continuation lines indented under the
text they continue; without a terminal (a pipe, a CI log) nothing is wrapped, so a log never
breaks a sentence where the grader's console happened to end.  All the words come from the
catalogue (``ui.*`` and the checks' messages); this module only lays them out.
"""

from __future__ import annotations

import textwrap

from ..report.safe import terminal_text

PASS, FAIL = "✔", "✘"


def check_lines(view: dict, catalogue, title: str) -> list[tuple[str, str, str]]:
    """The lines of a self-check: ``(style, first part, rest)``; ``style`` colours the first
    part (a mark), the rest is plain.  ``view``: ``views.student_view(..., html=False)``.
    The failures come first (the shared ones, then each failing task whole), then one line
    per task that passed."""
    lines = [("bold", terminal_text(title), "")]
    # how the hand-in was read (a folder descended into, a file renamed), where the view says
    lines += [("blue", "ℹ", f" {terminal_text(str(note))}") for note in view.get("arranged", ())]
    for note in view["notes"]:
        lines.append(("red", FAIL, f" {', '.join(note['functions'])}: "
                                   f"{terminal_text(str(note['message']))}"))
    if view["notes"]:
        lines.append(("", "", ""))
    passing = []
    for task in view["tasks"]:
        name = terminal_text(task["title"] or task["id"])
        score = f"{task['score']:g}/{task['max_score']:g}"
        failed = [c for c in task["checks"] if not c["passed"]]
        if not failed:
            passing.append(("green", PASS, f" {name} ({task['id']}): {score}"))
            continue
        up = sorted({c["function"] for c in failed if c.get("pointed") == "page"})
        block = [("red", "  " + FAIL, f" {', '.join(note['functions'])}: "
                                       f"{terminal_text(str(note['message']))}")
                 for note in task["notes"]]
        block += [("red", "  " + FAIL, f" {item['function']} · "
                                       f"{terminal_text(item['kind_title'])} "
                                       f"({item['score']:g}/{item['max_score']:g}): "
                                       f"{terminal_text(str(item['message']))}")
                  for item in failed if not item.get("pointed")]   # said above otherwise
        passed = len(task["checks"]) - len(failed)
        if block and passed:
            block.append(("green", "  " + PASS, " " + catalogue.text("ui.passed_more",
                                                                     count=passed)))
        heading = ("red", FAIL, f" {name} ({task['id']}): {score}"
                                + (" " + catalogue.text("ui.see_above", functions=up)
                                   if up else ""))
        # a task whose failures were all said above is one line, like a passing one
        lines += ([("", "", ""), heading, *block] if block else [heading])
    if lines[-1] == ("", "", ""):
        lines.pop()
    if passing:
        lines += [("", "", ""), *passing]
    return lines


def render(lines: list[tuple[str, str, str]], width: int | None) -> list[tuple[str, str, str]]:
    """``lines`` wrapped to ``width`` columns between words (None: not at all), each
    continuation indented under the text after the line's mark."""
    if width is None:
        return lines
    wrapped = []
    for style, mark, rest in lines:
        if not mark and not rest:
            wrapped.append((style, mark, rest))
            continue
        indent = " " * (len(mark) + 1)
        parts = textwrap.wrap(mark + rest, width=max(20, width), subsequent_indent=indent,
                              break_long_words=False, break_on_hyphens=False,
                              drop_whitespace=True) or [mark]
        first = parts[0]
        wrapped.append((style, mark, first[len(mark):]))
        wrapped += [("", "", part) for part in parts[1:]]
    return wrapped


def markup(lines: list[tuple[str, str, str]]) -> str:
    """The lines as rich markup (only the marks are coloured; the text is escaped)."""
    from rich.markup import escape
    out = []
    for style, mark, rest in lines:
        head = f"[{style}]{escape(mark)}[/]" if style and mark else escape(mark)
        out.append(head + escape(rest) if mark else
                   (f"[{style}]{escape(rest)}[/]" if style else escape(rest)))
    return "\n".join(out)
