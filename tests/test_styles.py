"""Correct solutions in the usual textbook styles get full marks on every check, hidden too."""

import pytest

from conftest import DATA, ROOT

STYLES = sorted(p.name for p in (DATA / "styles").iterdir() if p.is_dir()) + ["korrekt"]


@pytest.mark.parametrize("style", STYLES)
def test_correct_style_gets_full_marks(style, grade):
    folder = DATA / "styles" / style if style != "korrekt" else ROOT / "submissions" / style
    result = grade(folder)
    failures = [(v.check.id, v.reason, v.facts) for v in result.verdicts if not v.passed]
    assert failures == []
    assert result.score == result.max_score
