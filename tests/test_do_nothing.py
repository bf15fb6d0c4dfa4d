"""No credit without evidence: submissions that do no search, answer a constant or answer in
the wrong shape score nothing on the bundled course, and the feedback says a wrong shape once
per task instead of on every check."""

import json

import pytest

from conftest import DATA, ROOT

DO_NOTHING = sorted(p.name for p in (DATA / "do-nothing").iterdir() if p.is_dir())
WRONG_SHAPE = ("value-only", "action-only", "triple", "string-value")


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    from grader.cli import main
    out = tmp_path_factory.mktemp("do-nothing")
    assert main(["grade", "--tasks", str(ROOT / "tasks"), "--submissions",
                 str(DATA / "do-nothing"), "--out", str(out), "--lang", "en"]) == 0
    return Batch({folder.name: (json.loads((folder / "results.json").read_text()),
                                (folder / "feedback.md").read_text())
                  for folder in out.iterdir() if folder.is_dir()}, out)


class Batch(dict):
    def __init__(self, found, out):
        super().__init__(found)
        self.out = out

    def html(self, student):
        return (self.out / student / "feedback.html").read_text()


def test_there_are_many_kinds_of_doing_nothing():
    assert len(DO_NOTHING) >= 12 and set(WRONG_SHAPE) <= set(DO_NOTHING)


@pytest.mark.parametrize("student", DO_NOTHING)
def test_doing_nothing_scores_nothing(batch, student):
    results, _ = batch[student]
    earned = [t["name"] for t in results["tests"] if t["score"] > 0]
    assert earned == [] and results["score"] == 0


@pytest.mark.parametrize("student", WRONG_SHAPE)
def test_a_wrong_shape_is_said_once_per_task(batch, student):
    _, feedback = batch[student]
    tasks = feedback.count("\n## ")
    said = feedback.count("An answer of another shape earns no points for this call")
    assert 1 <= said <= tasks
    assert "See the note on minimax at the start of this task." in feedback


def test_the_wrong_shape_note_names_what_came_back(batch):
    _, feedback = batch["value-only"]
    assert "Your function returns 3; expected is a pair (value, action)" in feedback
    html = batch.html("value-only")
    assert html.count('<div class="note" role="note">') == feedback.count("\n> **`")
