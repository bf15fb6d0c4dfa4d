"""The child-side runner: imports a student's modules and runs calls on request.

Started by the parent as ``python -s -S -B -u -c BOOT child.py REQUEST_FD REPLY_FD
SUBMISSION_DIR LIMITS [--seccomp-fd FD] [--chdir DIR] [--provides NAMES --packages DIR]`` in
an environment the parent built from scratch, where ``BOOT`` (``grader.sandbox.launcher
.CHILD_BOOT``) imports this module from its staged bytecode and calls ``main`` with the
arguments it would have as a script (run as a script, it was compiled at every start).  ``--packages`` is the folder holding the third-party packages
the course provides (comma-separated ``NAMES``); it goes on the import path after the standard
library, and an import of any other third-party module is reported as such.
With ``--seccomp-fd`` (the container level, see ``container.py``) it first sets
PR_SET_NO_NEW_PRIVS and installs the seccomp program read from FD, and if that fails it answers
every request with an error and never loads student code.  It
reads one JSON request per line from REQUEST_FD and answers each with one JSON line on
REPLY_FD.  What it sends back is plain data only (numbers, strings, lists, dicts, None):
student objects are converted here or described by their type, never pickled.

This module must never import ``reference`` or any parent-side module of the grader; only the
standard library, ``grader.games`` and ``grader.conventions`` (staged beside it).
"""

import importlib
import math
import os
import sys

STAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_ITEMS = 100_000
MAX_DEPTH = 20
MAX_TEXT = 2000
MAX_DECODED = 5000      # trees kept decoded (Runner.items_of)
# Conventions that hand a student the game built from a spec, never the spec (items_of).
SHARED_TREES = ("game", "aima", "helpers", "negamax-sign", "multi-agent")
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
    if getattr(type(value), "__module__", None) == "numpy" and depth < MAX_DEPTH:
        # A numpy scalar (np.int64, np.float32, np.bool_), where the course provides numpy:
        # its Python value, which plain() then checks like any other.
        try:
            item = value.item()
        except BaseException:
            item = None
        if type(item) in (bool, int, float, str):
            return plain(item, depth + 1)
    try:
        text = repr(value)
    except BaseException:  # a student object whose __repr__ fails
        text = "?"
    return {"__unsupported__": type(value).__name__, "repr": str.__str__(text)[:200]}


def _codec():
    """``(loads, dumps)`` for the pipes, with the results of ``json.loads`` and of
    ``json.dumps(value, allow_nan=False)``: the json package's own C scanner and encoder, used
    directly, because importing ``json`` imports ``re`` (and ``enum``, ``functools``, ...),
    a sixth of a child's start; the json package itself where its accelerator is missing or
    takes other arguments (another Python)."""
    try:
        import _json

        class Options:      # what json's JSONDecoder() holds for its C scanner
            strict = True
            object_hook = object_pairs_hook = None
            parse_float, parse_int = float, int
            parse_constant = {"-Infinity": -math.inf, "Infinity": math.inf,
                              "NaN": math.nan}.__getitem__
            memo = {}

        scan, escape, make_encoder = (_json.make_scanner(Options()),
                                      _json.encode_basestring_ascii, _json.make_encoder)

        def default(value):
            raise TypeError(f"Object of type {value.__class__.__name__} "
                            "is not JSON serializable")

        def loads(text):
            start = len(text) - len(text.lstrip(" \t\n\r"))
            try:
                value, end = scan(text, start)
            except StopIteration:
                raise ValueError("expecting a JSON value") from None
            if text[end:].strip(" \t\n\r"):
                raise ValueError("extra data after the JSON value")
            return value

        def dumps(value):
            # as JSONEncoder(allow_nan=False).encode: separators ", " and ": ", ASCII only,
            # circular references refused
            return "".join(make_encoder({}, default, escape, None, ": ", ", ", False, False,
                                        False)(value, 0))

        if loads(dumps({"a": [1, 2.5, "\u00e9", None, True]})) != {
                "a": [1, 2.5, "\u00e9", None, True]}:
            raise TypeError("the json accelerator answers differently")
        return loads, dumps
    except (ImportError, AttributeError, TypeError):
        import json
        return json.loads, lambda value: json.dumps(value, allow_nan=False)


# Bound before any student code runs, so a student who patches json cannot speak for the runner.
_loads, _dumps = _codec()

PROVIDED = []   # the names of the packages the course provides (--provides)
STANDIN_ERRORS = ()   # set by Runner: the exception the Pacman project's stand-ins raise
standard_module = None  # set by Runner: grader.conventions.standard.standard_module


def missing_package(error):
    """The top-level name a student imported that is neither in the standard library nor
    provided by the course, or None.  Only when that top-level module itself is missing: a
    missing submodule of something importable is an ordinary error."""
    if not isinstance(error, ModuleNotFoundError):
        return None
    name = getattr(error, "name", None)
    if not isinstance(name, str) or not name or "." in name:
        return None
    if name in getattr(sys, "stdlib_module_names", ()) or name in sys.builtin_module_names:
        return None
    return name


def describe_exception(error, student_dir):
    """Type, message and the innermost place in the student's own files, for the feedback;
    for an import of a package the course does not provide, the package (and what the course
    provides), and for a stand-in of the Pacman project used during grading, its name."""
    traceback = standard_module("traceback")
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
    details = {"type": type(error).__name__, "message": message[:MAX_TEXT], "file": file,
               "line": line, "traceback": text.replace(student_dir + os.sep, "")[-4000:]}
    package = missing_package(error)
    if package is not None:
        details.update(package=package[:MAX_TEXT], provided=list(PROVIDED))
        used = getattr(error, "grader_used", None)  # a stand-in's name used (conventions/absent.py)
        if isinstance(used, str):
            details["used"] = str.__str__(used)[:MAX_TEXT]
    if isinstance(error, STANDIN_ERRORS):
        details["standin"] = str(error.standin)[:MAX_TEXT]
    return details


class Runner:
    def __init__(self, student_dir):
        global STANDIN_ERRORS, standard_module
        from grader.conventions import STANDINS, convention
        from grader.conventions.signature import forget_signatures
        from grader.conventions.standard import standard_module
        from grader.conventions.stubs import StandInUnavailable
        from grader.games import set_importer
        STANDIN_ERRORS = (StandInUnavailable,)
        # Conventions and games are imported when a request first needs them, by then
        # beside the student's modules: as at the start, whatever names those have.
        set_importer(standard_module)
        self.student_dir = os.path.abspath(student_dir)
        self.convention = lambda name: convention(name, standard_module)
        self.standins = STANDINS
        self.forget_signatures = forget_signatures
        self.modules = {}
        self.decoded = {}      # an item's JSON text -> its value (``items_of``)
        self.received = []     # the item texts sent so far, by index (``texts_of``)
        self.provided = None   # the course's modules' finder, once a request brings them

    def provide(self, request):
        """Installs the modules the course provides (``conventions/provided.py``), first on
        the import path, once: the parent sends them with every load request."""
        modules = request.get("provided")
        if modules and self.provided is None:
            from grader.conventions.provided import ProvidedFinder
            self.provided = ProvidedFinder(modules, request.get("provided_wins") is not False,
                                           self.student_dir)
            sys.meta_path.insert(0, self.provided)

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

    def texts_of(self, request):
        """A call's item texts: ``item_texts``, or those ``item_refs`` names (what the parent
        sends, ``grader.calls.Call.request_for``): a text there is a new entry of
        ``received``, at the next index, and a number is the index of one sent before.
        Taken in before anything else of the request, so that the parent's count of what
        this process holds stays true whatever the call's outcome.  Raises ``LookupError``
        where a number names no text this runner holds (the student's code emptied or changed
        the table)."""
        refs = request.get("item_refs")
        if refs is None:
            return request.get("item_texts")
        received = self.received
        if request.get("forget") is True:
            received.clear()
        texts = []
        for ref in refs:
            if type(ref) is str:
                received.append(ref)
                texts.append(ref)
                continue
            text = received[ref] if type(ref) is int and 0 <= ref < len(received) else None
            if type(text) is not str:
                raise LookupError(ref)
            texts.append(text)
        return texts

    def items_of(self, request, texts=None):
        """A call's inputs: ``items`` as they are, or its item texts (``texts``, else
        ``texts_of(request)``) decoded.  A tree's spec given to a convention
        that builds the game from it (``SHARED_TREES``) is decoded once while the child
        lives and shared by the calls that search the same tree: the student's code gets
        the game and its states, never a part of the spec (``grader.games.tree``: names,
        numbers, fresh lists), so no call can change what a later one searches.  Anything
        else is decoded afresh for each call, as a student's function may change the lists
        it is given.  At most ``MAX_DECODED`` trees are kept."""
        items = request.get("items")
        if items is not None:
            return items
        if texts is None:
            texts = self.texts_of(request)
        if request.get("convention") not in SHARED_TREES:
            return [_loads(text) for text in texts]
        decoded = self.decoded
        values = []
        for text in texts:
            value = decoded.get(text)
            if value is None:
                value = _loads(text)
                if type(value) is dict and value.get("kind") == "tree":
                    if len(decoded) >= MAX_DECODED:
                        decoded.clear()
                    decoded[text] = value
            values.append(value)
        return values

    def handle(self, request):
        op = request.get("op")
        self.provide(request)
        if op == "load":
            outcome = self.load(request["module"])
            return {"status": outcome["status"], "error": outcome.get("error")}
        if op != "call":
            return {"status": "protocol", "error": {"message": f"unknown op {op!r}"}}
        try:
            inputs = self.items_of(request, self.texts_of(request))
        except BaseException:   # a table of inputs the student's code emptied or changed
            return {"status": "protocol", "error": {"message": (
                "an input of this call could not be read from the runner's table of the "
                "inputs sent earlier (code run before this call may have changed it)")}}
        loaded = self.load(request["module"])
        if loaded["status"] != "ok":
            return {"status": loaded["status"], "error": loaded.get("error")}
        module = loaded["module"]
        name = request["function"]
        function = getattr(module, name, None)
        found = None
        if not callable(function):
            found = alike_in_case(module, name)
            if found is None:
                return {"status": "missing-function",
                        "error": {"module": request["module"], "function": name,
                                  "file": request["module"] + ".py"}}
            name = found
        conventions = self.convention(request["convention"])
        convention = conventions.call
        self.forget_signatures()    # read once per request, not once per item
        reply = {"status": "ok"}
        if found is not None:
            reply["found"] = str.__str__(found)[:MAX_TEXT]
        describe = getattr(conventions, "signature_report", None)
        if describe is not None:
            try:
                report = describe(module, name, request["args"])
            except BaseException:  # a student's __signature__ that raises: call as the task says
                report = None
            if report is not None:
                reply["signature"] = {key: plain(value) for key, value in report.items()}
        items = []
        for item in inputs:
            try:
                returned, log = convention(module, name, item, request["args"])
                items.append({"status": "ok", "returned": plain(returned), "log": log})
            except BaseException as error:  # the student's exception, recursion, sys.exit
                items.append({"status": "error",
                              "error": describe_exception(error, self.student_dir)})
        reply["items"] = items
        return reply


def alike_in_case(module, name):
    """The one callable of ``module`` whose name differs from ``name`` only in case (a
    student's ``MiniMax`` for the task's ``minimax``), or None where there is none or more."""
    try:
        names = [key for key, value in vars(module).items() if type(key) is str
                 and key.casefold() == name.casefold() and callable(value)]
    except BaseException:   # a module whose namespace is not a plain dict
        return None
    return names[0] if len(names) == 1 else None


def apply_limits(limits):
    """Lower this process's rlimits before any student code runs (no privilege needed).
    Where there are none (Windows: the process level on a student's own machine, where the
    code checked is the student's own), the call limits alone bound it."""
    try:
        import resource
    except ImportError:
        return
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


PR_SET_PDEATHSIG, PR_GET_SECCOMP, PR_SET_SECCOMP, PR_SET_NO_NEW_PRIVS = 1, 21, 22, 38
SECCOMP_MODE_FILTER = 2


def _prctl(option, *arguments):
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    result = libc.prctl(ctypes.c_int(option), *(ctypes.c_ulong(a) if isinstance(a, int) else a
                                                for a in arguments))
    if result < 0:
        number = ctypes.get_errno()
        raise OSError(number, os.strerror(number))
    return result


def install_seccomp(fd):
    """Install the classic-BPF seccomp program the parent wrote to ``fd`` (compiled by
    pyseccomp there: the child has no site-packages), after PR_SET_NO_NEW_PRIVS, which an
    unprivileged process needs for it and which keeps any exec from gaining privileges."""
    import ctypes
    chunks = []
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(fd)
    program = b"".join(chunks)
    if not program or len(program) % 8:  # struct sock_filter is 8 bytes
        raise ValueError(f"the filter program has {len(program)} bytes, not a multiple of 8")

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    instructions = ctypes.create_string_buffer(program, len(program))
    fprog = SockFprog(len(program) // 8, ctypes.cast(instructions, ctypes.c_void_p))
    _prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    _prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0)
    if _prctl(PR_GET_SECCOMP, 0, 0, 0, 0) != SECCOMP_MODE_FILTER:
        raise OSError("the kernel reports no seccomp filter after installing one")


def start_up(options):
    """What the container level needs before any student code: die with the parent (as
    bubblewrap's --die-with-parent does), move into the scratch folder, filter syscalls.
    Returns None, or why the sandbox could not be set up."""
    try:
        if "--chdir" in options:
            os.chdir(options["--chdir"])
        if "--seccomp-fd" in options:
            parent = os.getppid()
            import signal
            _prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
            if os.getppid() != parent:  # the parent died before the signal was armed
                os._exit(1)
            install_seccomp(int(options["--seccomp-fd"]))
    except BaseException as error:
        return f"{type(error).__name__}: {error}"
    return None


def refuse(requests, replies, problem):
    """Answer every request with an error naming ``problem``; student code is never loaded."""
    message = (f"the sandbox could not be set up ({problem}), so your code was not run; "
               "tell your instructor")
    for line in requests:
        try:
            request_id = _loads(line).get("id")
        except ValueError:
            continue
        replies.write("@" + str(request_id) + " "
                      + _dumps({"status": "protocol", "error": {"message": message}}) + "\n")
        replies.flush()


def pipe_fd(number, flags):
    """The descriptor of a pipe the parent passed: its number, or on Windows the handle the
    parent made inheritable (``portable.child_numbers``), opened as a descriptor."""
    if os.name != "nt":
        return int(number)
    import msvcrt
    return msvcrt.open_osfhandle(int(number), flags)


def main(argv):
    # The trees of a request and the student's search of them are many small containers,
    # nearly all freed by reference counting: with the default thresholds (700, 10, 10) the
    # collector scans them again and again (decoding the bundled course's three requests of
    # 200 random trees took 12 ms instead of 9).  Cyclic garbage a student's code makes is
    # still collected, after 100,000 new objects instead of 700.
    import gc
    gc.set_threshold(100_000, 50, 100)
    request_fd, reply_fd = (pipe_fd(argv[1], os.O_RDONLY), pipe_fd(argv[2], os.O_WRONLY))
    student_dir = argv[3]
    options = dict(zip(argv[5::2], argv[6::2]))
    problem = start_up(options)
    if len(argv) > 4:
        apply_limits(_loads(argv[4]))
    if problem is not None:
        refuse(os.fdopen(request_fd, "r", encoding="utf-8"),
               os.fdopen(reply_fd, "w", encoding="utf-8", newline="\n"), problem)
        return
    script_dir = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path
                   if p and os.path.abspath(p) not in (script_dir, STAGE_ROOT)]
    sys.path[:0] = [STAGE_ROOT]
    sys.dont_write_bytecode = True
    from grader.conventions.standard import remember_start
    remember_start()
    runner = Runner(student_dir)
    sys.path.insert(1, runner.student_dir)
    if "--packages" in options:
        sys.path.append(options["--packages"])
        PROVIDED[:] = [n for n in options.get("--provides", "").split(",") if n]
    # Last, so that a student's own util.py or game.py wins over the stand-ins.
    sys.path.append(runner.standins)
    # After every real finder: a module nothing provides, imported and never used, loads.
    from grader.conventions.absent import AbsentFinder
    sys.meta_path.append(AbsentFinder(runner.student_dir))
    requests = os.fdopen(request_fd, "r", encoding="utf-8")
    replies = os.fdopen(reply_fd, "w", encoding="utf-8", newline="\n")
    for line in requests:
        request = _loads(line)
        reply = runner.handle(request)
        # The request's id first, so that the parent can drop anything else written to this
        # pipe without parsing it.
        replies.write("@" + str(request.get("id")) + " " + _dumps(reply) + "\n")
        replies.flush()


if __name__ == "__main__":
    main(sys.argv)
