"""Nothing a file without a search can replay: the kit's files, read as a student reads them
(zcat, JSON), hold nothing that, written into a submission, scores through the kit.  (Apart
from tests/test_kit.py: the lecture course's kit, with its Kalah searches, takes the longest
of the kit tests, so it runs on a worker of its own.)"""

import json
from dataclasses import replace
from pathlib import Path

import pytest

from grader.answers.book import AnswerBook
from grader.answers.cache import AnswerCache
from grader.games import make_rules
from grader.grading import Plan
from grader.kit import load_kit
from grader.tasks import load_course

from conftest import DATA, ROOT, kit_once
from test_kit import check, kit_files, plain_content, results_of


def where(spec: dict, args) -> str:
    """How the replay module recognises a call's game (``_where`` there)."""
    rules = make_rules(spec)
    nodes = getattr(rules, "nodes", None)
    found = json.dumps(nodes, sort_keys=True) if nodes is not None \
        else repr(rules.initial_state())
    return json.dumps([found, list(args)])


def harvest_item(answer) -> dict:
    """What a student can take from one input's answer: a value (a number under "value", else
    the first number anywhere), actions (every string or number, "action" first), the visits
    (a list under "visits", else the longest list of strings anywhere), the nodes asked for
    evaluate and utility, a whole reply ("returned")."""
    if not isinstance(answer, dict):
        return {}
    found = list(plain_content(answer))
    numbers = [v for _, v in found if isinstance(v, (int, float))]
    lists = [v for k, v in found if isinstance(v, list) and k not in ("evaluate_calls",
                                                                      "utility_calls")]
    harvested = {"actions": [answer["action"]] if "action" in answer else []}
    harvested["actions"] += [v for _, v in found if isinstance(v, (int, str))]
    value = answer.get("value")
    if isinstance(value, (int, float)) or (isinstance(value, list) and value
                                          and all(isinstance(v, (int, float)) for v in value)):
        harvested["value"] = value
    elif numbers:
        harvested["value"] = numbers[0]
    visits = answer.get("visits")
    harvested["visits"] = visits if isinstance(visits, list) and all(
        isinstance(v, str) for v in visits) else max(lists, key=len, default=[])
    for calls in ("evaluate_calls", "utility_calls"):
        if isinstance(answer.get(calls), list):
            harvested[calls] = answer[calls]
    if "returned" in answer and not isinstance(answer["returned"], (str, dict)):
        harvested["returned"] = answer["returned"]
    return harvested


def harvest(kit: Path, answers: dict | None = None) -> dict:
    """A replay's table (``json.dumps([function, where])`` -> harvested answer) from what the
    kit's files hold: the answers to its calls (found by the calls' keys, which a student
    computes with the kit's wheel), the small trees' answers, and the pinned answers of the
    course's checks; ``answers``: another answer file's content to harvest instead."""
    files = kit_files(kit)
    course = load_kit(kit).course
    plan = Plan.of(course, only_visible=True)
    held = answers if answers is not None else files["kit-answers.json.gz"]
    table = {}

    def keep(call, item, answer):
        key = [call.function, item] if call.convention == "plain" \
            else [call.function, where(item, call.args)]
        table[json.dumps(key)] = harvest_item(answer)

    for call in plan.calls:
        for item, answer in zip(call.inputs(), held.get(AnswerCache.digest(call.key()), ())):
            keep(call, item, answer)
    checks = {check.id: check for check in plan.checks}
    for check_id, entries in files["kit-small-trees.json.gz"].items():
        for horizon, items, answers_of_items in entries:
            call = next(c for c in plan.calls_of[check_id]
                        if (c.args[0] if c.args else None) == horizon)
            for item, answer in zip(items, answers_of_items):
                keep(replace(call, items=(item,)), json.loads(item), answer)
    for check in checks.values():     # an evaluate check's expect:, where a kit holds it
        if check.kind == "evaluate" and check.option("expect") is not None:
            table[json.dumps([check.function, [check.option("board"), check.option("player")]])] \
                = {"value": check.option("expect")}
    return table


def write_replay(folder: Path, kit: Path, table: dict) -> Path:
    """A submission of the course's modules whose functions replay ``table``."""
    folder.mkdir(parents=True)
    template = (DATA / "kit-replay" / "replay.py.txt").read_text()
    (folder / "kit_replay.py").write_text(template.replace("__TABLE__", json.dumps(table)))
    functions: dict = {}
    for call in Plan.of(load_kit(kit).course, only_visible=True).calls:
        functions.setdefault(call.module, {})[call.function] = call.convention
    for module, conventions in functions.items():
        lines = ["from kit_replay import replay_plain, replay_search", ""]
        for function, convention in conventions.items():
            if convention == "plain":
                lines += [f"def {function}(*args):",
                          f"    return replay_plain({function!r}, args)", ""]
            else:
                lines += [f"def {function}(game, state, *args):",
                          f"    return replay_search({function!r}, game, state, args)", ""]
        (folder / f"{module}.py").write_text("\n".join(lines))
    return folder


@pytest.mark.parametrize("tasks", ["tasks", "courses/vorlesung/tasks"])
def test_a_replay_of_what_the_kit_files_hold_scores_nothing_through_the_kit(
        tasks, tmp_path, tmp_path_factory):
    """The kit's files read as a student reads them (zcat, JSON), everything that looks like a
    value, an action, a visit list or a count harvested, and written into a submission without
    a search that recognises each call's game, walks the harvested visits on the game object
    and returns the harvested answers: through the kit it scores nothing.  The same replay of
    the reference's plain answers (what a kit held before) scores nearly everything: the
    replay works, the kit holds nothing to replay."""
    course = load_course(ROOT / tasks)
    # the run's one kit of the course, made by `grader kit` (tests/test_vorlesung.py reads what
    # it said), which kept the reference's answers in the run's answer cache
    kit, _ = kit_once(tmp_path_factory, f"kit-{Path(tasks).parent.name or 'tasks'}",
                      ROOT / tasks)
    book = AnswerBook.for_course(course)
    plan = Plan.of(load_kit(kit).course, only_visible=True)
    plain = json.loads(json.dumps({AnswerCache.digest(call.key()): book[call]
                                   for call in plan.calls}))
    scores = {}
    for name, table in (("replay", harvest(kit)), ("plain", harvest(kit, plain))):
        folder = write_replay(tmp_path / name, kit, table)
        done = check([str(folder), "--kit", str(kit)], tmp_path / f"out-{name}", tmp_path,
                     without_reference=True)
        assert done.returncode in (0, 1), done.stderr
        results = results_of(tmp_path / f"out-{name}", name)
        scores[name] = (results["score"], sum(t["max_score"] for t in results["tests"]))
    assert scores["replay"][0] == 0, scores
    assert scores["plain"][0] >= 0.8 * scores["plain"][1], scores
