"""A stand-in for the Pacman projects' ``game`` module: ``Agent`` and ``Directions``."""


class Agent:
    def __init__(self, index=0):
        self.index = index

    def getAction(self, state):
        raise NotImplementedError


class Directions:
    NORTH = "North"
    SOUTH = "South"
    EAST = "East"
    WEST = "West"
    STOP = "Stop"
    LEFT = {NORTH: WEST, SOUTH: EAST, EAST: NORTH, WEST: SOUTH, STOP: STOP}
    RIGHT = {y: x for x, y in LEFT.items()}
    REVERSE = {NORTH: SOUTH, SOUTH: NORTH, EAST: WEST, WEST: EAST, STOP: STOP}
