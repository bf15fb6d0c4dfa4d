"""Fills memory in 64 MiB blocks until it is stopped, and keeps what it took: its first call
meets the address-space limit (MemoryError) or its call's CPU limit, and every later call
meets the limit at once, since the child still holds the first call's memory."""

hog = []


def minimax(game, state):
    while True:
        hog.append(bytearray(64 << 20))
