"""A correct minimax agent that imports a package the course does not provide."""
from game import Agent
import util
import pandas as pd


def scoreEvaluationFunction(currentGameState):
    return currentGameState.getScore()


class MultiAgentSearchAgent(Agent):
    def __init__(self, evalFn="scoreEvaluationFunction", depth="2"):
        self.index = 0
        self.evaluationFunction = util.lookup(evalFn, globals())
        self.depth = int(depth)


class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        def value(state, agent, depth):
            if state.isWin() or state.isLose() or depth == self.depth:
                return self.evaluationFunction(state)
            nxt = (agent + 1) % state.getNumAgents()
            nd = depth + 1 if nxt == 0 else depth
            values = [value(state.generateSuccessor(agent, a), nxt, nd)
                      for a in state.getLegalActions(agent)]
            return max(values) if agent == 0 else min(values)
        actions = gameState.getLegalActions(0)
        scores = pd.Series([value(gameState.generateSuccessor(0, a), 1, 0) for a in actions])
        return actions[int(scores.idxmax())]
