"""The LMS round trips grade and merge share: the options (``--roster``, ``--lms``,
``--moodle-scale``, ``--ilias-pass``), the roster and the hand-back, checked before anything
is graded, and the files the submissions' LMS takes back (Moodle's feedback zip, ILIAS's
status file and zip)."""

from __future__ import annotations

import argparse
from pathlib import Path


LMS_HELP = ("which LMS the feedback goes back to: moodle writes OUT/moodle-feedback.zip "
            "(Upload multiple feedback files in a zip), ilias OUT/ilias-status.csv and "
            "OUT/ilias-feedback.zip (multi-feedback upload), none neither [auto: moodle when a "
            "folder is named like Moodle's download (Name_123456_assignsubmission_file_), "
            "else ilias when one is named like ILIAS's (Lastname_Firstname_Login_123)]")


def add_lms_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--roster", metavar="FILE", help="the course's participants as CSV "
                         "(Moodle's participants or gradebook export, or the grading "
                         "worksheet; English or German headers): moodle.csv then names each "
                         "student by username (else ID number, else email address) for "
                         "Moodle's gradebook import, and leaves out, and lists, whom the "
                         "roster does not name [moodle.csv names the folders]")
    command.add_argument("--lms", choices=("auto", "moodle", "ilias", "none"), default="auto",
                         help=LMS_HELP)
    command.add_argument("--moodle-scale", type=_scale, default="worksheet",
                         metavar="worksheet|points|percent|MAXIMUM",
                         help="the scale Moodle grades are written on, in the worksheet and "
                         "moodle.csv: worksheet (the worksheet's or roster's Maximum Grade: 54 "
                         "of 60 points are 9.00 out of 10.00; points where it states none), "
                         "points (as graded), percent, or the grade item's maximum, e.g. 10; "
                         "the feedback comment always says the points [worksheet]")
    command.add_argument("--ilias-pass", type=_percent, default=50.0, metavar="PERCENT",
                         help="in ilias-status.csv, passed from this share of the points on, "
                         "else failed [50]")


def _scale(text: str):
    from ..lms.handback import Scale
    try:
        return Scale.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _percent(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"{text!r}: give a percentage from 0 to 100")
    return value


def roster_of(path: str | None, err):
    """The roster, None without one, False (after printing every problem) when it is
    unusable: checked before anything is graded."""
    if path is None:
        return None
    from ..lms.roster import RosterError, read_roster
    try:
        return read_roster(path)
    except RosterError as error:
        for problem in error.problems:
            err.print(f"--roster {problem}", markup=False, highlight=False)
        err.print("The roster cannot be used; nothing was graded.", markup=False)
        return False


def handback_of(worksheet, roster, scale, course, err):
    """The batch's hand-back (``lms.handback.Handback``), after saying loudly what its
    scale does to the grades; None (after saying why) when the course's points cannot be
    written on the LMS's scale: checked before anything is graded."""
    from ..lms.handback import Handback
    handback = Handback(worksheet or None, roster or None, scale)
    refusals, warnings = handback.problems(course.max_score)
    for line in warnings:
        err.print(f"WARNING: {line}", markup=False, highlight=False, style="bold yellow")
    for line in refusals:
        err.print(line, markup=False, highlight=False)
    if refusals:
        err.print("The grades cannot be written on the LMS's scale; nothing was graded.",
                  markup=False)
        return None
    return handback


def write_lms(args, results, catalogue, out: Path, err, worksheet=None,
              roster=None) -> list[str]:
    """The feedback zips and ILIAS's status file the submissions' LMS takes back (see
    ``--lms``; with the worksheet, Moodle's zip reaches the participants it matched, every
    member of a team), with what they leave out printed in English (the files are in the
    course's language); returns what could not be written."""
    from ..lms import handback, ilias, moodle
    from ..report.messages import Catalogue
    from ..report.safe import terminal_text
    from ..report.files import write_atomically
    english = Catalogue("en")
    to_moodle = args.lms == "moodle" or (args.lms == "auto"
                                         and moodle.looks_like_download(results))
    to_ilias = args.lms == "ilias" or (args.lms == "auto" and not to_moodle
                                       and ilias.looks_like_download(results))
    files, problems = {}, {}
    if to_moodle:
        # the zip holds the pages as written; the catalogue says only what was left out
        files["moodle-feedback.zip"], problems["moodle-feedback.zip"] = \
            handback.feedback_zip(results, out, english, worksheet or None, roster)
    if to_ilias:
        status_text, _ = ilias.status_csv(results, catalogue, args.ilias_pass)
        files["ilias-status.csv"] = status_text
        files["ilias-feedback.zip"], more = ilias.feedback_zip(results, out, english,
                                                               status_text)
        listed = ilias.status_csv(results, english, args.ilias_pass)[1]
        problems["ilias-status.csv"] = list(dict.fromkeys(listed + more))
    for name, listed in problems.items():
        for problem in listed:
            err.print(f"{name}: {terminal_text(problem)}", markup=False, highlight=False)
    errors = []
    for name, content in files.items():
        try:
            write_atomically(out / name, content)
        except OSError as error:
            errors.append(f"{out / name}: {error}")
    return errors
