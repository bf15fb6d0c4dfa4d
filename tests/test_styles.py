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


TERMINAL_ROOT_COURSE = """\
course: {title: Terminal root asked for}
tasks:
  - id: edge
    title: "Minimax; the statement says: a terminal root gives its utility and no action"
    game: tree
    tree: {A: {B: [3, 5], C: [2, 9]}}
    functions: [minimax]
    checks:
      - {kind: hygiene, aspects: [repeat, terminal-root, single-child], points: 1}
"""


def test_a_terminal_root_is_checked_only_where_a_task_asks_for_it(course, grade, tmp_path):
    from grader.tasks import load_course
    asked = [c for t in course.tasks for c in t.checks if c.kind == "hygiene"
             and "terminal-root" in c.option("aspects", [])]
    assert asked == []  # the bundled course does not ask
    (tmp_path / "course.yaml").write_text(TERMINAL_ROOT_COURSE)
    edge = load_course(tmp_path)
    handles = grade(ROOT / "submissions" / "korrekt", edge)
    assert handles.score == handles.max_score == 1
    ignores = grade(DATA / "styles" / "fail-hard-root-loop", edge)
    assert ignores.score == 0
    assert [v.reason for v in ignores.verdicts] == ["hygiene.terminal-root"]
