"""Do-nothing fixture: a random value and a random action."""
import random

random.seed(3)  # the same guesses on every run

def minimax(game, state):
    return random.randint(-10, 10), random.choice(list(game.actions(state)))


def alphabeta(game, state, depth=None):
    return random.randint(-10, 10), random.choice(list(game.actions(state)))


def negamax(game, state):
    return random.randint(-10, 10), random.choice(list(game.actions(state)))
