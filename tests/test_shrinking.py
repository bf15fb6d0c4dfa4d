"""The counterexample reducer on its own, with a search mistake simulated in the test: pure
functions, no processes."""

from hypothesis import given, settings
from hypothesis import strategies as st

from grader.random_tree_generator import generate
from grader.shrinking import _rounded, shrink


def value(tree, name=None, maximizing=True, alternate=True):
    """Minimax value; ``alternate=False`` is the classic mistake of maximizing everywhere."""
    node = tree["nodes"][name or tree["root"]]
    if not node.get("children"):
        return node["value"]
    values = [value(tree, child, not maximizing if alternate else True, alternate)
              for child in node["children"]]
    return max(values) if maximizing else min(values)


def disagrees(tree):
    return value(tree) != value(tree, alternate=False)


def test_a_chain_of_single_children_is_shortened_by_moving_a_subtree_up():
    tree = {"kind": "tree", "root": "A", "nodes": {
        "A": {"children": ["B"], "eval": 0}, "B": {"children": ["C"], "eval": 0},
        "C": {"children": ["D"], "eval": 0}, "D": {"children": ["E", "F"], "eval": 0},
        "E": {"value": 3}, "F": {"value": 8}}}
    assert disagrees(tree)
    minimal = shrink(tree, disagrees)
    # MAX root, one MIN child with two different leaves: nothing smaller disagrees.
    assert set(minimal["nodes"]) == {"A", "A1", "A1.1", "A1.2"}
    assert disagrees(minimal)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_failing_random_tree_shrinks_to_the_smallest_counterexample(seed):
    failing = [tree for tree in generate(seed, 20) if disagrees(tree)]
    for tree in failing[:3]:
        minimal = shrink(tree, disagrees)
        assert disagrees(minimal)
        assert set(minimal["nodes"]) == {"A", "A1", "A1.1", "A1.2"}, minimal
        leaves = [n["value"] for n in minimal["nodes"].values() if "value" in n]
        assert all(abs(v) <= 1 for v in leaves), "values simplified"


def test_the_work_is_bounded_by_distinct_trees_and_repeatable():
    tree = next(t for t in generate(7, 50) if disagrees(t) and len(t["nodes"]) > 12)
    seen = []

    def counting(candidate):
        seen.append(candidate)
        return disagrees(candidate)

    first = shrink(tree, counting, probes=10)
    assert len(seen) <= 11, "ten trees, then the renamed result once"
    assert shrink(tree, disagrees, probes=10) == first


def test_a_search_that_never_disagrees_again_keeps_the_failing_tree():
    tree = generate(3, 1)[0]
    assert shrink(tree, lambda candidate: candidate is tree) is tree


def test_values_are_rounded_towards_round_numbers():
    assert _rounded(-10593) == (-10000, -10000)
    assert _rounded(730) == (700, 1000)
    assert _rounded(42) == (40, 10)
    assert _rounded(5) == () and _rounded(2.5) == ()
