"""Stand-ins for packages a course does not provide, so that an *unused* import of one loads.

Real student files carry imports they never use: an editor's auto-import
(``from pkg_resources import evaluate_marker``), a library tried once and forgotten.  The
original autograders run such files; failing them at the import would cost a correct search
every point.  ``AbsentFinder`` sits last on ``sys.meta_path``: only an import that nothing else
can satisfy reaches it, and only one made by the student's own code (a file under the
submission's folder, not inside a ``try`` that catches the ``ImportError``: such code has its
own way out, which it keeps).  It then hands out a module that loads, and whose names can be
imported, but that fails as soon as anything of it is used: an attribute read, a call, an
operator, a comparison, iteration, truth.  The failure is a ``ModuleNotFoundError`` naming the
package (``name``) and what was used (``grader_used``), so that the runner reports it as a
package the course does not provide, at the line of the student's code that used it.

Runs in the child, next to student code: standard library only, never imports ``reference``.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys

from .standard import standard_module

# Handlers that catch a failed import: ``except ImportError``, its subclass, and the broad ones.
_CATCHING = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


class AbsentPackageUsed(ModuleNotFoundError):
    """Something of a package the course does not provide was used (``grader_used``, e.g.
    ``numpy.inf``); ``name`` is the package's top-level name, as for a failed import."""

    def __init__(self, package: str, used: str):
        super().__init__(f"{used}: this course does not provide the package {package}",
                         name=package)
        self.grader_used = used


def _refuse(package: str, used: str):
    raise AbsentPackageUsed(package, used)


class AbsentName:
    """A name imported from an absent package (``from numpy import inf``): every use fails."""

    __slots__ = ("_grader_package", "_grader_used")

    def __init__(self, package: str, used: str):
        object.__setattr__(self, "_grader_package", package)
        object.__setattr__(self, "_grader_used", used)

    def _fail(self, *args, **kwargs):
        _refuse(object.__getattribute__(self, "_grader_package"),
                object.__getattribute__(self, "_grader_used"))

    def __getattr__(self, name):
        self._fail()

    def __repr__(self):
        return f"<{object.__getattribute__(self, '_grader_used')}: not provided>"

    __call__ = __setattr__ = __delattr__ = __getitem__ = __setitem__ = __delitem__ = _fail
    __iter__ = __len__ = __contains__ = __bool__ = __index__ = __int__ = __float__ = _fail
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _fail
    __neg__ = __pos__ = __abs__ = __invert__ = __round__ = __hash__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _fail
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _fail
    __pow__ = __rpow__ = __matmul__ = __rmatmul__ = __and__ = __rand__ = _fail
    __or__ = __ror__ = __xor__ = __rxor__ = __lshift__ = __rlshift__ = _fail
    __rshift__ = __rrshift__ = __enter__ = __exit__ = __instancecheck__ = _fail
    __subclasscheck__ = __mro_entries__ = __format__ = __fspath__ = _fail


class AbsentModule(type(sys)):      # types.ModuleType, without importing types
    """A package (or module of one) the course does not provide: its names can be imported,
    reading one in code (``np.inf``) fails."""

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)   # __all__, __file__ ...: as a module without them
        package = self.__name__.partition(".")[0]
        used = f"{self.__name__}.{name}"
        if _imported_from(sys._getframe(1)):
            return AbsentName(package, used)
        _refuse(package, used)


def _imported_from(frame) -> bool:
    """Whether the attribute is read by the import system or by ``from X import Y`` (the name
    is being imported), not by code that uses it."""
    if frame.f_code.co_filename.startswith("<frozen importlib"):
        return True
    try:
        return frame.f_code.co_code[frame.f_lasti] == standard_module("dis").opmap.get(
            "IMPORT_FROM")
    except (IndexError, AttributeError):
        return True


# Plain classes, not importlib.abc's: the import system asks only for these methods, and
# importlib.abc would import importlib.resources (pathlib, tempfile, ...) into every child.
class _AbsentLoader:
    def create_module(self, spec):
        module = AbsentModule(spec.name)
        module.__path__ = []      # a package: "from pkg_resources.extern import x" loads too
        return module

    def exec_module(self, module):
        pass


class AbsentFinder:
    """Last on ``sys.meta_path``: a stand-in for a module nothing else found, imported by a
    student's file outside a ``try`` that catches the failure."""

    def __init__(self, student_dir: str):
        self.student_dir = os.path.abspath(student_dir) + os.sep
        self._handlers: dict = {}     # file -> line ranges of try bodies that catch imports

    def find_spec(self, fullname, path=None, target=None):
        top = fullname.partition(".")[0]
        if top in getattr(sys, "stdlib_module_names", ()) or top in sys.builtin_module_names:
            return None
        if "." in fullname and not isinstance(sys.modules.get(top), AbsentModule):
            return None   # a missing module of a real package: an ordinary error
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename.startswith("<frozen"):
            frame = frame.f_back
        if frame is None or not os.path.abspath(frame.f_code.co_filename).startswith(
                self.student_dir):
            return None
        if self._guarded(frame.f_code.co_filename, frame.f_lineno):
            return None
        return importlib.machinery.ModuleSpec(fullname, _AbsentLoader(), is_package=True)

    def _guarded(self, filename: str, line: int) -> bool:
        """Whether ``line`` of ``filename`` lies in the body of a ``try`` one of whose handlers
        catches an ImportError (or the file cannot be read: then the import fails as usual)."""
        if filename not in self._handlers:
            ast = standard_module("ast")
            try:
                with open(filename, "rb") as handle:
                    tree = ast.parse(handle.read(), filename)
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                self._handlers[filename] = None
            else:
                self._handlers[filename] = [
                    (node.body[0].lineno, node.body[-1].end_lineno)
                    for node in ast.walk(tree) if isinstance(node, ast.Try)
                    and any(_catches_import(handler.type) for handler in node.handlers)]
        ranges = self._handlers[filename]
        return ranges is None or any(low <= line <= high for low, high in ranges)


def _catches_import(kind) -> bool:
    if kind is None:
        return True       # a bare except
    ast = standard_module("ast")
    if isinstance(kind, ast.Tuple):
        return any(_catches_import(element) for element in kind.elts)
    name = kind.id if isinstance(kind, ast.Name) else (
        kind.attr if isinstance(kind, ast.Attribute) else None)
    return name in _CATCHING
