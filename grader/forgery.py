"""A static scan of a submission for code that reaches for the grader's runner.

Student code runs in the same process as the child-side runner (``grader/sandbox/child.py``),
and code in one process can always read and forge that process's replies: walk the frames up
to ``main`` and take its ``replies`` file, find the file with the garbage collector, write to
the reply pipe's descriptor, or patch the modules the runner uses.  That cannot be prevented
inside the process.  It can be surfaced: this module reads a submission's source and lists, with
file and line, every place that reaches for the runner's internals, so the instructor looks at
it.  A finding is not a verdict and costs no points; it says "a person should read this line".

This module runs in the PARENT.  It must never import, compile to bytecode, or execute student
code: it reads bytes, builds a syntax tree with ``ast.parse`` (which runs nothing), or
tokenizes.  It never follows symbolic links, never raises, and bounds its work (files, bytes,
directory entries, findings).

What is flagged, by kind (``KINDS``), and why each reaches the runner:

``frame-introspection``
    The runner's ``main`` holds the reply file in a local variable, and every call into student
    code has the runner's frames above it.  Flagged: ``sys._getframe``, ``sys._current_frames``,
    ``sys._current_exceptions``, ``sys.settrace``/``setprofile`` and their ``threading``
    counterparts (a tracer receives every frame), ``inspect.currentframe``/``stack``/``trace``/
    ``getouterframes``/``getinnerframes``, ``traceback.walk_stack``/``walk_tb``, and the frame
    attributes ``f_back``, ``f_globals``, ``f_locals``, ``f_builtins``, ``f_code``, ``f_trace``,
    ``tb_frame``, ``gi_frame``, ``cr_frame``, ``ag_frame`` on any object (so
    ``sys.exc_info()[2].tb_frame`` chains are caught at the attribute).  ``inspect.signature``,
    ``inspect.getsource`` and ``sys.exc_info`` alone hand out no frames and are not flagged.
``gc-introspection``
    ``gc.get_objects``, ``gc.get_referrers`` and ``gc.get_referents`` return objects the student
    was never handed, the runner's reply file among them; ``__subclasses__`` walks the class
    graph to the runner's classes the same way.  ``gc.collect``/``disable`` are harmless.
``reply-descriptor``
    The reply pipe is an inherited descriptor (its number is in the runner's ``sys.argv``).
    Flagged: ``os.write``/``writev``/``pwrite``/``read``/``readv``/``pread``/``fdopen``/``dup``/
    ``dup2``/``close``/``closerange``/``fstat``/``lseek``/``ftruncate``/``fsync``/``sendfile``/
    ``set_blocking``/``set_inheritable``, ``socket.fromfd``, ``socket.socket(fileno=...)`` and
    ``fcntl.fcntl``/``ioctl`` on any descriptor that is not literally 1 or 2 (or
    ``sys.stdout.fileno()``/``sys.stderr.fileno()``); ``open``/``io.open``/``io.FileIO`` on a
    descriptor-like argument (an integer other than 1 and 2, ``int(...)``, ``x.fileno()``,
    ``os.dup(...)``, a name assigned one of those anywhere in the file, or ``closefd=False``;
    ``open(sys.argv[1])`` opens a path and is not flagged); and the paths
    ``/proc/self/fd``, ``/proc/<pid>/fd``, ``/proc/thread-self/fd`` and ``/dev/fd`` in any string.
``proc-self``
    ``/proc/self``, ``/proc/thread-self``, ``/proc/<digits>``, ``/proc/{pid}`` (f-strings,
    ``%d``) and a bare ``/proc`` in a string: the process's own command line (the descriptor
    numbers), descriptors, maps and memory.
``runner-modules``
    Importing or referring to ``grader``/``grader.*`` (the runner's own modules, staged beside
    it) or ``__main__`` (the running runner itself); ``sys.modules`` in any use except
    ``sys.modules[__name__]`` and ``x in sys.modules`` (the table leads to ``__main__`` and to
    every module the runner uses); a string that is a runner module's name (``"grader.games"``,
    ``"__main__"`` outside ``__name__ == "__main__"``: the name for a computed import);
    ``inspect.getmodule`` (from the game object to the runner's
    module); a function's ``__globals__``/``func_globals`` (the game's methods are runner
    functions: their globals are a runner module); and assigning, deleting or ``setattr`` on an
    attribute of a module the runner's reply path uses: ``json`` (and ``json.*``, ``_json``),
    ``os``/``os.path``, ``traceback``, ``importlib``, ``math``, ``io``.  ``sys.stdout = ...``,
    ``sys.path`` and other ``sys`` attributes are common and harmless: not flagged.
``builtins-patching``
    The runner calls ``isinstance``, ``type``, ``repr``, ``getattr`` and ``enumerate`` to turn
    student results into plain data; replacing a built-in changes what it reports.  Flagged:
    assigning or deleting ``builtins.X``/``__builtins__.X``/``__builtins__[...]``, ``setattr``
    on them, mutating methods (``update``, ``__setitem__``, ``setdefault``, ``pop``...) of
    ``__builtins__`` or ``vars(builtins)``, and the string ``"__builtins__"``.  Reading a built-in
    through ``builtins`` is harmless and not flagged.
``native-memory``
    ``ctypes``, ``_ctypes`` and ``cffi`` read and write the process's memory (and so the
    runner's objects) directly, as does ``/proc/self/mem`` (and ``/proc/<pid>/mem``).
``dynamic-code``
    What this scan cannot see through: ``exec``/``eval``/``compile`` of a string that is not a
    literal, ``__import__``/``importlib.import_module`` of a computed name, and ``getattr``/
    ``setattr``/``delattr``/``vars(...)[...]`` with a computed name on one of the modules above.
    A literal string given to ``exec``/``eval``/``compile`` is scanned as code instead (its
    findings get the call's line).
``not-scanned``
    A file that could hold code but was not read: larger than ``max_bytes``, beyond
    ``max_files`` or the directory-entry budget, or compiled (``.pyc`` outside ``__pycache__``,
    ``.so``, ``.pyd``: Python imports those too).  Honest submissions have none; padding a
    forger past the size limit must not hide it.  ``line`` is 1 for these.

Aliases are followed within a file: ``import sys as s``, ``from sys import _getframe as g``,
``g = sys._getframe``, ``s = sys``, ``getattr(sys, "_getframe")``, ``sys.__dict__[...]``,
``vars(sys)[...]``, ``__import__("gc")``, ``importlib.import_module("gc")``,
``sys.modules["gc"]``, ``from gc import *``.  A string that is exactly one of the frame, gc or
globals attribute names above (``"f_back"``, ``"get_objects"``...) is flagged wherever it
appears, which also catches ``operator.attrgetter("f_back")``.  Names that are bound to
anything but the module (a student's own ``gc`` or ``frame`` variable) are not the module.

A file that does not parse (a syntax error, Python 2) is scanned token by token instead: the
distinctive names above, ``sys.modules``, ``inspect.stack``, imports of ``grader``/
``__main__``/``ctypes``, the descriptor calls with a literal other than 1 and 2, patched
``json``/``builtins`` attributes and the paths.  Comments are skipped as long as the tokenizer
gets through the file; past the point where it gives up, lines are matched as raw text and a
comment there can be flagged.  Aliases are not followed in that mode.
"""

from __future__ import annotations

import ast
import collections
import io
import os
import re
import tokenize
import unicodedata
import warnings
from dataclasses import dataclass
from pathlib import Path

from . import sourcetree

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


@dataclass(frozen=True)
class Finding:
    file: str      # path relative to the submission folder, POSIX, escaped
    line: int      # 1-based; 1 for whole-file findings (not-scanned)
    kind: str      # one of KINDS
    what: str      # the construct found, short and escaped


def findings_json(findings: list[Finding]) -> list[dict]:
    """Plain dicts for results.json, in the scan's order."""
    return [{"file": f.file, "line": f.line, "kind": f.kind, "what": f.what} for f in findings]


def escape(text: str, limit: int = 200) -> str:
    """Printable text: control, format and separator characters, undecodable bytes (kept by
    the file system as surrogates) and backslashes are written as escapes, so a file name
    cannot move the cursor or fake another line in a terminal or a report."""
    out = []
    for char in text:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif char == "\\":
            out.append("\\\\")
        elif unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
                       if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(char)
    shown = "".join(out)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


def scan(folder: Path, max_files: int = 500, max_bytes: int = 2 << 20) -> list[Finding]:
    """Every place in the submission's source that reaches for the runner: at most
    ``MAX_FINDINGS``, one per (file, line, kind), ordered by file and line.  Never raises."""
    try:
        return _scan(Path(folder), max_files, max_bytes)
    except Exception as error:  # a bug here must not stop grading, nor pass as "clean"
        return [Finding(".", 1, NOT_SCANNED, f"scanner error: {type(error).__name__}")]


def _scan(folder: Path, max_files: int, max_bytes: int) -> list[Finding]:
    found: dict[tuple, Finding] = {}
    unscanned: dict[tuple, Finding] = {}

    def skip(relative: str, reason: str) -> None:
        finding = Finding(escape(relative), 1, NOT_SCANNED, escape(reason, MAX_WHAT))
        unscanned.setdefault((finding.file, finding.line), finding)

    sources, skipped = _walk(folder, max_files)
    for relative, reason in skipped:
        skip(relative, reason)
    # Bounds the total work too, not only each file's.
    budget = max(max_bytes, 1) * 4
    for relative, path in sources:
        if len(found) >= MAX_FINDINGS:
            break
        try:
            size = os.lstat(path).st_size
            if size > max_bytes or size > budget:
                skip(relative, f"{size} bytes, more than {min(max_bytes, budget)}")
                continue
            with open(path, "rb", opener=_no_follow) as handle:
                data = handle.read(max_bytes + 1)
        except OSError as error:
            skip(relative, f"unreadable: {error.strerror}")
            continue
        if len(data) > max_bytes:  # grew since lstat
            skip(relative, f"more than {max_bytes} bytes")
            continue
        budget -= len(data)
        try:
            results = scan_source(_decode(data))
        except Exception as error:  # this file only: the others are still scanned
            skip(relative, f"scanner error: {type(error).__name__}")
            continue
        name = escape(relative)
        for line, kind, what in results:
            finding = Finding(name, line, kind, escape(what, MAX_WHAT))
            found.setdefault((finding.file, finding.line, finding.kind), finding)

    def order(finding: Finding) -> tuple:
        return finding.file, finding.line, KINDS.index(finding.kind)

    # What was found comes first when there is too much; files not scanned fill the rest,
    # so that many compiled files cannot push a real finding out of the list.
    chosen = sorted(found.values(), key=order)[:MAX_FINDINGS]
    chosen += sorted(unscanned.values(), key=order)[:MAX_FINDINGS - len(chosen)]
    return sorted(chosen, key=order)


def _no_follow(path, flags):
    return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))


def _decode(data: bytes) -> str:
    """The text, as Python would read it where it can; bytes that are not UTF-8 replaced."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8", errors="replace")


def _walk(folder: Path, max_files: int) -> tuple[list, list]:
    """The Python sources under ``folder`` (relative POSIX name, path), sorted, and the files
    that hold code but are not scanned (relative name, reason).  Symbolic links are never
    followed, neither to files nor to folders."""
    sources, unscanned = [], []
    entries_left = max(max_files, 1) * 20
    too_many = False
    pending = [(folder, "")]
    while pending:
        directory, prefix = pending.pop()
        try:
            with os.scandir(directory) as iterator:
                entries = []
                for entry in iterator:
                    entries_left -= 1
                    if entries_left < 0:
                        unscanned.append((prefix or ".", "too many files and folders to "
                                                         "scan them all"))
                        return sorted(sources), unscanned
                    entries.append(entry)
        except OSError:
            continue
        folders = []
        for entry in sorted(entries, key=lambda e: e.name):
            relative = prefix + entry.name
            try:
                if entry.is_symlink():
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":  # caches are removed before grading
                        folders.append((entry.path, relative + "/"))
                elif entry.is_file(follow_symlinks=False):
                    if entry.name.endswith(SOURCE_SUFFIXES):
                        if len(sources) < max_files:
                            sources.append((relative, entry.path))
                        elif not too_many:  # one finding says it; the rest are not listed
                            too_many = True
                            unscanned.append((relative, f"more than {max_files} Python "
                                                        f"files: this and later ones"))
                    elif entry.name.endswith(COMPILED_SUFFIXES):
                        unscanned.append((relative, "compiled code"))
            except OSError:
                continue
        # Depth first, by name: a folder's own files before its subfolders'.
        pending.extend(reversed(folders))
    return sorted(sources), unscanned


def scan_source(text: str, depth: int = 0) -> list[tuple[int, str, str]]:
    """(line, kind, what) for one file's text: from its syntax tree, or token by token when
    it does not parse."""
    try:
        with warnings.catch_warnings():  # invalid escapes and the like are not our business
            warnings.simplefilter("ignore")
            tree = sourcetree.parse(text)  # not ast.parse: see sourcetree
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return _scan_tokens(text)
    try:
        return _TreeScan(tree, depth).run()
    except RecursionError:  # absurdly deep expressions: the tokens still say enough
        return _scan_tokens(text)


def _unparse(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except Exception:
        return "…"
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:39] + "…"


def _string_findings(value: str, what: str) -> list[tuple[str, str]]:
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


SCANNED_NODES = {ast.Import, ast.ImportFrom, ast.Name, ast.Attribute, ast.Subscript, ast.Call,
                 ast.Constant, ast.JoinedStr}


class _TreeScan:
    """One parsed file: aliases first, then every node."""

    def __init__(self, tree: ast.Module, depth: int):
        self.tree = tree
        self.depth = depth
        self.found: list[tuple[int, str, str]] = []
        self.parents: dict[int, ast.AST] = {}
        self.nodes: list[ast.AST] = []
        self.of_type: dict[type, list] = {}
        # One breadth-first pass (outer constructs before inner ones, so the first finding
        # on a line names the whole construct), remembering parents and nodes by type.
        queue = collections.deque([tree])
        pop, push, AST = queue.popleft, queue.append, ast.AST  # local names: this loop is hot
        parents, nodes, of_type = self.parents, self.nodes, self.of_type
        while queue:
            node = pop()
            nodes.append(node)
            kind = type(node)
            if kind in of_type:
                of_type[kind].append(node)
            else:
                of_type[kind] = [node]
            for field in node._fields:
                value = getattr(node, field, None)
                if isinstance(value, list):
                    for item in value:
                        if isinstance(item, AST):
                            parents[id(item)] = node
                            push(item)
                elif isinstance(value, AST):
                    parents[id(value)] = node
                    push(value)
        self.bound = self._bound_names()
        self.aliases: dict[str, str] = {}
        self.fd_names: set[str] = set()
        self._collect_aliases()

    def _all(self, *types: type) -> list:
        """The nodes of these types, in traversal order."""
        if len(types) == 1:
            return self.of_type.get(types[0], [])
        return [node for node in self.nodes if type(node) in types]

    # -- what names mean -------------------------------------------------------------
    def _bound_names(self) -> set[str]:
        """Names the file binds itself, other than by import (assignments, defs, parameters,
        loop and with targets): such a name is the student's, not a built-in."""
        bound = {node.id for node in self._all(ast.Name) if not isinstance(node.ctx, ast.Load)}
        bound.update(node.name for node in self._all(ast.FunctionDef, ast.AsyncFunctionDef,
                                                     ast.ClassDef))
        bound.update(node.arg for node in self._all(ast.arg))
        bound.update(node.name for node in self._all(ast.ExceptHandler) if node.name)
        return bound

    def _collect_aliases(self) -> None:
        assignments = []
        for node in self._all(ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign,
                              ast.NamedExpr):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    name = _normal(alias.name)
                    if alias.asname:
                        self.aliases[alias.asname] = name
                    else:
                        top = alias.name.split(".")[0]
                        self.aliases[top] = _normal(top)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                module = _normal(node.module)
                for alias in node.names:
                    if alias.name == "*":
                        for qualified in list(NAMES) + list(FD_CALLS):
                            owner, _, attribute = qualified.rpartition(".")
                            if owner == module and attribute not in self.bound:
                                self.aliases[attribute] = qualified
                    else:
                        self.aliases[alias.asname or alias.name] = f"{module}.{alias.name}"
            elif isinstance(node, ast.Assign):
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
                if targets:
                    assignments.append((targets, node.value))
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None \
                    and isinstance(node.target, ast.Name):
                assignments.append(([node.target.id], node.value))
        # To a fixed point, so that ``s = sys`` then ``g = s._getframe`` is followed.
        for _ in range(10):
            changed = False
            for targets, value in assignments:
                qualified = self.qualify(value)
                for target in targets:
                    if qualified and self.aliases.get(target) != qualified:
                        self.aliases[target] = qualified
                        changed = True
                    if target not in self.fd_names and self.fd_like(value):
                        self.fd_names.add(target)
                        changed = True
            if not changed:
                break

    def qualify(self, node: ast.AST) -> str | None:
        """The dotted name an expression stands for (``"sys._getframe"``, ``"gc"``), or None."""
        if isinstance(node, ast.Name):
            if node.id in self.aliases:
                return self.aliases[node.id]
            if node.id in BUILTIN_NAMES and node.id not in self.bound:
                return "builtins" if node.id == "__builtins__" else "builtins." + node.id
            return None
        if isinstance(node, ast.Attribute):
            base = self.qualify(node.value)
            return f"{base}.{node.attr}" if base else None
        if isinstance(node, ast.Call):
            function = self.qualify(node.func)
            first = node.args[0] if node.args else None
            literal = first.value if isinstance(first, ast.Constant) and isinstance(
                first.value, str) else None
            if function in IMPORT_CALLS and literal:
                if function == "builtins.__import__" and len(node.args) < 4:
                    literal = literal.split(".")[0]
                return _normal(literal)
            if function == "builtins.getattr" and len(node.args) >= 2:
                base = self.qualify(node.args[0])
                name = node.args[1]
                if base and isinstance(name, ast.Constant) and isinstance(name.value, str):
                    return f"{base}.{name.value}"
            if function == "builtins.vars" and first is not None:
                return self.qualify(first)
            if function == "sys.modules.get" and literal:
                return _normal(literal)
            return None
        if isinstance(node, ast.Subscript):
            base = self.qualify(node.value)
            key = node.slice
            if not base or not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                return None
            if base == "sys.modules":
                return _normal(key.value)
            return f"{base.removesuffix('.__dict__')}.{key.value}"
        return None

    def fd_like(self, node: ast.AST) -> bool:
        """Whether an expression looks like a descriptor number other than 1 and 2."""
        if isinstance(node, ast.Constant):
            return type(node.value) is int and node.value not in (1, 2)
        if isinstance(node, ast.Name):
            return node.id in self.fd_names
        if isinstance(node, ast.Call):
            function = self.qualify(node.func)
            if function == "builtins.int":
                return True
            if isinstance(node.func, ast.Attribute) and node.func.attr == "fileno":
                return self.qualify(node.func.value) not in STANDARD_STREAMS
            return function == "os.dup"
        return False

    def standard_fd(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return type(node.value) is int and node.value in (1, 2)
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "fileno" and not node.args
                and self.qualify(node.func.value) in STANDARD_STREAMS)

    # -- the scan --------------------------------------------------------------------
    def run(self) -> list[tuple[int, str, str]]:
        for node in self.nodes:
            if type(node) not in SCANNED_NODES:
                continue
            line = node.lineno
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self._module_use(line, _normal(alias.name), f"import {alias.name}")
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                module = _normal(node.module)
                self._module_use(line, module, f"from {node.module} import …")
                for alias in node.names:
                    self._name_use(line, f"{module}.{alias.name}",
                                   f"from {node.module} import {alias.name}")
            elif isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
                self._reference(node, line)
            elif isinstance(node, ast.Call):
                self._reference(node, line)
                self._call(node, line)
            elif isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
                if self._main_guard(node):
                    continue
                value = node.value if isinstance(node.value, str) else node.value.decode(
                    "latin-1")
                for kind, what in _string_findings(value, repr(node.value)):
                    self.found.append((line, kind, what))
            elif isinstance(node, ast.JoinedStr):
                pattern = "".join(v.value if isinstance(v, ast.Constant) else "{}"
                                  for v in node.values)
                for kind, what in _string_findings(pattern, _unparse(node)):
                    self.found.append((line, kind, what))
        return self.found

    def _module_use(self, line: int, module: str, what: str) -> None:
        top = module.split(".")[0]
        if top in MODULES:
            self.found.append((line, MODULES[top], what))

    def _name_use(self, line: int, qualified: str, what: str) -> None:
        if qualified in NAMES:
            self.found.append((line, NAMES[qualified], what))

    def _reference(self, node: ast.AST, line: int) -> None:
        """Names, attributes and subscripts: the module, name and attribute tables, and
        stores into a module the runner uses."""
        context = getattr(node, "ctx", None)
        if isinstance(node, ast.Attribute) and node.attr in ATTRIBUTES:
            self.found.append((line, ATTRIBUTES[node.attr], _unparse(node)))
        # A name being bound is not a use: ``g = sys._getframe`` is reported at its value.
        bound_here = isinstance(node, ast.Name) and not isinstance(context, ast.Load)
        qualified = None if bound_here else self.qualify(node)
        if qualified:
            written = _unparse(node)
            # Through an alias, say both: what the student wrote and what it is.
            what = qualified if written == qualified else f"{written} ({qualified})"
            if qualified == "sys.modules" and self._harmless_modules_use(node):
                pass
            elif qualified in NAMES:
                self.found.append((line, NAMES[qualified], what))
            else:
                self._module_use(line, qualified, what)
        if isinstance(context, (ast.Store, ast.Del)) and isinstance(
                node, (ast.Attribute, ast.Subscript)):
            owner = self.qualify(node.value)
            verb = "del " if isinstance(context, ast.Del) else ""
            if owner:
                self._patch(line, owner.removesuffix(".__dict__"),
                            f"{verb}{_unparse(node)}{'' if verb else ' = …'}",
                            subscript=isinstance(node, ast.Subscript))

    def _main_guard(self, node: ast.Constant) -> bool:
        """The ``"__main__"`` of ``if __name__ == "__main__":``."""
        parent = self.parents.get(id(node))
        return node.value == "__main__" and isinstance(parent, ast.Compare) and any(
            isinstance(side, ast.Name) and side.id == "__name__"
            for side in [parent.left, *parent.comparators])

    def _harmless_modules_use(self, node: ast.AST) -> bool:
        """``sys.modules[__name__]`` (a module's own entry) and ``name in sys.modules``."""
        parent = self.parents.get(id(node))
        if isinstance(parent, ast.Subscript) and parent.value is node and isinstance(
                parent.ctx, ast.Load) and isinstance(parent.slice, ast.Name) \
                and parent.slice.id == "__name__":
            return True
        return isinstance(parent, ast.Compare) and node in parent.comparators and all(
            isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops)

    def _patch(self, line: int, owner: str, what: str, subscript: bool = False) -> None:
        """A write into ``owner`` (a qualified name)."""
        top = owner.split(".")[0]
        if top == "builtins":
            self.found.append((line, BUILTINS, what))
        elif top in PATCHED and not (subscript and owner == "os.environ"):
            self.found.append((line, RUNNER, what))

    def _call(self, node: ast.Call, line: int) -> None:
        function = self.qualify(node.func)
        if function is None:
            return
        args = node.args
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        if function in FD_CALLS:
            candidates = [args[i] for i in FD_CALLS[function] if i < len(args)]
            candidates += [v for k, v in keywords.items() if k in FD_KEYWORDS]
            for candidate in candidates:
                if not self.standard_fd(candidate):
                    shown = _shown_call(node, function, candidate)
                    self.found.append((line, DESCRIPTOR, shown))
                    break
        elif function in OPEN_CALLS:
            target = args[0] if args else keywords.get("file")
            closefd = keywords.get("closefd")
            descriptor = target is not None and (self.fd_like(target) or (
                isinstance(closefd, ast.Constant) and closefd.value is False))
            if descriptor and not self.standard_fd(target):
                self.found.append((line, DESCRIPTOR, _shown_call(node, function, target)))
        elif function in EXEC_CALLS:
            self._exec(node, function, line)
        elif function in IMPORT_CALLS:
            if args and not (isinstance(args[0], ast.Constant) and isinstance(
                    args[0].value, str)):
                shown = function.removeprefix("builtins.")
                self.found.append((line, DYNAMIC, f"{shown}({_unparse(args[0])})"))
        elif function in ATTR_CALLS and args:
            owner = self.qualify(args[0])
            name = args[1] if len(args) > 1 else None
            literal = isinstance(name, ast.Constant) and isinstance(name.value, str)
            if owner and owner.split(".")[0] in DYNAMIC_TARGETS and name is not None \
                    and not literal:
                self.found.append((line, DYNAMIC, f"{function.removeprefix('builtins.')}("
                                                  f"{owner}, {_unparse(name)})"))
            if owner and function != "builtins.getattr":
                shown = f"{function.removeprefix('builtins.')}({owner}, …)"
                self._patch(line, owner.removesuffix(".__dict__"), shown)
        else:
            owner, _, method = function.rpartition(".")
            if method in MUTATORS and owner.removesuffix(".__dict__").split(".")[0] == \
                    "builtins":
                self.found.append((line, BUILTINS, f"{owner}.{method}(…)"))

    def _exec(self, node: ast.Call, function: str, line: int) -> None:
        """A literal is scanned as code; anything else cannot be seen through."""
        name = function.removeprefix("builtins.")
        source = node.args[0] if node.args else None
        if isinstance(source, ast.Constant) and isinstance(source.value, (str, bytes)):
            if self.depth >= MAX_EXEC_DEPTH:
                self.found.append((line, DYNAMIC, f"{name}(…) nested too deep"))
                return
            text = source.value if isinstance(source.value, str) else source.value.decode(
                "utf-8", errors="replace")
            for _, kind, what in scan_source(text, self.depth + 1):
                self.found.append((line, kind, f"{name}: {what}"))
        elif source is not None:
            self.found.append((line, DYNAMIC, f"{name}({_unparse(source)})"))


def _shown_call(node: ast.Call, function: str, argument: ast.AST) -> str:
    """``os.write(4, …)``: the call as written with its descriptor argument, and what the
    called name stands for when it was reached through an alias."""
    written = _unparse(node.func)
    meant = function.removeprefix("builtins.")
    keyword = next((k.arg for k in node.keywords if k.value is argument), None)
    shown = _unparse(argument) if keyword is None else f"{keyword}={_unparse(argument)}"
    more = len(node.args) + len(node.keywords) > 1
    call = f"{written}({shown}{', …' if more else ''})"
    return call if written == meant else f"{call} ({meant})"


def _normal(module: str) -> str:
    top, dot, rest = module.partition(".")
    return MODULE_ALIASES.get(top, top) + dot + rest if top in MODULE_ALIASES else module


# -- the fallback for files that do not parse -------------------------------------------
WORDS = dict(STRINGS)
WORDS.pop("__builtins__")
WORDS.update({"ctypes": NATIVE, "_ctypes": NATIVE, "cffi": NATIVE})
PAIRS = {("sys", "modules"): RUNNER, ("inspect", "stack"): FRAME, ("inspect", "trace"): FRAME,
         ("inspect", "getmodule"): RUNNER}
FD_FUNCTIONS = {name.partition(".")[2] for name in FD_CALLS if name.startswith("os.")}
RAW_WORD = re.compile(r"\b(" + "|".join(map(re.escape, sorted(WORDS))) + r")\b")
RAW_IMPORT = re.compile(r"^\s*(?:import|from)\s+(grader|__main__|ctypes|cffi)\b")
RAW_PAIR = re.compile(r"\b(sys\s*\.\s*modules|inspect\s*\.\s*(?:stack|trace|getmodule))\b")
RAW_FD = re.compile(r"\bos\s*\.\s*(" + "|".join(sorted(FD_FUNCTIONS)) + r")\s*\(\s*(?![12]\s*[,)])")
RAW_PATCH = re.compile(r"\b(json|builtins|__builtin__|__builtins__)\s*(?:\.\s*\w+|\[[^]]{0,200}\])"
                       r"\s*=(?!=)")
MAX_RAW_LINE = 10_000
RAW_STRING = re.compile(r"(['\"])(.*?)\1")


def _scan_tokens(text: str) -> list[tuple[int, str, str]]:
    """(line, kind, what) from the tokens of a file that does not parse, and from raw lines
    past the point where the tokenizer gives up."""
    found = []
    tokens = []
    stopped_at = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in (tokenize.NAME, tokenize.OP, tokenize.STRING, tokenize.NUMBER,
                              tokenize.NEWLINE, tokenize.NL):
                tokens.append(token)
    except tokenize.TokenError as error:  # an unterminated string or bracket, at its start
        position = error.args[1] if len(error.args) > 1 else None
        stopped_at = position[0] if isinstance(position, tuple) else _after(tokens)
    except SyntaxError as error:  # bad indentation, null bytes
        stopped_at = error.lineno or _after(tokens)
    except Exception:
        stopped_at = _after(tokens)
    texts = [t.string for t in tokens]
    text_lines = text.splitlines()
    for index, token in enumerate(tokens):
        line = token.start[0]
        after = texts[index + 1:index + 6]
        if token.type == tokenize.STRING:
            value = _literal(token.string)
            if value == "__main__" and _main_guard_line(text_lines, line):
                continue
            for kind, what in _string_findings(value, token.string[:MAX_WHAT]):
                found.append((line, kind, what))
            continue
        if token.type != tokenize.NAME:
            continue
        word = token.string
        before = texts[index - 1] if index else ""
        if word in WORDS:
            found.append((line, WORDS[word], word))
        if word in ("import", "from") and after and after[0] in MODULES:
            found.append((line, MODULES[after[0]], f"{word} {after[0]}"))
        if len(after) >= 2 and after[0] == "." and (word, after[1]) in PAIRS:
            found.append((line, PAIRS[(word, after[1])], f"{word}.{after[1]}"))
        if word == "os" and len(after) >= 4 and after[0] == "." and after[1] in FD_FUNCTIONS \
                and after[2] == "(" and not (after[3] in ("1", "2") and after[4:5] in (
                    [","], [")"])):
            found.append((line, DESCRIPTOR, f"os.{after[1]}({after[3]}, …)"))
        if word == "open" and before != "." and len(after) >= 2 and after[0] == "(" \
                and tokens[index + 2].type == tokenize.NUMBER and after[1] not in ("1", "2"):
            found.append((line, DESCRIPTOR, f"open({after[1]}, …)"))
        if word in ("json", "builtins", "__builtin__", "__builtins__") and before != "." \
                and len(after) >= 3:
            kind = RUNNER if word == "json" else BUILTINS
            if after[0] == "." and after[2] == "=":
                found.append((line, kind, f"{word}.{after[1]} = …"))
            elif after[0] == "[" and "]" in after and after[after.index("]") + 1:][:1] == ["="]:
                found.append((line, kind, f"{word}[…] = …"))
    if stopped_at is not None:
        found.extend(_scan_raw(text.splitlines()[stopped_at - 1:], stopped_at))
    return found


def _main_guard_line(lines: list[str], line: int) -> bool:
    """Whether the line compares ``__name__`` (so its ``"__main__"`` is the usual guard)."""
    return 0 < line <= len(lines) and "__name__" in lines[line - 1]


def _after(tokens: list) -> int:
    return tokens[-1].start[0] + 1 if tokens else 1


def _scan_raw(lines: list[str], first: int) -> list[tuple[int, str, str]]:
    """Plain text matching, for the part of a file even the tokenizer cannot read."""
    found = []
    for number, text in enumerate(lines, first):
        text = text[:MAX_RAW_LINE]  # keeps the matching linear in the file's size
        for match in RAW_WORD.finditer(text):
            found.append((number, WORDS[match.group(1)], match.group(1)))
        match = RAW_IMPORT.match(text)
        if match:
            found.append((number, MODULES[match.group(1)], match.group(0).strip()))
        for match in RAW_PAIR.finditer(text):
            pair = tuple(part.strip() for part in match.group(1).split("."))
            found.append((number, PAIRS[pair], ".".join(pair)))
        for match in RAW_FD.finditer(text):
            found.append((number, DESCRIPTOR, f"os.{match.group(1)}(…)"))
        for match in RAW_PATCH.finditer(text):
            found.append((number, RUNNER if match.group(1) == "json" else BUILTINS,
                          match.group(0).strip()))
        for match in RAW_STRING.finditer(text):
            if match.group(2) == "__main__" and "__name__" in text:
                continue
            for kind, what in _string_findings(match.group(2), match.group(0)):
                found.append((number, kind, what))
    return found


def _literal(token: str) -> str:
    """A string token's value, without evaluating anything: ``ast.literal_eval`` only reads
    literals; Python 2 prefixes it does not know fall back to stripping the quotes."""
    try:
        value = ast.literal_eval(token)
    except Exception:
        value = token.lstrip("bBrRuUfF").strip("'\"")
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    return value if isinstance(value, str) else ""
