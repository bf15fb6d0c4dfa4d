"""The modules a course provides (``provides: [utils.py]`` in its task file), importable by
every submission without being part of it.

Their sources come with the parent's ``load`` request (``"provided": {name: source}``);
``ProvidedFinder``, first on ``sys.meta_path``, hands them to an ``import`` from memory, so
nothing is written next to the student's files and no student can change them.  Where the
submission holds a file of the same name, ``provided_wins`` (the course's choice) decides:
the course's module (the default) or the student's own, which the ordinary path finder then
imports.  The parent notes either case for the student (``grader/grading.py``).

Runs in the child, next to student code: standard library only, never imports ``reference``.
"""

import importlib.machinery
import os

ORIGIN = "<course>"   # the folder a provided module's tracebacks name


# Plain classes, not importlib.abc's (see absent.py): the import system asks only for these.
class _SourceLoader:
    def __init__(self, name, source):
        self.name, self.source = name, source

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.__file__ = f"{ORIGIN}/{self.name}.py"
        exec(compile(self.source, module.__file__, "exec", dont_inherit=True), module.__dict__)

    def get_source(self, fullname):
        return self.source


class ProvidedFinder:
    """Finds the course's modules by name (top-level names only)."""

    def __init__(self, modules: dict, wins: bool, student_dir: str):
        self.modules = dict(modules)
        self.wins = wins
        self.student_dir = student_dir

    def own_file(self, name: str) -> bool:
        """Whether the submission holds a module ``name`` of its own."""
        return (os.path.isfile(os.path.join(self.student_dir, name + ".py"))
                or os.path.isfile(os.path.join(self.student_dir, name, "__init__.py")))

    def find_spec(self, fullname, path=None, target=None):
        if path is not None or fullname not in self.modules:
            return None
        if not self.wins and self.own_file(fullname):
            return None
        return importlib.machinery.ModuleSpec(
            fullname, _SourceLoader(fullname, self.modules[fullname]),
            origin=f"{ORIGIN}/{fullname}.py")
