"""Stubs for the parts of the Pacman project's modules that a search over the grader's tree
states never needs (the game engine, the board, command lines).

The stand-ins in ``standins/`` define every public name of the originals, so that a student
file that imports them (used or not) loads; what exists only as a stub here raises
``StandInUnavailable`` when it is actually used: created, called, or a method of it called.
The runner (``sandbox/child.py``) recognises that exception and reports the stand-in's name,
so that the feedback can say what happened in the course's language.

Runs in the child, next to student code: standard library only.
"""


class StandInUnavailable(NotImplementedError):
    """A stub of the Pacman project was used during grading.  ``standin`` is its dotted name
    (``game.Grid``); ``member`` what exactly was used (``Grid`` or ``Grid.asList``)."""

    def __init__(self, standin: str, member: str):
        super().__init__(f"{standin} is a stand-in in this grader: {member} is not available "
                         "during grading")
        self.standin = standin
        self.member = member


def stub_function(module: str, name: str, doc: str = ""):
    """A function ``module.name`` that raises ``StandInUnavailable`` when called."""
    def unavailable(*args, **kwargs):
        raise StandInUnavailable(f"{module}.{name}", name)
    unavailable.__name__ = unavailable.__qualname__ = name
    unavailable.__module__ = module
    unavailable.__doc__ = doc or f"Not available during grading (a stand-in for {module}.{name})."
    return unavailable


def stub_class(module: str, name: str, methods=(), attributes=None, base=object, doc: str = ""):
    """A class ``module.name`` that can be named, subclassed and used in type hints, with the
    original's class ``attributes``; creating one, or calling one of its ``methods``, raises
    ``StandInUnavailable``."""
    standin = f"{module}.{name}"

    def refuse_creation(cls, *args, **kwargs):
        raise StandInUnavailable(standin, name)

    namespace = {"__module__": module, "__new__": refuse_creation,
                 "__doc__": doc or f"Not available during grading (a stand-in for {standin})."}
    for method in methods:
        namespace[method] = _stub_method(standin, f"{name}.{method}")
    namespace.update(attributes or {})
    return type(name, (base,), namespace)


def _stub_method(standin: str, member: str):
    def unavailable(*args, **kwargs):
        raise StandInUnavailable(standin, member)
    unavailable.__name__ = member.rsplit(".", 1)[-1]
    unavailable.__qualname__ = member
    return staticmethod(unavailable)
