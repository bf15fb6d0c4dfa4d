"""reference/explicit_trees.py: minimax, alpha-beta and negamax searched on a tree's nodes are
the general searches of reference/minimax.py on the tree's recording game, node for node; and
the tree facts walked on the nodes (grader.answers.facts.explicit_tree_facts) are the rules'
walk, with the inner values and without (a self-check kit's).  The random-tree check's
reference answers, and a kit's facts of its trees, are computed with them."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.answers import search as answer_search_module
from grader.answers.bounded import ReferenceTooLarge
from grader.answers.facts import (explicit_tree, explicit_tree_facts, facts_and_action_values,
                                  tree_facts)
from grader.answers.search import answer_search
from grader.games import make_game
from grader.random_tree_generator import Shape, generate
from reference import explicit_trees, minimax as general

# whose turn each depth is: the two-player default, MIN at the root, several MIN agents (the
# multi-agent convention's trees), a player moving twice running
CYCLES = [None, ["MAX", "MIN"], ["MIN", "MAX"], ["MAX", "MIN", "MIN"], ["MAX", "MAX", "MIN"],
          ["MAX", "MIN", "MIN", "MIN"]]


@st.composite
def trees(draw):
    """A drawn tree of the random-tree generator's kind, of any shape it can make, with
    another players' cycle or action labels now and then."""
    low = draw(st.integers(1, 3))
    shape = Shape(branching=(low, draw(st.integers(low, 4))),
                  depth=(1, draw(st.integers(1, 5))),
                  values=draw(st.sampled_from([(-10**9, 10**9), (-3, 3), (0, 1)])),
                  ties=draw(st.sampled_from([0.0, 0.3, 1.0])),
                  leaf_share=draw(st.sampled_from([0.0, 0.15, 0.5])),
                  chains=draw(st.sampled_from([0.0, 0.3])), floats=draw(st.booleans()))
    spec = generate(draw(st.integers(0, 10**6)), 1, shape)[0]
    spec = {**spec, "nodes": {name: dict(node) for name, node in spec["nodes"].items()}}
    cycle = draw(st.sampled_from(CYCLES))
    if cycle is not None:
        spec["players"] = cycle
    if draw(st.booleans()):
        for node in spec["nodes"].values():
            if node.get("children"):
                node["actions"] = [f"move-{i}" for i in range(len(node["children"]))][::-1]
    if draw(st.booleans()):
        for node in spec["nodes"].values():
            if node.get("children") and draw(st.booleans()):
                del node["eval"]     # no heuristic: neutral (0) at the horizon
    return spec


def general_search(name, spec, depth, prune_on_equality):
    game, root = make_game(spec)
    if name == "alphabeta":
        value, action = general.alphabeta(game, root, depth, prune_on_equality)
    else:
        value, action = getattr(general, name)(game, root, depth)
    return value, action, game.visit_log()


def same(first, second) -> bool:
    """Equal, and of the same types all through (an int is not a float here)."""
    if type(first) is not type(second):
        return False
    if isinstance(first, dict):
        return first.keys() == second.keys() and all(same(first[k], second[k]) for k in first)
    if isinstance(first, (list, tuple)):
        return len(first) == len(second) and all(map(same, first, second))
    return first == second


@settings(max_examples=400, deadline=None)
@given(spec=trees(), depth=st.one_of(st.none(), st.integers(0, 6)),
       prune_on_equality=st.booleans(), name=st.sampled_from(explicit_trees.SEARCHES))
def test_the_specialised_searches_are_the_general_ones_node_for_node(spec, depth,
                                                                      prune_on_equality, name):
    assert explicit_tree(spec)
    expected = general_search(name, spec, depth, prune_on_equality)
    found = explicit_trees.search(name, spec, depth, prune_on_equality)
    assert same(found, expected)


@settings(max_examples=300, deadline=None)
@given(spec=trees(), depth=st.one_of(st.none(), st.integers(0, 6)))
def test_the_facts_walked_on_the_nodes_are_the_rules_walk(spec, depth):
    assert same(explicit_tree_facts(spec, depth), facts_and_action_values(spec, depth))


@settings(max_examples=200, deadline=None)
@given(spec=trees(), depth=st.one_of(st.none(), st.integers(0, 6)))
def test_a_kits_facts_walked_on_the_nodes_are_the_rules_walk(spec, depth):
    from grader.answers import public
    facts, actions = explicit_tree_facts(spec, depth, inner=False)
    assert actions is None
    assert same(facts, tree_facts(spec, depth, inner=False))
    public._shape.cache_clear()
    original, public.explicit_tree = public.explicit_tree, lambda spec: False
    try:
        by_rules = public._shape(json.dumps(spec), depth, False, None)
    finally:
        public.explicit_tree = original
    public._shape.cache_clear()
    assert same(public._shape(json.dumps(spec), depth, False, None), by_rules)


@settings(max_examples=150, deadline=None)
@given(spec=trees(), depth=st.one_of(st.none(), st.integers(1, 5)),
       prune_on_equality=st.booleans(), name=st.sampled_from(explicit_trees.SEARCHES),
       convention=st.sampled_from(["game", "helpers", "negamax-sign", "multi-agent"]))
def test_a_reference_answer_is_the_same_with_and_without_the_specialised_search(
        spec, depth, prune_on_equality, name, convention):
    fast = answer_search(name, spec, depth, prune_on_equality, convention)
    answer_search_module._WALKS.clear()
    original = answer_search_module._searchable
    answer_search_module._searchable = lambda spec, text: False
    try:
        slow = answer_search(name, spec, depth, prune_on_equality, convention)
    finally:
        answer_search_module._searchable = original
    assert same(fast, slow)


def test_the_bundled_course_random_trees_are_searched_on_their_nodes(course):
    from grader.checks.random_trees import trees_of
    check = next(c for t in course.tasks for c in t.checks if c.kind == "random-trees")
    assert all(explicit_tree(spec) for spec in trees_of(check))


LEAF = {"value": 1}


@pytest.mark.parametrize("spec, why", [
    ({"kind": "tree", "root": "A", "players": ["MAX", "CHANCE"],
      "nodes": {"A": {"children": ["B"]}, "B": LEAF}}, "chance"),
    ({"kind": "tree", "root": "A", "players": ["A", "B"],
      "nodes": {"A": {"children": ["B"]}, "B": {"value": [1, 2]}}}, "utility vectors"),
    ({"kind": "tree", "root": "A",
      "nodes": {"A": {"children": ["B", "C"]}, "B": {"children": ["D"]},
                "C": {"children": ["D"]}, "D": LEAF}}, "a node of two parents"),
    ({"kind": "tree", "root": "A", "nodes": {"A": {"children": ["B", "B"]}, "B": LEAF}},
     "a child twice"),
    ({"kind": "tree", "root": "A",
      "nodes": {"A": {"children": ["B", "C"], "actions": ["x", "x"]}, "B": LEAF, "C": LEAF}},
     "an action label twice"),
    ({"kind": "tree", "root": "A", "nodes": {"A": {"children": ["B"]}}}, "a missing node"),
    ({"kind": "tictactoe", "board": "........."}, "not a tree"),
])
def test_trees_the_specialised_searches_do_not_know_are_left_to_the_general_ones(spec, why):
    assert not explicit_tree(spec), why


@pytest.mark.parametrize("name, depth", [("alphabeta", None), ("minimax", None),
                                         ("minimax", -1), ("negamax", -1)])
def test_a_tree_past_the_reference_limit_stops_as_before(monkeypatch, name, depth):
    # a negative depth: the walk evaluates the root, minimax never reaches 0 and searches
    # on; the bounded general search stops it
    from grader.answers import bounded
    spec = generate(3, 1, Shape(branching=(3, 3), depth=(4, 4), leaf_share=0.0))[0]
    monkeypatch.setattr(bounded, "REFERENCE_VISIT_LIMIT", 20)
    with pytest.raises(ReferenceTooLarge):
        answer_search(name, spec, depth, True)


@pytest.mark.parametrize("spec", [
    {"kind": "tree", "root": "A", "nodes": {"A": {"value": 3}}},
    {"kind": "tree", "root": "A", "players": ["MIN", "MAX"],
     "nodes": {"A": {"children": ["B", "C"], "actions": ["left", "right"], "eval": 0.0},
               "B": {"value": 2.5}, "C": {"children": ["D"]}, "D": {"value": -1}}},
])
@pytest.mark.parametrize("depth", [None, 0, 1])
def test_a_leaf_root_and_a_labelled_tree_read_alike_both_ways(spec, depth):
    from grader.answers import public
    assert explicit_tree(spec)
    assert same(explicit_tree_facts(spec, depth), facts_and_action_values(spec, depth))
    for name in explicit_trees.SEARCHES:
        assert same(explicit_trees.search(name, spec, depth, True),
                    general_search(name, spec, depth, True))
    public._shape.cache_clear()
    fast = public._shape(json.dumps(spec), depth, False, None)
    public._shape.cache_clear()
    original, public.explicit_tree = public.explicit_tree, lambda spec: False
    try:
        assert same(fast, public._shape(json.dumps(spec), depth, False, None))
    finally:
        public.explicit_tree = original
        public._shape.cache_clear()
