"""Tree tests in the Pacman multi-agent project's format, and an in-process autograder for them.

The project's own test folders are not in this repository; ``write_tests`` draws trees of the
same kind and size (one or two ghosts, one or two rounds, two or three moves per state, at
most about 80 states, win and lose states, evaluations at the horizon) with ``grader.random_tree_generator`` and writes them as the project does: ``NAME.test``
(``GraphGameTreeTest``: agents, depth, start, win and lose states, ``successors`` and
``evaluation`` lines) with ``NAME.solution`` (the action and the generated states, from this
grader's reference).  ``grader import-trees`` reads them back.

``AUTOGRADER`` is what that project's autograder does with such a folder, written here from
its documented behaviour, not copied: in one interpreter, without isolation, it imports the
student's ``multiAgents.py``, and for each test builds a game-tree state, asks the agent for
its action, and compares the action and the set of generated states with the solution.  It
stands in for the autograder's own time on this machine: side by side with ``grader check``.

    python bench/pacman_tests.py OUT_FOLDER [--trees 33] [--seed 7]   # writes q2/ and q3/
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

QUESTIONS = {"q2": ("MinimaxAgent", "minimax"), "q3": ("AlphaBetaAgent", "alphabeta")}


def write_tests(folder: Path, agent: str, search: str, count: int, seed: int) -> None:
    """``count`` tree tests of ``agent`` (answered by the reference's ``search``) in ``folder``."""
    sys.path.insert(0, str(ROOT))
    from grader.answers.search import answer_search
    from grader.random_tree_generator import Shape, generate, horizons, rounds_to_leaves, to_pacman
    # Trees of the project's size: 6 to 87 states (median 29) for 33 trees of seed 7.
    shape = Shape(branching=(2, 3), depth=(1, 2), values=(-20, 20), agents=(1, 2),
                  max_nodes=80)
    trees = generate(seed, count, shape)
    folder.mkdir(parents=True, exist_ok=True)
    for number, (tree, drawn) in enumerate(zip(trees, horizons(seed, count, (1, 3))), start=1):
        rounds = min(drawn, rounds_to_leaves(tree))
        fields = dict(part.split(": ", 1) for part in to_pacman(tree, rounds).split("; "))
        answer = answer_search(search, tree, rounds * len(tree["players"]), False,
                               "multi-agent")
        lines = ['class: "GraphGameTreeTest"', f'alg: "{agent}"']
        lines += [f"{key}: {fields[key]}" for key in ("num_agents", "depth", "start_state",
                                                       "win_states", "lose_states")]
        for block in ("successors", "evaluation"):
            lines += [f'{block}: """', *fields[block].strip('"').split(", "), '"""']
        name = f"{number}-tree"
        (folder / f"{name}.test").write_text("\n".join(lines) + "\n")
        (folder / f"{name}.solution").write_text(
            f'action: "{answer["action"]}"\n'
            f'generated: "{" ".join(sorted(answer["visits"]))}"\n')


def write_questions(folder: Path, count: int, seed: int) -> list[Path]:
    """One folder of ``count`` tests per question (q2 minimax, q3 alpha-beta)."""
    written = []
    for offset, (question, (agent, search)) in enumerate(QUESTIONS.items()):
        write_tests(folder / question, agent, search, count, seed + offset)
        written.append(folder / question)
    return written


# argv: the student's folder, the folder with the grader's stand-in modules (util, game,
# pacman: the project's own modules in its repository), then the test folders.
AUTOGRADER = r'''
import re, sys
from pathlib import Path
student, standins, folders = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.path[:0] = [student, standins]
import multiAgents

def read(path):
    fields, lines, block = {}, path.read_text().splitlines(), None
    for line in lines:
        if block is not None:
            if line.strip() == '"""':
                fields[block], block = "\n".join(body), None
            else:
                body.append(line)
            continue
        match = re.match(r'^(\w+):\s*"""\s*$', line)
        if match:
            block, body = match.group(1), []
            continue
        match = re.match(r'^(\w+):\s*"(.*)"\s*$', line)
        if match:
            fields[match.group(1)] = match.group(2)
    return fields

class TreeState:
    def __init__(self, problem, name):
        self.problem, self.name = problem, name
    def getLegalActions(self, agent=0):
        return [action for action, _ in self.problem["successors"].get(self.name, [])]
    def generateSuccessor(self, agent, action):
        child = dict(self.problem["successors"][self.name])[action]
        self.problem["generated"].add(child)
        return TreeState(self.problem, child)
    def getNumAgents(self):
        return self.problem["agents"]
    def isWin(self):
        return self.name in self.problem["win"]
    def isLose(self):
        return self.name in self.problem["lose"]
    def getScore(self):
        return self.problem["evaluation"][self.name]

passed = failed = 0
for folder in folders:
    for test in sorted(Path(folder).glob("*.test")):
        fields, solution = read(test), read(test.with_suffix(".solution"))
        successors = {}
        for line in fields["successors"].splitlines():
            state, action, child = line.split()
            successors.setdefault(state, []).append((action, child))
        problem = {"successors": successors, "agents": int(fields["num_agents"]),
                   "win": set(fields["win_states"].split()),
                   "lose": set(fields["lose_states"].split()),
                   "evaluation": {s: float(v) for s, v in
                                  (l.split() for l in fields["evaluation"].splitlines())},
                   "generated": set()}
        start = fields["start_state"]
        problem["generated"].add(start)
        agent = getattr(multiAgents, fields["alg"])(depth=fields["depth"])
        action = agent.getAction(TreeState(problem, start))
        if (action == solution["action"]
                and problem["generated"] == set(solution["generated"].split())):
            passed += 1
        else:
            failed += 1
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
'''


def autograder_command(student: Path, folders: list[Path]) -> list[str]:
    """The in-process autograder's command line for ``student`` on ``folders``."""
    from grader.conventions import STANDINS
    return [sys.executable, "-c", AUTOGRADER, str(student), str(STANDINS),
            *map(str, folders)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--trees", type=int, default=33, help="tests per question")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    for folder in write_questions(args.out, args.trees, args.seed):
        print(f"wrote {len(list(folder.glob('*.test')))} tests to {folder}")


if __name__ == "__main__":
    main()
