"""A static scan of a submission for code that reaches for the grader's runner.

``scan.py`` walks the files and bounds the work; ``syntax.py`` reads a file's syntax tree,
``tokens.py`` a file that does not parse; ``rules.py`` holds what is flagged.

Student code runs in the same process as the child-side runner (``grader/sandbox/child.py``),
and code in one process can always read and forge that process's replies: walk the frames up
to ``main`` and take its ``replies`` file, find the file with the garbage collector, write to
the reply pipe's descriptor, or patch the modules the runner uses.  That cannot be prevented
inside the process.  It can be surfaced: this package reads a submission's source and lists, with
file and line, every place that reaches for the runner's internals, so the instructor looks at
it.  A finding is not a verdict and costs no points; it says "a person should read this line".

This package runs in the PARENT.  It must never import, compile to bytecode, or execute student
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

