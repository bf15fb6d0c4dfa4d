"""The child-side runner: imports a student's modules and runs calls on request.

Started by the parent as ``python -s -S -B -u child.py REQUEST_FD REPLY_FD SUBMISSION_DIR
LIMITS`` in an environment the parent built from scratch.  It
reads one JSON request per line from REQUEST_FD and answers each with one JSON line on
REPLY_FD.  What it sends back is plain data only (numbers, strings, lists, dicts, None):
student objects are converted here or described by their type, never pickled.

This module must never import ``reference`` or any parent-side module of the grader; only the
standard library, ``grader.games`` and ``grader.conventions`` (staged beside it).
"""

import importlib
import json
import math
import os
import sys
import traceback

# Bound before any student code runs, so a student who patches json cannot speak for the runner.
_dumps, _loads = json.dumps, json.loads
STAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_ITEMS = 100_000
MAX_DEPTH = 20
MAX_TEXT = 2000
_FLOAT_MAX = sys.float_info.max


def plain(value, depth=0):
    """JSON-safe plain data from whatever a student returned, without trusting its methods."""
    if value is None or type(value) is bool:
        return value
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        number = int.__index__(value)
        if abs(number) > _FLOAT_MAX:  # the parent accepts numbers in the float range only
            return {"__unsupported__": "int", "repr": f"an integer of {number.bit_length()} bits"}
        return number
    if isinstance(value, float):
        number = float.__float__(value)
        if math.isfinite(number):
            return number
        return {"__float__": "nan" if number != number else ("inf" if number > 0 else "-inf")}
    if isinstance(value, str):
        return str.__str__(value)[:MAX_TEXT]
    if isinstance(value, (list, tuple)) and depth < MAX_DEPTH:
        items = list.__iter__(value) if isinstance(value, list) else tuple.__iter__(value)
        result = []
        for index, item in enumerate(items):
            if index >= MAX_ITEMS:
                break
            result.append(plain(item, depth + 1))
        return result
    try:
        text = repr(value)
    except BaseException:  # a student object whose __repr__ fails
        text = "?"
    return {"__unsupported__": type(value).__name__, "repr": str.__str__(text)[:200]}


def describe_exception(error, student_dir):
    """Type, message and the innermost place in the student's own files, for the feedback."""
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if os.path.abspath(f.filename).startswith(student_dir + os.sep)]
    where = frames[-1] if frames else None
    file, line = (os.path.relpath(where.filename, student_dir), where.lineno) if where else (None, None)
    if isinstance(error, SyntaxError) and error.filename:
        file, line = os.path.relpath(os.path.abspath(error.filename), student_dir), error.lineno
    own_frames = traceback.format_list(frames) if frames else []
    try:
        message = error.msg if isinstance(error, SyntaxError) else str(error)
    except BaseException:
        message = "?"
    text = "".join(own_frames) + f"{type(error).__name__}: {message}"
    return {"type": type(error).__name__, "message": message[:MAX_TEXT], "file": file,
            "line": line, "traceback": text.replace(student_dir + os.sep, "")[-4000:]}


class Runner:
    def __init__(self, student_dir):
        from grader.conventions import CONVENTIONS, STANDINS
        self.student_dir = os.path.abspath(student_dir)
        self.conventions = CONVENTIONS
        self.standins = STANDINS
        self.modules = {}

    def load(self, name):
        """The student's module, or a failure reply."""
        if name in self.modules:
            return self.modules[name]
        path = os.path.join(self.student_dir, name + ".py")
        if not name.isidentifier() or not (os.path.isfile(path) or os.path.isfile(
                os.path.join(self.student_dir, name, "__init__.py"))):
            outcome = {"status": "missing-module", "error": {"module": name,
                                                             "file": name + ".py"}}
        else:
            try:
                module = importlib.import_module(name)
            except BaseException as error:  # syntax errors, exceptions, sys.exit at import
                details = describe_exception(error, self.student_dir)
                details["module"] = name
                outcome = {"status": "import-error", "error": details}
            else:
                if not os.path.abspath(getattr(module, "__file__", "") or "").startswith(
                        self.student_dir + os.sep):
                    outcome = {"status": "missing-module", "error": {"module": name,
                                                                     "file": name + ".py"}}
                else:
                    outcome = {"status": "ok", "module": module}
        self.modules[name] = outcome
        return outcome

    def handle(self, request):
        op = request.get("op")
        if op == "load":
            outcome = self.load(request["module"])
            return {"status": outcome["status"], "error": outcome.get("error")}
        if op != "call":
            return {"status": "protocol", "error": {"message": f"unknown op {op!r}"}}
        loaded = self.load(request["module"])
        if loaded["status"] != "ok":
            return {"status": loaded["status"], "error": loaded.get("error")}
        module = loaded["module"]
        function = getattr(module, request["function"], None)
        if not callable(function):
            return {"status": "missing-function",
                    "error": {"module": request["module"], "function": request["function"],
                              "file": request["module"] + ".py"}}
        convention = self.conventions[request["convention"]]
        items = []
        for item in request["items"]:
            try:
                returned, log = convention(module, request["function"], item, request["args"])
                items.append({"status": "ok", "returned": plain(returned), "log": log})
            except BaseException as error:  # the student's exception, recursion, sys.exit
                items.append({"status": "error",
                              "error": describe_exception(error, self.student_dir)})
        return {"status": "ok", "items": items}


def apply_limits(limits):
    """Lower this process's rlimits before any student code runs (no privilege needed)."""
    import resource
    wanted = {"RLIMIT_CPU": limits.get("cpu_seconds"), "RLIMIT_AS": limits.get("memory_bytes"),
              "RLIMIT_NOFILE": limits.get("open_files"), "RLIMIT_FSIZE": limits.get("file_bytes"),
              "RLIMIT_CORE": 0, "RLIMIT_NPROC": limits.get("processes")}
    for name, value in wanted.items():
        if value is None or not hasattr(resource, name):
            continue
        which = getattr(resource, name)
        _, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass


def main(argv):
    request_fd, reply_fd, student_dir = int(argv[1]), int(argv[2]), argv[3]
    if len(argv) > 4:
        apply_limits(json.loads(argv[4]))
    script_dir = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if p and os.path.abspath(p) != script_dir]
    sys.path[:0] = [STAGE_ROOT]
    sys.dont_write_bytecode = True
    runner = Runner(student_dir)
    sys.path.insert(1, runner.student_dir)
    # Last, so that a student's own util.py or game.py wins over the stand-ins.
    sys.path.append(runner.standins)
    requests = os.fdopen(request_fd, "r", encoding="utf-8")
    replies = os.fdopen(reply_fd, "w", encoding="utf-8")
    for line in requests:
        request = _loads(line)
        reply = runner.handle(request)
        # The request's id first, so that the parent can drop anything else written to this
        # pipe without parsing it.
        replies.write("@" + str(request.get("id")) + " " + _dumps(reply, allow_nan=False) + "\n")
        replies.flush()


if __name__ == "__main__":
    main(sys.argv)
