"""Agent classes in the style of the Pacman multi-agent project: ``MinimaxAgent(depth=d)``,
``AlphaBetaAgent``, ``ExpectimaxAgent`` with ``getAction(gameState) -> action``.

The game state wraps a tree: agent 0 (MAX) moves at the root, agents 1..k in turn after it
(``getNumAgents()`` is the length of the tree's player cycle); ``depth`` counts rounds of all
agents.  ``getScore()`` is a leaf's value or a node's heuristic value; ``isWin()`` holds for
leaves (except those marked lose), ``isLose()`` for leaves marked lose.  Visits: a state is
visited when it is generated (``generateSuccessor``) or any of its methods is called, so the
visited nodes are the project autograder's *generated states* (with the start state): a
successor generated and never looked at still counts, as it does there.  The call returns
``[None, action]``: such agents return no value.

As in the original, ``getLegalActions(i)`` answers for any agent ``i``, also one that is not
to move: the node's actions, or ``[]`` at a terminal node (so it serves as a terminal test).
``generateSuccessor`` for an agent that is not to move is refused, although the original would
move that agent: a tree node has moves for one agent only, so it is the student's mistake.
"""

import operator

from ..games import make_game


class TreeGameState:
    """The ``GameState`` interface of those projects, over one node of a game tree."""

    def __init__(self, game, state):
        self._game = game
        self._state = state

    def _rules(self):
        return self._game._rules

    def _check_agent(self, agent_index):
        self._check_index(agent_index)
        expected = self._rules().agent_index(self._state)
        if agent_index != expected:
            raise ValueError(f"it is agent {expected}'s turn in state {self._state!r}, "
                             f"not agent {agent_index}'s")

    def getNumAgents(self):
        self._game.to_move(self._state)
        return len(self._rules().cycle)

    def _check_index(self, agent_index):
        agents = len(self._rules().cycle)
        try:
            index = operator.index(agent_index)
        except TypeError:
            index = None
        if index is None or not 0 <= index < agents:
            raise ValueError(f"there is no agent {agent_index!r}: agents are numbered "
                             f"0..{agents - 1}")

    def getLegalActions(self, agentIndex=0):
        self._check_index(agentIndex)
        if self._game.is_terminal(self._state):
            return []
        return self._game.actions(self._state)

    def generateSuccessor(self, agentIndex, action):
        self._check_agent(agentIndex)
        child = self._game.result(self._state, action)
        self._game._visit(child)  # generated, as the project's autograder counts states
        return TreeGameState(self._game, child)

    def isWin(self):
        if not self._game.is_terminal(self._state):
            return False
        return self._rules().nodes[self._state].get("outcome") != "lose"

    def isLose(self):
        if not self._game.is_terminal(self._state):
            return False
        return self._rules().nodes[self._state].get("outcome") == "lose"

    def getScore(self):
        return self._game.evaluate(self._state, "MAX")

    def __repr__(self):
        return f"TreeGameState({self._state!r})"


def call(module, name, spec, args):
    game, root = make_game(spec)
    depth = args[0] if args else 2
    agent = getattr(module, name)(depth=depth)
    action = agent.getAction(TreeGameState(game, root))
    return [None, action], game.visit_log()
