"""The players of a match, seen from the referee: each answers "your move" with a ``Move``.

* ``SandboxedPlayer``: a student's submission, its search (and, where the task says so, its
  own evaluation function) run in its own sandboxed child (``grader.sandbox.run.SubmissionRun``,
  the ``play`` calling convention); one child per player for the whole series of games,
  restarted after a crash or a timeout.
* The built-in baselines ``random`` (seeded), ``greedy`` (one ply with the reference
  heuristic) and ``alphabeta:d`` (the reference alpha-beta at depth d with the reference
  heuristic): **trusted code that runs in the parent**, so they may use ``reference``
  (imported where used, as in the rest of the grader).
  Their time is measured (thread CPU time) after the move, since trusted code is not
  interrupted; a baseline over its limit loses like any other player.

The *reference heuristic* of a game is its own ``evaluate`` (Connect Four's window count,
Kalah's store difference), except for tic-tac-toe, whose built-in heuristic is neutral: there
it is the sheet's evaluation (``reference.evaluation.tictactoe_lines``), which is a model
solution and so never sent to a child.

Who is to move and whether a move is legal is the referee's business, not a player's.

**A move is a move.** A sandboxed player runs only while it is asked for a move: its child
is frozen from its reply until its next move (``grader.sandbox.launcher.Child.freeze``), so a
helper process or thread it starts cannot think (or take a core) on the opponent's time;
what its processes use anyway (between the reply and the freeze, or what escaped it) is
charged to its next move (``Move.between``).  A move may pass at most ``MOVE_IDLE_SECONDS``
idle, neither computing nor waiting for a processor or the disk: a move that sleeps, reads
a pipe or waits on a lock loses with the reason ``idle`` instead of holding the game up to
the wall-clock backstop.  Time spent waiting for a processor or the disk does not count as
idle (the kernel's pressure stall information tells them apart), so a loaded machine does
not make a correct player forfeit; where the kernel does not tell, the move's CPU limit is
allowed on top.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..calls import Call, canonical
from ..conventions.play import PlayingGame
from ..games import make_rules
from ..sandbox.run import SubmissionRun
from ..sandbox.levels import best_level

# The reference heuristic where it is not the game's own evaluate (module docstring): game
# kind -> name in ``reference.evaluation.EVALUATIONS``.
REFERENCE_HEURISTICS = {"tictactoe": "tictactoe-lines"}
# Seconds a sandboxed player's move may pass idle (module docstring): a child thawed, asked
# and answering spends about a millisecond so; a cold start reading the interpreter's files
# from disk some tens.  Each idle move costs a tournament this much wall-clock time.
MOVE_IDLE_SECONDS = 0.5


@dataclass(frozen=True)
class Move:
    """A player's answer: the action, or why there is none (``failure``: ``timeout``,
    ``crashed``, ``exception``, ``budget``, ``missing-module``, ``missing-function``,
    ``import-error``, ``import-timeout``, ``protocol``), and the CPU seconds it took:
    ``seconds`` the move's own (from the question until the player was frozen again after
    its answer), ``between`` what the player's processes used before it since its last move
    (charged with this move; 0 for a player that was frozen in between)."""

    action: Any = None
    seconds: float = 0.0
    failure: str | None = None
    detail: dict = field(default_factory=dict)
    between: float = 0.0


def reference_game(spec: dict) -> PlayingGame:
    """The game a baseline searches: the rules with the reference heuristic."""
    rules = make_rules(spec)
    heuristic = REFERENCE_HEURISTICS.get(spec.get("kind"))
    if heuristic is None:
        return PlayingGame(rules)
    # imported here, as everywhere in the grader, so that a kit without reference/ still
    # imports this module (kits play no matches)
    from reference.evaluation import EVALUATIONS
    return PlayingGame(rules, EVALUATIONS[heuristic])


class Baseline:
    """A built-in player in the parent (trusted code; see the module docstring)."""

    name = "baseline"

    def describe(self) -> dict:
        return {"kind": "baseline", "name": self.name}

    def start_game(self, seed, seat: str) -> None:
        """A new game begins, in which this player moves as ``seat``."""

    def cpu_used(self) -> float | None:
        """CPU seconds the player's own processes used so far: None, a baseline has none
        (its thinking is measured per move)."""
        return None

    def choose(self, spec: dict, moves: list, state, limit: float) -> Move:
        game = reference_game(spec)
        started = time.thread_time()
        action = self.pick(game, state)
        seconds = time.thread_time() - started
        if seconds > limit:
            return Move(None, seconds, "timeout", {"seconds": limit})
        return Move(action, seconds)

    def pick(self, game: PlayingGame, state):
        raise NotImplementedError

    def close(self) -> None:
        """Nothing to stop: a baseline runs in the parent."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class RandomPlayer(Baseline):
    """A uniformly random legal move, from a generator seeded by the game's seed and this
    player's seat: the same seed gives the same moves."""

    name = "random"

    def __init__(self):
        self.generator = random.Random(0)

    def start_game(self, seed, seat: str) -> None:
        self.generator = random.Random(f"random-player/{seed}/{seat}")

    def pick(self, game, state):
        return self.generator.choice(game.actions(state))


class GreedyPlayer(Baseline):
    """The move whose position is worth most to the mover after one ply: the utility where
    the game ends, else the reference heuristic; ties go to the first in the game's order."""

    name = "greedy"

    def pick(self, game, state):
        player = game.to_move(state)
        best, best_action = None, None
        for action in game.actions(state):
            child = game.result(state, action)
            value = (game.utility(child, player) * 1e6 if game.is_terminal(child)
                     else game.evaluate(child, player))
            if best is None or value > best:
                best, best_action = value, action
        return best_action


class AlphaBetaPlayer(Baseline):
    """The reference alpha-beta (``reference.minimax.alphabeta``) at a fixed depth, with the
    reference heuristic at the horizon."""

    def __init__(self, depth: int):
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise ValueError(f"alphabeta:d needs a depth d of at least 1, not {depth!r}")
        self.depth = depth
        self.name = f"alphabeta:{depth}"

    def describe(self) -> dict:
        return {"kind": "baseline", "name": self.name, "depth": self.depth}

    def pick(self, game, state):
        from reference.minimax import alphabeta
        return alphabeta(game, state, self.depth)[1]


def baseline(name: str) -> Baseline:
    """A baseline by its name: ``random``, ``greedy`` or ``alphabeta:D`` (D a depth)."""
    if name == "random":
        return RandomPlayer()
    if name == "greedy":
        return GreedyPlayer()
    matched = re.fullmatch(r"alphabeta:(\d+)", name)
    if matched:
        return AlphaBetaPlayer(int(matched.group(1)))
    raise ValueError(f"unknown baseline {name!r}; the baselines are random, greedy and "
                     "alphabeta:D (the reference alpha-beta at depth D, e.g. alphabeta:4)")


class SandboxedPlayer:
    """A student's search in its own sandboxed child.

    ``submission``: the student's folder; ``module``/``function``: the search to call
    (``minimax.alphabeta``); ``depth``: the depth it is called with (None: to the end of the
    game); ``evaluation``: ``"evaluation.evaluate"`` to make the game's heuristic the
    student's own function (None: the game's built-in heuristic).  ``session_seconds`` is
    the CPU time the child may spend over all the games it plays (its rlimit); the per-move
    and per-game limits are the referee's (``Limits``).

    ``run``: the submission's own run (``grader.sandbox.run.SubmissionRun``) to play in, as grading
    does: its child, budget and output are the submission's, and closing the player leaves
    the run open for its owner; without one the player starts its own.
    """

    def __init__(self, submission: Path, child_script: Path | None = None, *,
                 module: str = "minimax", function: str = "alphabeta",
                 depth: int | None = None, evaluation: str | None = None,
                 level: str | None = None, name: str | None = None,
                 session_seconds: float = 3600.0, workdir: Path | None = None,
                 run: SubmissionRun | None = None):
        self.submission = Path(submission)
        self.module, self.function, self.depth = module, function, depth
        self.evaluation = None
        if evaluation:
            evaluation_module, _, evaluation_function = evaluation.partition(".")
            if not evaluation_module or not evaluation_function:
                raise ValueError(f"evaluation {evaluation!r}: write module.function, e.g. "
                                 "evaluation.evaluate")
            self.evaluation = {"module": evaluation_module, "function": evaluation_function}
        self.name = name or self.submission.name
        self.owns_run = run is None
        if run is None and child_script is None:
            raise ValueError("a SandboxedPlayer needs the staged child runner "
                             "(grader.sandbox.staging.stage_runner) or a run to play in")
        if run is None:
            self.level = level or best_level()
            run = SubmissionRun(child_script, self.submission, session_seconds, self.level,
                                workdir)
        else:
            self.level = run.level
        self.run = run

    def describe(self) -> dict:
        return {"kind": "submission", "name": self.name,
                "search": f"{self.module}.{self.function}", "depth": self.depth,
                "evaluation": (f"{self.evaluation['module']}.{self.evaluation['function']}"
                               if self.evaluation else None)}

    def start_game(self, seed, seat: str) -> None:
        """A new game: a search that timed out in an earlier game is asked again."""
        self.run.timed_out.clear()

    def choose(self, spec: dict, moves: list, state, limit: float) -> Move:
        if self.run.child is None:
            self.run.start()
        item = {"game": spec, "moves": list(moves), "evaluation": self.evaluation}
        call = Call(self.module, self.function, "play", (canonical(item),),
                    args=() if self.depth is None else (self.depth,), time_limit=limit)
        spent, between = self.run.spent, self.run.between
        observation = self.run.run_call(call, idle_limit=MOVE_IDLE_SECONDS, turn=True)
        between = self.run.between - between
        seconds = self.run.spent - spent - between
        if observation.status != "ok":
            return Move(None, seconds, observation.status, dict(observation.error or {}),
                        between)
        outcome = observation.items[0]
        if outcome.status != "ok":
            return Move(None, seconds, "exception", dict(outcome.error or {}), between)
        return Move(outcome.returned, seconds, between=between)

    def cpu_used(self) -> float:
        """CPU seconds every process of the player's child used so far, by its cgroup (by
        its process tree where there is none), restarts included."""
        return self.run.child.cpu_seconds() if self.run.child is not None else 0.0

    def close(self) -> None:
        if self.owns_run:
            self.run.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
