"""Random trees: reproducible from the seed, varied, and round-trippable into a task file."""

from hypothesis import given, settings
from hypothesis import strategies as st

from grader.randomtrees import Shape, generate, to_yaml
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
