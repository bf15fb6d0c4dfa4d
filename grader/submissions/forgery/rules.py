"""What the forgery scan flags: its kinds, the names, attributes, calls and modules that reach
for the runner, the paths and strings it looks for, and its bounds (the package docstring
says why each reaches the runner)."""

from __future__ import annotations

import re

FRAME = "frame-introspection"
GC = "gc-introspection"
DESCRIPTOR = "reply-descriptor"
PROC = "proc-self"
RUNNER = "runner-modules"
BUILTINS = "builtins-patching"
NATIVE = "native-memory"
DYNAMIC = "dynamic-code"
NOT_SCANNED = "not-scanned"
KINDS = (FRAME, GC, DESCRIPTOR, PROC, RUNNER, BUILTINS, NATIVE, DYNAMIC, NOT_SCANNED)

MAX_FINDINGS = 50
MAX_WHAT = 80
SOURCE_SUFFIXES = (".py", ".pyw")
COMPILED_SUFFIXES = (".pyc", ".pyo", ".so", ".pyd")
MAX_EXEC_DEPTH = 3

# Qualified names whose mere use (called or not) is a finding.
NAMES = {
    "sys._getframe": FRAME, "sys._current_frames": FRAME, "sys._current_exceptions": FRAME,
    "sys.settrace": FRAME, "sys.setprofile": FRAME, "threading.settrace": FRAME,
    "threading.setprofile": FRAME, "threading.settrace_all_threads": FRAME,
    "threading.setprofile_all_threads": FRAME, "inspect.currentframe": FRAME,
    "inspect.stack": FRAME, "inspect.trace": FRAME, "inspect.getouterframes": FRAME,
    "inspect.getinnerframes": FRAME, "traceback.walk_stack": FRAME, "traceback.walk_tb": FRAME,
    "gc.get_objects": GC, "gc.get_referrers": GC, "gc.get_referents": GC,
    "sys.modules": RUNNER, "inspect.getmodule": RUNNER,
}
# Module prefixes: the module and everything in it is a finding.
MODULES = {"grader": RUNNER, "__main__": RUNNER, "__mp_main__": RUNNER,
           "ctypes": NATIVE, "_ctypes": NATIVE, "cffi": NATIVE}
# Attributes that are a finding on any object.
ATTRIBUTES = {name: FRAME for name in ("f_back", "f_globals", "f_locals", "f_builtins",
                                       "f_code", "f_trace", "tb_frame", "gi_frame",
                                       "cr_frame", "ag_frame")}
ATTRIBUTES.update({"__subclasses__": GC, "__globals__": RUNNER, "func_globals": RUNNER})
# A string that is exactly one of these names is a finding wherever it appears.
STRINGS = dict(ATTRIBUTES)
STRINGS.update({name.rpartition(".")[2]: kind for name, kind in NAMES.items()
                if name.rpartition(".")[2] not in ("stack", "trace", "modules")})
STRINGS["__builtins__"] = BUILTINS

# Modules the runner's reply path calls into: writing their attributes is patching the runner.
PATCHED = {"json", "os", "traceback", "importlib", "math", "io", "grader", "__main__"}
# Modules on which a computed getattr name is something this scan cannot see through.
DYNAMIC_TARGETS = {"sys", "gc", "inspect", "os", "io", "json", "builtins", "traceback",
                   "threading", "importlib", "socket", "ctypes", "grader", "__main__"}
# Other names for the same modules.
MODULE_ALIASES = {"posix": "os", "nt": "os", "_io": "io", "_json": "json",
                  "__builtin__": "builtins", "_socket": "socket", "posixpath": "os.path"}

# Calls whose listed positional arguments (or keywords) are descriptors.
FD_CALLS = {
    "os.write": (0,), "os.writev": (0,), "os.pwrite": (0,), "os.read": (0,), "os.readv": (0,),
    "os.pread": (0,), "os.fdopen": (0,), "os.dup": (0,), "os.dup2": (0, 1), "os.close": (0,),
    "os.closerange": (0, 1), "os.fstat": (0,), "os.lseek": (0,), "os.ftruncate": (0,),
    "os.fsync": (0,), "os.sendfile": (0, 1), "os.set_blocking": (0,),
    "os.set_inheritable": (0,), "socket.fromfd": (0,), "fcntl.fcntl": (0,),
    "fcntl.ioctl": (0,), "socket.socket": (3,), "multiprocessing.connection.Connection": (0,),
}
FD_KEYWORDS = {"fd", "fd2", "fileno", "out_fd", "in_fd", "handle"}
# Calls that take a path or a descriptor: only descriptor-like arguments are findings.
OPEN_CALLS = {"builtins.open", "io.open", "io.FileIO", "codecs.open"}
STANDARD_STREAMS = {"sys.stdout", "sys.stderr", "sys.__stdout__", "sys.__stderr__"}
EXEC_CALLS = {"builtins.exec", "builtins.eval", "builtins.compile"}
IMPORT_CALLS = {"builtins.__import__", "importlib.import_module", "importlib.__import__"}
ATTR_CALLS = {"builtins.getattr", "builtins.setattr", "builtins.delattr"}
MUTATORS = {"update", "__setitem__", "__delitem__", "setdefault", "pop", "popitem", "clear",
            "__setattr__", "__delattr__"}
# Built-in names that matter here, as long as the file does not bind them itself.
BUILTIN_NAMES = {"open", "exec", "eval", "compile", "__import__", "getattr", "setattr",
                 "delattr", "vars", "int", "__builtins__"}

FD_PATH = re.compile(r"/proc/(?:self|thread-self|\d+|\{[^}]*\}|%[a-z])/fd|/dev/fd(?:/|$)")
MEM_PATH = re.compile(r"/proc/(?:self|thread-self|\d+|\{[^}]*\}|%[a-z])/mem\b")
RUNNER_MODULE = re.compile(r"(?:grader|__main__|__mp_main__)(?:\.\w+)*")
PROC_PATH = re.compile(r"/proc(?:/(?:self|thread-self|\d+|\{[^}]*\}|%[a-z])|/?$)")


def string_findings(value: str, what: str) -> list[tuple[str, str]]:
    """(kind, what) for a string constant's contents."""
    found = []
    if value in STRINGS:
        found.append((STRINGS[value], what))
    if RUNNER_MODULE.fullmatch(value):  # a module name for a computed import
        found.append((RUNNER, what))
    if FD_PATH.search(value):
        found.append((DESCRIPTOR, what))
    elif MEM_PATH.search(value):
        found.append((NATIVE, what))
    elif PROC_PATH.search(value):
        found.append((PROC, what))
    return found
