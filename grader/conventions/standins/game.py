"""A stand-in for the ``game`` module of the UC Berkeley Pacman projects (multi-agent search).

It defines every public name of the original, so that a student's ``from game import ...``
loads, used or not.  What describes moves and positions works for real: ``Agent``,
``Directions``, ``Configuration``, ``AgentState``, ``Actions`` (``directionToVector``,
``vectorToDirection``, ``reverseDirection``, ``getSuccessor``, and ``getPossibleActions`` /
``getLegalNeighbors`` on any ``walls[x][y]`` grid).  The board and the game engine
(``Grid``, ``reconstituteGrid``, ``GameStateData``, ``Game``) are stubs that raise
``StandInUnavailable`` when used: the grader's states are tree nodes, not Pacman boards.

Like the original, it starts with ``from util import *``, so util's names are game's too.
Written for this grader; not a copy of the original.  Runs in the child, next to student code.
"""

import os
import sys
import time
import traceback

from util import *  # noqa: F401,F403  (the original re-exports util's names)

from grader.conventions.stubs import (stub_class as _stub_class,
                                      stub_function as _stub_function)


class Agent:
    """An agent has an index and chooses an action with ``getAction(state)``."""

    def __init__(self, index=0):
        self.index = index

    def getAction(self, state):
        raise NotImplementedError(f"{type(self).__name__}.getAction is not defined")


class Directions:
    NORTH = "North"
    SOUTH = "South"
    EAST = "East"
    WEST = "West"
    STOP = "Stop"
    LEFT = {NORTH: WEST, SOUTH: EAST, EAST: NORTH, WEST: SOUTH, STOP: STOP}
    RIGHT = {y: x for x, y in LEFT.items()}
    REVERSE = {NORTH: SOUTH, SOUTH: NORTH, EAST: WEST, WEST: EAST, STOP: STOP}


class Configuration:
    """A position (x, y) and the direction of travel."""

    def __init__(self, pos, direction):
        self.pos = pos
        self.direction = direction

    def getPosition(self):
        return self.pos

    def getDirection(self):
        return self.direction

    def isInteger(self):
        x, y = self.pos
        return x == int(x) and y == int(y)

    def __eq__(self, other):
        if other is None:
            return False
        return self.pos == other.pos and self.direction == other.direction

    def __hash__(self):
        return hash((self.pos, self.direction))

    def __str__(self):
        return f"(x,y)={self.pos}, {self.direction}"

    def generateSuccessor(self, vector):
        """The configuration after moving by ``vector``; standing still keeps the direction."""
        x, y = self.pos
        dx, dy = vector
        direction = Actions.vectorToDirection(vector)
        if direction == Directions.STOP:
            direction = self.direction
        return Configuration((x + dx, y + dy), direction)


class AgentState:
    """An agent's configuration, where it started, and its Pacman-or-ghost state."""

    def __init__(self, startConfiguration, isPacman):
        self.start = startConfiguration
        self.configuration = startConfiguration
        self.isPacman = isPacman
        self.scaredTimer = 0
        self.numCarrying = 0
        self.numReturned = 0

    def __str__(self):
        return f"{'Pacman' if self.isPacman else 'Ghost'}: {self.configuration}"

    def __eq__(self, other):
        if other is None:
            return False
        return self.configuration == other.configuration and \
            self.scaredTimer == other.scaredTimer

    def __hash__(self):
        return hash((hash(self.configuration), hash(self.scaredTimer)))

    def copy(self):
        state = AgentState(self.start, self.isPacman)
        state.configuration = self.configuration
        state.scaredTimer = self.scaredTimer
        state.numCarrying = self.numCarrying
        state.numReturned = self.numReturned
        return state

    def getPosition(self):
        return None if self.configuration is None else self.configuration.getPosition()

    def getDirection(self):
        return self.configuration.getDirection()


Grid = _stub_class(
    "game", "Grid",
    methods=("__getitem__", "__setitem__", "__eq__", "__hash__", "copy", "deepCopy",
             "shallowCopy", "count", "asList", "packBits"),
    attributes={"CELLS_PER_INT": 30},
    doc="The Pacman board's two-dimensional grid (walls, food); tree states have none.")

reconstituteGrid = _stub_function("game", "reconstituteGrid")


class Actions:
    """Moves as directions and as (dx, dy) vectors."""

    _directions = {Directions.WEST: (-1, 0), Directions.STOP: (0, 0),
                   Directions.EAST: (1, 0), Directions.NORTH: (0, 1),
                   Directions.SOUTH: (0, -1)}
    _directionsAsList = [(direction, vector) for direction, vector in _directions.items()]
    TOLERANCE = .001

    @staticmethod
    def reverseDirection(action):
        return Directions.REVERSE.get(action, action)

    @staticmethod
    def vectorToDirection(vector):
        dx, dy = vector
        if dy > 0:
            return Directions.NORTH
        if dy < 0:
            return Directions.SOUTH
        if dx < 0:
            return Directions.WEST
        if dx > 0:
            return Directions.EAST
        return Directions.STOP

    @staticmethod
    def directionToVector(direction, speed=1.0):
        dx, dy = Actions._directions[direction]
        return (dx * speed, dy * speed)

    @staticmethod
    def getPossibleActions(config, walls):
        """The directions ``config`` can move in on ``walls`` (indexable as walls[x][y]);
        between grid points only on along its way."""
        x, y = config.pos
        x_int, y_int = int(x + 0.5), int(y + 0.5)
        if abs(x - x_int) + abs(y - y_int) > Actions.TOLERANCE:
            return [config.getDirection()]
        possible = []
        for direction, (dx, dy) in Actions._directionsAsList:
            if not walls[x_int + dx][y_int + dy]:
                possible.append(direction)
        return possible

    @staticmethod
    def getLegalNeighbors(position, walls):
        x, y = position
        x_int, y_int = int(x + 0.5), int(y + 0.5)
        neighbours = []
        for _, (dx, dy) in Actions._directionsAsList:
            next_x, next_y = x_int + dx, y_int + dy
            if 0 <= next_x < walls.width and 0 <= next_y < walls.height \
                    and not walls[next_x][next_y]:
                neighbours.append((next_x, next_y))
        return neighbours

    @staticmethod
    def getSuccessor(position, action):
        dx, dy = Actions.directionToVector(action)
        x, y = position
        return (x + dx, y + dy)


GameStateData = _stub_class(
    "game", "GameStateData",
    methods=("deepCopy", "copyAgentStates", "initialize"),
    doc="The Pacman board's state (food, capsules, agents); tree states have none.")

Game = _stub_class(
    "game", "Game",
    methods=("getProgress", "run", "mute", "unmute", "agentCrash"),
    doc="The game engine that runs agents against each other; the grader calls agents itself.")
