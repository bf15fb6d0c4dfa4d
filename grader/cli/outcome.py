"""What grade and merge print when they are done: who needs a person, and the closing line
(how many, the average grade, where the reports are)."""

from __future__ import annotations


def print_needs_person(err, results, items, out) -> None:
    """At the end of a batch, everything a person must decide, one line each, in the
    terminal's language (English): the submissions that could not be graded as handed in
    or carry a note that needs a decision, then the hand-back's participants without a grade
    and folders no one got (``lms.handback``).  The harmless notes stay on the summary
    page."""
    from ..notes import needs_person
    from ..report.messages import Catalogue
    from ..report.safe import terminal_text
    from ..report.writers import note_text
    english = Catalogue("en")
    lines = []
    for result in sorted(results, key=lambda r: r.student):
        said = ([english.text(f"ui.{result.problem}", detail=result.problem_detail)]
                if result.problem else [])
        said += [note_text(note, english) for note in result.notes if needs_person(note)]
        if said:
            lines.append(f"  {result.display}: {' '.join(said)}")
    lines += [f"  {item.text(english)}" for item in items]
    if not lines:
        return
    err.print(f"Needs a person (also in {out}/summary.html#attention):", markup=False,
              highlight=False)
    for line in lines:
        err.print(terminal_text(line), markup=False, highlight=False)


def print_closing_line(err, done: str, outcome, course, out, items=()) -> None:
    """What a batch or a merge did: how many, the average of the grades given, who needs a
    person (submissions, and the hand-back's ``items``: participants left without a grade),
    where."""
    from ..report.grades import has_grade
    from ..report.writers import needs_person
    results = outcome.results
    attention = sum(1 for r in results if needs_person(r))
    graded = [r.score for r in results if has_grade(r)]
    average = sum(graded) / len(graded) if graded else 0.0
    said = [f"{attention} submission(s)" if attention else "",
            f"{len(items)} hand-back item(s)" if items else ""]
    err.print(f"{done}; average {average:.1f}/{course.max_score:g}"
              + (f"; {' and '.join(s for s in said if s)} need a person (see "
                 f"{out}/summary.html#attention)" if attention or items else "")
              + f". Reports: {out}/gradebook.csv, {out}/summary.html",
              markup=False, highlight=False)
