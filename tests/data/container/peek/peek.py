"""Looks around from inside the sandbox at import and prints what it found: the paths in
targets.json (the grader's repository, the reference, the task files, the parent's folders),
the root folder, its own ids, whether sockets are filtered; then leaves scratch files that are
awkward to delete (a folder without permissions, deep nesting)."""

import json
import os
import socket

TARGETS = json.load(open(os.path.join(os.path.dirname(__file__), "targets.json")))

found = {}
for name, path in TARGETS.items():
    try:
        found[name] = sorted(os.listdir(path))[:5] if os.path.isdir(path) else open(path).read(40)
    except OSError as error:
        print("peek", name, "failed:", type(error).__name__)
print("FOUND", json.dumps(found))
print("ROOT", json.dumps(sorted(os.listdir("/"))))
print("IDS", json.dumps([os.getuid(), os.geteuid(), os.getgid(), os.getgroups()]))
print("CWD", os.getcwd())
try:
    socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    print("INET opened")
except OSError as error:
    print("INET", error.errno)
socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close()
print("UNIX opened")

deep = "/tmp/" + "/".join(["d"] * 50)
os.makedirs(deep)
with open(os.path.join(deep, "f"), "w") as handle:
    handle.write("x")
os.makedirs("/tmp/locked/inner")
os.chmod("/tmp/locked", 0)
print("SCRATCH left")
