"""A stand-in for the ``pacman`` module of the UC Berkeley Pacman projects (multi-agent search).

It defines every public name of the original, so that a student's ``from pacman import
GameState`` (for type hints) and the like load, used or not.  The constants and the two small
argument helpers (``default``, ``parseAgentArgs``) are real; ``GameState`` can be named,
subclassed and used in annotations, but the states a student's agent receives are the grader's
tree states (``conventions/multi_agent.py``), so creating one, like the rules and the command
line (``ClassicGameRules``, ``PacmanRules``, ``GhostRules``, ``readCommand``, ``loadAgent``,
``replayGame``, ``runGames``), raises ``StandInUnavailable``.

Written for this grader; not a copy of the original.  Runs in the child, next to student code.
"""

import os
import random
import sys
import time
import types

import util
from game import Actions, Directions, Game, GameStateData
from util import manhattanDistance, nearestPoint

from grader.conventions.stubs import (stub_class as _stub_class,
                                      stub_function as _stub_function)

SCARED_TIME = 40          # moves ghosts stay scared
COLLISION_TOLERANCE = 0.7  # how close ghosts must be to Pacman to kill
TIME_PENALTY = 1          # points lost every round

GameState = _stub_class(
    "pacman", "GameState",
    methods=("getAndResetExplored", "getLegalActions", "generateSuccessor",
             "getLegalPacmanActions", "generatePacmanSuccessor", "getPacmanState",
             "getPacmanPosition", "getGhostStates", "getGhostState", "getGhostPosition",
             "getGhostPositions", "getNumAgents", "getScore", "getCapsules", "getNumFood",
             "getFood", "getWalls", "hasFood", "hasWall", "isLose", "isWin", "deepCopy",
             "initialize"),
    attributes={"explored": set()},
    doc="The Pacman board's state.  The states an agent receives during grading are tree "
        "states with getLegalActions, generateSuccessor, getNumAgents, isWin, isLose and "
        "getScore; this class exists for type hints.")

ClassicGameRules = _stub_class(
    "pacman", "ClassicGameRules",
    methods=("newGame", "process", "win", "lose", "getProgress", "agentCrash",
             "getMaxTotalTime", "getMaxStartupTime", "getMoveWarningTime", "getMoveTimeout",
             "getMaxTimeWarnings"))

PacmanRules = _stub_class(
    "pacman", "PacmanRules", methods=("getLegalActions", "applyAction", "consume"),
    attributes={"PACMAN_SPEED": 1})

GhostRules = _stub_class(
    "pacman", "GhostRules",
    methods=("getLegalActions", "applyAction", "decrementTimer", "checkDeath", "collide",
             "canKill", "placeGhost"),
    attributes={"GHOST_SPEED": 1.0})


def default(text):
    return text + " [Default: %default]"


def parseAgentArgs(text):
    """``"depth=3,evalFn=better"`` -> ``{"depth": "3", "evalFn": "better"}``; a bare key
    maps to 1."""
    if text is None:
        return {}
    options = {}
    for piece in text.split(","):
        if "=" in piece:
            key, value = piece.split("=")
        else:
            key, value = piece, 1
        options[key] = value
    return options


readCommand = _stub_function("pacman", "readCommand")
loadAgent = _stub_function("pacman", "loadAgent")
replayGame = _stub_function("pacman", "replayGame")
runGames = _stub_function("pacman", "runGames")
