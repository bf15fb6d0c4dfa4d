"""A mistake whose characteristic line the student's source demonstrably lacks is never named;
one the evidence cannot tell apart from others is named with them; a mistake is said once per
function on the feedback page."""

import pytest

from grader.report.messages import Catalogue
from grader.report.views import student_view
from grader.source_evidence import ruled_out

from conftest import DATA, ROOT

EVIDENCE = DATA / "evidence"


# None of these folders compares a value strictly with a bound named α or β, and each tests
# for the end of the game only on a state its function takes: the one-sided strict cuts and
# the terminal test of the root are ruled out in all of them.
ONE_SIDED = {"strict-cut-max", "strict-cut-min", "root-terminal-test"}


@pytest.mark.parametrize("folder, absent", [
    ("no-raise", {"continue-not-break", "alpha-beta-swapped", "reverse-children",
                  "window-not-passed", *ONE_SIDED}),
    ("wrong-side", {"continue-not-break", "alpha-beta-swapped", "reverse-children",
                    "window-not-passed", *ONE_SIDED}),
    ("swapped-call", {"continue-not-break", "reverse-children", "window-not-passed",
                      *ONE_SIDED}),
    ("continue", {"alpha-beta-swapped", "reverse-children", "window-not-passed", *ONE_SIDED}),
    ("reversed", {"continue-not-break", "alpha-beta-swapped", "window-not-passed",
                  *ONE_SIDED}),
    # no call hands on α and β by name at all: nothing shows their order either
    ("fresh-window", {"continue-not-break", "reverse-children", *ONE_SIDED}),
    ("unparsable", set()),
])
def test_the_source_rules_out_only_what_it_demonstrably_lacks(folder, absent):
    assert ruled_out(EVIDENCE / folder) == absent


def test_a_missing_folder_rules_out_nothing(tmp_path):
    assert ruled_out(tmp_path / "nowhere") == set()
    assert ruled_out(None) == set()


def diagnoses(result, function="alphabeta"):
    return {tuple(v.facts.get("diagnosis") or ()) for v in result.verdicts
            if not v.passed and v.check.function == function} - {()}


@pytest.mark.parametrize("folder, named", [
    # The user's case: a cut tested on the wrong side was named "swaps α and β".
    ("wrong-side", {("wrong-side-cut",)}),
    ("swapped-call", {("alpha-beta-swapped",)}),
    # No pruning at all: `continue` is ruled out (there is none), and so is not passing the
    # window on (every recursive call hands on its own α and β).
    ("no-raise", {("alpha-never-raised",)}),
    # A fresh window (-inf, inf) in the recursive calls behaves like never raising α: the
    # source cannot rule that out (raising α may be skipped), so both are named.
    ("fresh-window", {("alpha-never-raised", "window-not-passed")}),
    ("continue", {("alpha-never-raised", "continue-not-break")}),
    ("reversed", {("reverse-children",)}),
])
def test_a_real_student_is_named_for_the_mistake_in_the_code(folder, named, grade):
    assert diagnoses(grade(EVIDENCE / folder)) == named


def page_text(result, course, language="en"):
    catalogue = Catalogue(language)
    view = student_view(result, course, catalogue, html=False)
    return catalogue, "\n".join(str(c["message"]) for task in view["tasks"]
                                for c in task["checks"])


def test_a_mistake_is_said_once_per_function_and_later_checks_point_to_it(grade, course):
    result = grade(EVIDENCE / "wrong-side")
    failed = [v for v in result.verdicts if not v.passed and v.facts.get("diagnosis")
              and v.check.visibility == "visible"]  # a hidden check's page says no more
    assert len(failed) > 1, "several checks fail with the same diagnosis"
    catalogue, text = page_text(result, course)
    assert text.count(catalogue.lookup("mistake.wrong-side-cut")) == 1
    assert text.count("The same mistake as named above") == len(failed) - 1


def test_formats_whose_checks_stand_alone_name_the_mistake_in_every_check(grade, course):
    result = grade(EVIDENCE / "wrong-side")
    catalogue = Catalogue("en")
    view = student_view(result, course, catalogue, html=False, for_student=False, group=False)
    messages = [str(c["message"]) for task in view["tasks"] for c in task["checks"]
                if not c["passed"] and c["function"] == "alphabeta" and not c["hidden"]]
    description = catalogue.lookup("mistake.wrong-side-cut")
    assert messages and all(description in m for m in messages if "behaves exactly" in m)
    assert sum(description in m for m in messages) > 1
