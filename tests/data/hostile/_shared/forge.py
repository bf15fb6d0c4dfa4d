"""Speaks for the runner: finds the current request id in the runner's frames and writes
a reply of its own making into the reply pipe (sys.argv[2]), as a determined student could."""

import os
import sys


def forge(payload: bytes) -> None:
    frame = sys._getframe()
    while frame is not None:
        request = frame.f_locals.get("request")
        if isinstance(request, dict) and "id" in request:
            line = b"@" + str(request["id"]).encode() + b" " + payload + b"\n"
            os.write(int(sys.argv[2]), line)
            return
        frame = frame.f_back
