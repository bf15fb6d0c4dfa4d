def minimax(game, state):
    hog = []
    while True:
        hog.append(bytearray(64 << 20))
