# multiAgents.py
# --------------
# A real student's file, as handed in: the project's imports (some unused), numpy for the
# bookkeeping, and getLegalActions(agentIndex) as the terminal test.

from util import manhattanDistance
from game import Agent, AgentState, Grid, Actions, Directions
import random, util
import numpy as np

from pacman import GameState


class ReflexAgent(Agent):
    """Not graded: the first question of the project, left in the file as students do."""

    def getAction(self, gameState: GameState):
        legalMoves = gameState.getLegalActions()
        scores = [self.evaluationFunction(gameState, action) for action in legalMoves]
        bestScore = max(scores)
        bestIndices = [index for index in range(len(scores)) if scores[index] == bestScore]
        return legalMoves[random.choice(bestIndices)]

    def evaluationFunction(self, currentGameState: GameState, action):
        successorGameState = currentGameState.generatePacmanSuccessor(action)
        newPos = successorGameState.getPacmanPosition()
        newFood = successorGameState.getFood()
        distances = [manhattanDistance(newPos, food) for food in newFood.asList()]
        return successorGameState.getScore() - (min(distances) if distances else 0)


def scoreEvaluationFunction(currentGameState: GameState):
    return currentGameState.getScore()


class MultiAgentSearchAgent(Agent):
    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):
        self.index = 0  # Pacman is always agent index 0
        self.evaluationFunction = util.lookup(evalFn, globals())
        self.depth = int(depth)


class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState: GameState):
        def minimax(state, agentIndex, depth):
            # Pacman has no legal moves: the game is over (whoever is to move)
            if depth == self.depth or not state.getLegalActions(0):
                return self.evaluationFunction(state)
            nextAgent = (agentIndex + 1) % state.getNumAgents()
            nextDepth = depth + 1 if nextAgent == 0 else depth
            values = [minimax(state.generateSuccessor(agentIndex, action), nextAgent, nextDepth)
                      for action in state.getLegalActions(agentIndex)]
            return max(values) if agentIndex == 0 else min(values)

        actions = gameState.getLegalActions(0)
        values = np.array([minimax(gameState.generateSuccessor(0, action), 1, 0)
                           for action in actions])
        return actions[int(np.argmax(values))]


class AlphaBetaAgent(MultiAgentSearchAgent):
    def getAction(self, gameState: GameState):
        def maxValue(state, depth, alpha, beta):
            # the ghosts' turn comes next: ask whether agent 1 could still move
            if depth == self.depth or not state.getLegalActions(1):
                return self.evaluationFunction(state), None
            value, bestAction = -np.inf, None
            for action in state.getLegalActions(0):
                successorValue = minValue(state.generateSuccessor(0, action), 1, depth,
                                          alpha, beta)
                if successorValue > value:
                    value, bestAction = successorValue, action
                if value > beta:
                    return value, bestAction
                alpha = max(alpha, value)
            return value, bestAction

        def minValue(state, agentIndex, depth, alpha, beta):
            if not state.getLegalActions(agentIndex):
                return self.evaluationFunction(state)
            value = np.inf
            for action in state.getLegalActions(agentIndex):
                successor = state.generateSuccessor(agentIndex, action)
                if agentIndex == state.getNumAgents() - 1:
                    value = min(value, maxValue(successor, depth + 1, alpha, beta)[0])
                else:
                    value = min(value, minValue(successor, agentIndex + 1, depth, alpha, beta))
                if value < alpha:
                    return value
                beta = min(beta, value)
            return value

        return maxValue(gameState, 0, -np.inf, np.inf)[1]


class ExpectimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState: GameState):
        def expectimax(state, agentIndex, depth):
            if depth == self.depth or state.isWin() or state.isLose():
                return self.evaluationFunction(state)
            nextAgent = (agentIndex + 1) % state.getNumAgents()
            nextDepth = depth + 1 if nextAgent == 0 else depth
            values = [expectimax(state.generateSuccessor(agentIndex, action), nextAgent,
                                 nextDepth)
                      for action in state.getLegalActions(agentIndex)]
            return max(values) if agentIndex == 0 else float(np.mean(values))

        actions = gameState.getLegalActions(0)
        scores = [expectimax(gameState.generateSuccessor(0, action), 1, 0) for action in actions]
        return actions[scores.index(max(scores))]


def betterEvaluationFunction(currentGameState: GameState):
    util.raiseNotDefined()


# Abbreviation
better = betterEvaluationFunction
