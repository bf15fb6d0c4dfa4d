"""Every export of a graded batch, written together: gradebook.csv, the LMS imports
(moodle.csv, ilias.csv), junit.xml for CI, summary.html for the instructor, and the batch
record ``grader merge`` reads.  The one place that knows both the reports and the LMS
formats: ``grader/report/`` knows no LMS."""

from __future__ import annotations

from pathlib import Path

from ..report.files import write_atomically
from ..report.messages import Catalogue
from ..report.writers import (BATCH_RECORD, batch_record, gradebook_csv, junit_chunks,
                              summary_html)
from .ilias import ilias_csv
from .moodle import moodle_csv


def write_batch(out: Path, results, course, catalogue: Catalogue, batch: dict,
                roster=None, handback=None) -> list[str]:
    """Every export, each on its own: one that fails does not keep the others from being
    written.  Returns what could not be written (empty when all were).  The batch record
    comes last, so that it is there only when the exports are.  With a ``roster``
    (``lms.roster``), moodle.csv names Moodle users and the summary lists the submissions
    the roster does not name."""
    if roster is not None:
        results = roster.annotated(results)
    participants = handback.items(results) if handback is not None else ()
    scale = handback.scale if handback is not None else None
    exports = (("gradebook.csv", lambda: gradebook_csv(results, course)),
               ("moodle.csv", lambda: moodle_csv(results, course, catalogue, roster, scale)),
               ("ilias.csv", lambda: ilias_csv(results, course, catalogue)),
               # written as it is made: the whole text of a large class is never held
               ("junit.xml", lambda: junit_chunks(results, course, catalogue,
                                                  batch.get("shard"))),
               ("summary.html", lambda: summary_html(results, course, catalogue, batch,
                                                     participants)),
               (BATCH_RECORD, lambda: batch_record(results, catalogue, batch)))
    errors = []
    for name, render in exports:
        try:
            write_atomically(out / name, render())
        except Exception as error:  # noqa: BLE001 - the other exports are still written
            errors.append(f"{out / name}: {type(error).__name__}: {error}")
    return errors
