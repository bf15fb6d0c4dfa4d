"""Random trees: reproducible from the seed, varied, and round-trippable into a task file."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.random_tree_generator import Shape, generate, to_yaml
from grader.tasks import load_course


def test_the_same_seed_gives_the_same_trees_and_another_seed_others():
    assert generate(5, 20) == generate(5, 20)
    assert generate(5, 20) != generate(6, 20)


def test_trees_cover_the_promised_distribution():
    trees = generate(2026, 300)
    branching = {len(n["children"]) for t in trees for n in t["nodes"].values() if "children" in n}
    values = [n["value"] for t in trees for n in t["nodes"].values() if "value" in n]
    assert branching == {1, 2, 3, 4}
    assert min(values) < -10**8 and max(values) > 10**8, "large magnitudes"
    assert any(-3 <= v <= 3 for v in values) and len(set(values)) < len(values), "ties"
    assert all(n.get("eval") is not None for t in trees for n in t["nodes"].values()
               if "children" in n), "heuristic values on inner nodes"


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), floats=st.booleans())
def test_a_tree_written_as_yaml_reads_back_as_the_same_tree(seed, floats, tmp_path_factory):
    import json
    tree = generate(seed, 1, Shape(floats=floats))[0]
    folder = tmp_path_factory.mktemp("roundtrip")
    task_file = folder / "t.yaml"
    task_file.write_text("tasks:\n  - id: t\n    game: tree\n    functions: [minimax]\n"
                         f"    tree: {to_yaml(tree, with_eval=True)}\n"
                         "    checks: [{kind: value}]\n")
    loaded = json.loads(load_course(task_file).tasks[0].game_spec)
    assert loaded == tree


def test_a_search_depth_range_draws_horizons_of_both_parities_reproducibly():
    from grader.random_tree_generator import horizons
    drawn = horizons(2026, 100, [1, 4])
    assert drawn == horizons(2026, 100, [1, 4]), "the same seed draws the same horizons"
    assert set(drawn) == {1, 2, 3, 4}
    assert horizons(2026, 3, 2) == [2, 2, 2] and horizons(2026, 3, None) == [None] * 3
    assert generate(2026, 50) == generate(2026, 50), "a range leaves the trees of a seed alone"


def test_the_bundled_course_searches_random_trees_to_odd_and_even_horizons(course):
    from grader.checks.random_trees import calls, horizons_of
    check = next(c for t in course.tasks for c in t.checks if c.kind == "random-trees"
                 and c.option("search_depth") is not None)
    assert {h % 2 for h in horizons_of(check)} == {0, 1}
    task = course.task(check.task_id)
    assert sorted(call.args[0] for call in calls(task, check)) == [1, 2, 3, 4]


def test_a_horizon_bug_of_one_parity_is_caught_with_the_drawn_horizon_shown(grade):
    from conftest import DATA
    from grader.report.messages import Catalogue
    folder = DATA / "random-horizons"
    course = load_course(folder / "tasks.yaml")
    correct = grade(folder / "korrekt", course)
    assert correct.score == correct.max_score
    result = grade(folder / "side-to-move", course)
    fixed, drawn = (v for v in result.verdicts)
    assert fixed.passed, "on even horizons evaluating for the side to move is right"
    assert not drawn.passed and drawn.facts["horizon"] % 2 == 1
    example = drawn.facts["example"]
    assert example["horizon"] == drawn.facts["horizon"] and example["nodes"] <= 6
    assert f"search depth {example['horizon']}" in Catalogue("en").text("example.text", **drawn.facts)


@pytest.mark.parametrize("search_depth, problem", [
    ("[0, 3]", "search_depth must be a whole number from 1 to 12 or a range"),
    ("[3, 1]", "search_depth must be a whole number from 1 to 12 or a range"),
    ("[1, 2, 3]", "search_depth must be a whole number from 1 to 12 or a range"),
    ("two", "search_depth must be a whole number from 1 to 12 or a range"),
])
def test_a_malformed_search_depth_is_refused_with_its_line(tmp_path, search_depth, problem):
    from grader.tasks import TaskFileError
    (tmp_path / "t.yaml").write_text(
        "course: {modules: {alphabeta: minimax}}\ntasks:\n  - id: t\n"
        "    functions: [alphabeta]\n    checks:\n"
        f"      - {{kind: random-trees,\n         search_depth: {search_depth}}}\n")
    with pytest.raises(TaskFileError, match=rf"t.yaml:7: {problem}"):
        load_course(tmp_path / "t.yaml")
