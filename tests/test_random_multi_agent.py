"""Random trees for Pacman-style agents: several agents, win and lose states at any depth,
strict pruning, and the set of generated states compared as the project's autograder does."""

from dataclasses import replace

import pytest

from grader.answers.search import answer_search
from grader.answers.facts import reference_depth
from grader.calls import ItemOutcome
from grader.checks.random_trees import calls, compare_tree, horizons_of, trees_of
from grader.games.tree import TreeRules
from grader.tasks import load_course

from conftest import DATA

FOLDER = DATA / "random-multi-agent"


@pytest.fixture(scope="module")
def agents_course():
    return load_course(FOLDER / "tasks.yaml")


def random_check(course, function, number=1):
    suffix = "" if number == 1 else f"-{number}"
    return next(c for c in course.tasks[0].checks
                if c.id == f"random-agents/{function}/random-trees{suffix}")


def test_multi_agent_trees_have_several_agents_and_win_and_lose_states_at_any_depth(
        agents_course):
    trees = trees_of(random_check(agents_course, "MinimaxAgent"))
    assert {len(t["players"]) for t in trees} == {2, 3, 4}, "one MAX and 1 to 3 MIN agents"
    assert all(t["players"][1:] == ["MIN"] * (len(t["players"]) - 1) for t in trees)
    outcomes_in_a_round, outcomes_above_the_bottom = set(), set()
    for tree in trees:
        rules = TreeRules(tree)
        deepest = max(rules.depth.values())
        for name, node in tree["nodes"].items():
            if "children" not in node:
                outcome = node.get("outcome", "win")
                if rules.depth[name] % len(tree["players"]):
                    outcomes_in_a_round.add(outcome)
                if rules.depth[name] < deepest:
                    outcomes_above_the_bottom.add(outcome)
    assert outcomes_in_a_round == outcomes_above_the_bottom == {"win", "lose"}
    values = [n.get("value", n.get("eval")) for t in trees for n in t["nodes"].values()]
    assert min(values) < -10**8 and max(values) > 10**8, "scores far beyond ±9999"


def test_agents_search_every_tree_to_its_leaves_or_to_a_drawn_number_of_rounds(agents_course):
    full = random_check(agents_course, "MinimaxAgent")
    for tree, horizon in zip(trees_of(full), horizons_of(full)):
        deepest = max(TreeRules(tree).depth.values())
        assert horizon * len(tree["players"]) >= deepest > (horizon - 1) * len(tree["players"])
    drawn = random_check(agents_course, "MinimaxAgent", 2)
    assert set(horizons_of(drawn)) == {1, 2}
    task = agents_course.tasks[0]
    assert sorted(call.args[0] for call in calls(task, drawn)) == [1, 2]
    assert all(not call.prune_on_equality for call in calls(task, drawn)), "Pacman's strict rule"


def test_alpha_beta_agents_are_judged_by_the_set_of_generated_states(agents_course):
    check = random_check(agents_course, "AlphaBetaAgent")
    tree = trees_of(check)[0]
    call = calls(agents_course.tasks[0], check)[0]
    answer = answer_search("alphabeta", tree, reference_depth(replace(call, args=(3,)), tree),
                           False, "multi-agent")
    shuffled = {"visits": list(reversed(answer["visits"])), "utility_calls": [],
                "evaluate_calls": []}
    outcome = ItemOutcome(status="ok", returned=[None, answer["action"]], log=shuffled)
    assert compare_tree(check, outcome, answer) is None
    fewer = ItemOutcome(status="ok", returned=[None, answer["action"]],
                        log={**shuffled, "visits": answer["visits"][:-1]})
    assert compare_tree(check, fewer, answer)["aspect"] == "visits"


def test_correct_agents_pass_every_random_tree(agents_course, grade):
    result = grade(FOLDER / "korrekt", agents_course)
    assert [(v.check.id, v.reason) for v in result.verdicts if not v.passed] == []


def test_agents_that_take_9999_for_infinity_fail_with_a_counterexample_of_at_most_10_nodes(
        agents_course, grade):
    result = grade(FOLDER / "unendlich-9999", agents_course)
    failed = {v.check.function: v for v in result.verdicts
              if not v.passed and v.check.id.endswith("random-trees")}
    assert set(failed) == {"MinimaxAgent", "AlphaBetaAgent"}, "expectimax keeps -inf"
    for verdict in failed.values():
        example = verdict.facts["example"]
        assert verdict.facts["shrunk"] and example["nodes"] <= 10
        assert f"random.{example['aspect']}" == verdict.reason, "shows what the message says"
        scores = [n.get("value", n.get("eval")) for n in example["spec"]["nodes"].values()]
        assert any(abs(s) >= 9999 for s in scores), "the counterexample needs a large score"
        assert example["tree"].startswith('num_agents: "') and "successors: " in example["tree"]


def test_asking_the_root_instead_of_the_current_state_whether_it_is_lost_is_caught(
        agents_course, grade):
    result = grade(FOLDER / "wurzel-verloren", agents_course)
    failed = {v.check.function for v in result.verdicts if not v.passed}
    assert failed == {"MinimaxAgent", "AlphaBetaAgent", "ExpectimaxAgent"}
    for verdict in result.verdicts:
        assert verdict.facts["example"]["nodes"] <= 10
    # named as what it is, never as swapped min and max or players that do not alternate; the
    # agents that crash on a terminal state (returning None) are named as nothing
    assert {v.check.function: tuple(v.facts.get("diagnosis") or ())
            for v in result.verdicts} == {"AlphaBetaAgent": ("root-terminal-test",),
                                          "MinimaxAgent": (), "ExpectimaxAgent": ()}


def test_a_multi_agent_random_tree_check_needs_no_fixed_tree(tmp_path):
    (tmp_path / "t.yaml").write_text(
        "tasks:\n  - id: t\n    convention: multi-agent\n    module: multiAgents\n"
        "    functions: [MinimaxAgent]\n"
        "    checks: [{kind: random-trees, agents: [1, 2], search_depth: [1, 3]}]\n")
    check = load_course(tmp_path / "t.yaml").tasks[0].checks[0]
    assert {len(t["players"]) for t in trees_of(check)} == {2, 3}


def test_a_pacman_style_counterexample_reads_back_as_a_tree_test(agents_course, tmp_path):
    """What the feedback shows is a tree test `grader import-trees` accepts, with the same
    answers: a student can paste it into the project's test folder."""
    from grader.cli import main
    from grader.random_tree_generator import to_pacman
    check = random_check(agents_course, "AlphaBetaAgent", 2)
    for number, (tree, horizon) in enumerate(zip(trees_of(check)[:8], horizons_of(check))):
        fields = dict(part.split(": ", 1) for part in to_pacman(tree, horizon).split("; "))
        lines = {key: value.strip('"').split(", ") for key, value in fields.items()}
        answer = answer_search("alphabeta", tree, horizon * len(tree["players"]), False,
                               "multi-agent")
        test = ['class: "GraphGameTreeTest"', 'alg: "AlphaBetaAgent"']
        test += [f"{key}: {fields[key]}" for key in ("num_agents", "depth", "start_state",
                                                       "win_states", "lose_states")]
        for block in ("successors", "evaluation"):
            test += [f'{block}: """', *lines[block], '"""']
        (tmp_path / f"t{number}.test").write_text("\n".join(test) + "\n")
        (tmp_path / f"t{number}.solution").write_text(
            f'action: "{answer["action"]}"\ngenerated: "{" ".join(sorted(answer["visits"]))}"\n')
    out = tmp_path / "back.yaml"
    assert main(["import-trees", str(tmp_path), "--out", str(out)]) == 0
    assert main(["validate", str(out)]) == 0, "the same action and generated states"


def test_random_trees_draw_the_tasks_number_of_agents_and_warn_where_asked_for_others():
    course = load_course(FOLDER / "two-agents.yaml")
    own, other = (next(c for c in course.tasks[0].checks if c.id == f"one-ghost/MinimaxAgent/{k}")
                  for k in ("random-trees", "random-trees-2"))
    assert {tuple(t["players"]) for t in trees_of(own)} == {("MAX", "MIN")}
    assert {len(t["players"]) for t in trees_of(other)} == {2, 3, 4}
    assert [(w.line, w.message) for w in course.warnings] == [
        (12, "agents [1, 3] draws trees with 2 to 4 agents, but this task's players (MAX, MIN) "
             "are 2; leave agents out to draw only 2-agent trees")]


def test_validate_prints_the_warning_with_file_and_line(capsys):
    from grader.cli import main
    assert main(["validate", str(FOLDER / "two-agents.yaml"), "--no-cache"]) == 0
    assert "warning: " + str(FOLDER / "two-agents.yaml") + ":12: agents [1, 3]" in \
        capsys.readouterr().err
