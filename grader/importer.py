"""``grader import-trees DIR``: game-tree tests of the Pacman multi-agent project -> YAML tasks.

Such a test is a ``NAME.test`` file of ``key: "value"`` and ``key: \"\"\"multi-line\"\"\"`` pairs:
``alg`` (MinimaxAgent, AlphaBetaAgent or ExpectimaxAgent), ``depth`` (rounds of all agents),
``num_agents``, ``start_state``, ``win_states`` and ``lose_states`` (space-separated),
``successors`` (lines ``state action next``) and ``evaluation`` (lines ``state value``), with
a ``NAME.solution`` file holding ``action`` and ``generated`` (the states the search made).
Each test becomes a task of the multi-agent convention that checks what the project's
autograder checks: the action (the solution's, i.e. the first optimal one) and the *set* of
states the search generates (in any order).  The solution's answers are written as pins
(``action``, the number of generated states, and the states within the horizon that are never
generated as ``pruned``), so ``grader validate`` confirms that this grader's reference
agrees with them.

Tests this grader cannot represent (other test classes such as ``PacmanGameTreeTest``, other
algorithms, graphs in which a state has two parents, tests without a solution) are skipped
with a warning; a file that is malformed is a problem.  Task ids are ``PREFIX-NAME`` (the
prefix defaults to the folder's name), so that several folders can be imported into one
course.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from .yamlsrc import Problem

PAIR = re.compile(r'^(\w+):\s*"(.*)"\s*$')
BLOCK_START = re.compile(r'^(\w+):\s*"""\s*$')
ALGORITHMS = {"MinimaxAgent", "AlphaBetaAgent", "ExpectimaxAgent"}


class ImportError_(Exception):
    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


class NotATree(Exception):
    """A well-formed test that this grader cannot represent: skipped with a warning."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


def parse_pairs(path: Path) -> tuple[dict, dict]:
    """The key/value pairs of a .test or .solution file, and the line of each key."""
    values, lines = {}, {}
    text = path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(text):
        line = text[index]
        index += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        block = BLOCK_START.match(line)
        if block:
            key, start, body = block.group(1), index, []
            while index < len(text) and text[index].strip() != '"""':
                body.append(text[index])
                index += 1
            if index >= len(text):
                raise ImportError_([Problem(str(path), start, f"{key}: the block opened with "
                                            '""" is never closed')])
            index += 1
            values[key], lines[key] = "\n".join(body), start
            continue
        pair = PAIR.match(line)
        if not pair:
            raise ImportError_([Problem(str(path), index, 'expected key: "value" or '
                                        'key: """ (a multi-line block)')])
        values[pair.group(1)], lines[pair.group(1)] = pair.group(2), index
    return values, lines


def tree_of(test: dict, lines: dict, path: Path) -> tuple[str, dict]:
    """The root's name and the nested mapping of the task file's tree notation."""
    problems = []
    successors: dict[str, list[tuple[str, str]]] = {}
    parents: dict[str, str] = {}
    for offset, line in enumerate(test.get("successors", "").splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 3:
            problems.append(Problem(str(path), lines.get("successors", 0) + offset,
                                    "a successor line is 'state action next'"))
            continue
        state, action, child = parts
        if child in parents:
            raise NotATree(Problem(str(path), lines.get("successors", 0) + offset,
                                   f"{child!r} has two parents; only trees can be imported"))
        parents[child] = state
        successors.setdefault(state, []).append((action, child))
    evaluation = {}
    for offset, line in enumerate(test.get("evaluation", "").splitlines(), start=1):
        if line.strip():
            try:
                state, value = line.split()
                evaluation[state] = float(value)
            except ValueError:
                problems.append(Problem(str(path), lines.get("evaluation", 0) + offset,
                                        "an evaluation line is 'state value'"))
    root = test.get("start_state", "")
    if not root:
        problems.append(Problem(str(path), 1, "start_state is missing"))
    if problems:
        raise ImportError_(problems)

    def number(value: float):
        return int(value) if float(value).is_integer() else value

    def node(name: str):
        if name not in successors:
            if name not in evaluation:
                raise ImportError_([Problem(str(path), lines.get("evaluation", 1),
                                            f"leaf {name!r} has no evaluation")])
            return number(evaluation[name])
        return {key(action, child): node(child) for action, child in successors[name]}

    def key(action, name: str) -> str:
        label = f"{action} -> {name}" if action is not None and action != name else name
        if name in successors and name in evaluation:  # a heuristic value for the horizon
            return f"{label} ({_format(evaluation[name])})"
        return label

    return root, {key(None, root): node(root)}


def _format(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


TREE_TEST = "GraphGameTreeTest"


def default_prefix(folder: Path) -> str:
    """The id prefix of a folder's tasks: its name (``q2``), made a valid id."""
    return re.sub(r"[^A-Za-z0-9_.-]", "-", folder.resolve().name) or "imported"


def import_trees(folder: Path, module: str = "multiAgents", prefix: str | None = None
                 ) -> tuple[dict, list[Problem], list[Problem]]:
    """A task-file document for every tree test in ``folder``, the problems of malformed
    files, and warnings for the tests that were skipped because they are no tree tests."""
    prefix = default_prefix(folder) if prefix is None else prefix
    tasks, problems, skipped = [], [], []
    for test_path in sorted(folder.glob("*.test")):
        try:
            test, lines = parse_pairs(test_path)
            kind = test.get("class", TREE_TEST)
            if kind != TREE_TEST or "successors" not in test:
                raise NotATree(Problem(str(test_path), lines.get("class", 1),
                                       f"a {kind} test, not a game-tree test "
                                       f"({TREE_TEST} with successors); skipped"))
            if test.get("alg") not in ALGORITHMS:
                raise NotATree(Problem(str(test_path), lines.get("alg", 1),
                                       f"alg {test.get('alg')!r} is none of "
                                       f"{', '.join(sorted(ALGORITHMS))}; skipped"))
            solution_path = test_path.with_suffix(".solution")
            if not solution_path.exists():
                raise NotATree(Problem(str(test_path), 1, f"no {solution_path.name} beside "
                                       "it, so nothing to check against; skipped"))
            solution, _ = parse_pairs(solution_path)
            root, tree = tree_of(test, lines, test_path)
        except NotATree as skip:
            skipped.append(skip.problem)
            continue
        except ImportError_ as error:
            problems.extend(error.problems)
            continue
        agents = int(test.get("num_agents", "2"))
        depth = int(test.get("depth", "1"))
        lose = test.get("lose_states", "").split()
        generated = solution.get("generated", "").split()
        never_generated = sorted(set(within_horizon(test, depth * agents)) - set(generated))
        task = {
            "id": f"{prefix}-{re.sub(r'[^A-Za-z0-9_.-]', '-', test_path.stem)}",
            "title": f"{test['alg']} on {folder.name}/{test_path.name}",
            "convention": "multi-agent",
            "module": module,
            "game": "tree",
            "players": ["MAX"] + ["MIN"] * (agents - 1),
            "depth": depth,
            "tree": tree,
            "functions": [test["alg"]],
            # As the project's autograder: the solution's action, the generated states as a set.
            "checks": [{"kind": "action", "accept": "first", "points": 1},
                       {"kind": "visited", "order": "set", "points": 1}],
            "expect": {test["alg"]: {"action": solution.get("action"),
                                     "visited": len(generated),
                                     "pruned": never_generated}},
        }
        if lose:
            task["lose_states"] = lose
        tasks.append(task)
    document = {"course": {"title": f"Imported game-tree tests ({folder.name})",
                           "language": "en"}, "tasks": tasks}
    return document, problems, skipped


def within_horizon(test: dict, plies: int) -> list[str]:
    """The states a full search to ``plies`` plies generates: all of them down to the horizon,
    none below a terminal (win or lose) state."""
    successors: dict[str, list[str]] = {}
    for line in test.get("successors", "").splitlines():
        if line.strip():
            state, _, child = line.split()
            successors.setdefault(state, []).append(child)
    terminal = set(test.get("win_states", "").split()) | set(test.get("lose_states", "").split())
    result, frontier = [test["start_state"]], [test["start_state"]]
    for _ in range(plies):
        frontier = [child for state in frontier if state not in terminal
                    for child in successors.get(state, ())]
        result.extend(frontier)
    return result


def to_yaml(document: dict) -> str:
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)
