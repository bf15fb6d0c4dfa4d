"""The correct agents, with the imports an editor added and nobody used: a package the
course does not provide (pkg_resources), and one tried in a guarded import whose
fallback the file keeps."""
from pkg_resources import evaluate_marker
try:
    from tqdm import tqdm
except ImportError:
    tqdm = None
from util import manhattanDistance
from game import Directions, Agent
import random, util

from pacman import GameState


def scoreEvaluationFunction(currentGameState: GameState):
    return currentGameState.getScore()


class MultiAgentSearchAgent(Agent):
    def __init__(self, evalFn="scoreEvaluationFunction", depth="2"):
        self.index = 0
        self.evaluationFunction = util.lookup(evalFn, globals())
        self.depth = int(depth)


class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState: GameState):
        def value(state, agent, depth):
            if state.isWin() or state.isLose() or depth == self.depth:
                return self.evaluationFunction(state), None
            nxt = (agent + 1) % state.getNumAgents()
            nd = depth + 1 if nxt == 0 else depth
            best = None
            for action in state.getLegalActions(agent):
                v, _ = value(state.generateSuccessor(agent, action), nxt, nd)
                if best is None or (agent == 0 and v > best[0]) or (agent > 0 and v < best[0]):
                    best = (v, action)
            return best
        progress = tqdm if tqdm is not None else (lambda steps: steps)
        for _ in progress(range(1)):
            return value(gameState, 0, 0)[1]


class AlphaBetaAgent(MultiAgentSearchAgent):
    def getAction(self, gameState: GameState):
        def value(state, agent, depth, alpha, beta):
            if state.isWin() or state.isLose() or depth == self.depth:
                return self.evaluationFunction(state), None
            nxt = (agent + 1) % state.getNumAgents()
            nd = depth + 1 if nxt == 0 else depth
            best_action = None
            if agent == 0:
                v = float("-inf")
                for action in state.getLegalActions(agent):
                    child, _ = value(state.generateSuccessor(agent, action), nxt, nd, alpha, beta)
                    if child > v:
                        v, best_action = child, action
                    if v > beta:
                        return v, best_action
                    alpha = max(alpha, v)
                return v, best_action
            v = float("inf")
            for action in state.getLegalActions(agent):
                child, _ = value(state.generateSuccessor(agent, action), nxt, nd, alpha, beta)
                if child < v:
                    v, best_action = child, action
                if v < alpha:
                    return v, best_action
                beta = min(beta, v)
            return v, best_action
        return value(gameState, 0, 0, float("-inf"), float("inf"))[1]


class ExpectimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState: GameState):
        def value(state, agent, depth):
            if state.isWin() or state.isLose() or depth == self.depth:
                return self.evaluationFunction(state)
            nxt = (agent + 1) % state.getNumAgents()
            nd = depth + 1 if nxt == 0 else depth
            values = [value(state.generateSuccessor(agent, a), nxt, nd)
                      for a in state.getLegalActions(agent)]
            return max(values) if agent == 0 else sum(values) / len(values)
        actions = gameState.getLegalActions(0)
        scores = [value(gameState.generateSuccessor(0, a), 1, 0) for a in actions]
        return actions[scores.index(max(scores))]
