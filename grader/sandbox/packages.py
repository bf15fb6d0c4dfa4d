"""Third-party packages a course lets its students import (the course option ``packages:``).

A course names distributions installed in the grader's own environment (``packages:
[numpy]``); ``provision`` finds what makes each one up in site-packages: its top-level
modules and every top-level file or folder it installed (``numpy``, and ``numpy.libs`` with
the shared libraries its extension modules load through ``$ORIGIN``), together with the
distributions it requires (installed ones, without extras).  The sandbox exposes exactly
those, read-only, to the child (``bubblewrap.py``, ``container.py``, ``process.py``); the
rest of site-packages stays out of its sight.

Parent side only: looks at installed metadata, never imports a package.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from dataclasses import dataclass

# The grader itself: providing it would hand students the reference solutions.
GRADER_DISTRIBUTION = "gametree-grader"
_EXTENSION_SUFFIX = re.compile(r"\.(cpython|abi3|cp\d+)[^.]*\.(so|pyd)$|\.(so|pyd)$")


@dataclass(frozen=True)
class Provision:
    """What a course provides: ``names`` as declared, ``modules`` the top-level import names
    (of the requirements too), ``entries`` the absolute paths of the top-level files and
    folders in site-packages that hold them."""

    names: tuple = ()
    modules: tuple = ()
    entries: tuple = ()

    def __bool__(self) -> bool:
        return bool(self.names)


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _top_level(distribution) -> tuple[list[str], list[str]]:
    """(modules, entries) of an installed distribution, from its RECORD."""
    modules, entries = [], []
    for file in distribution.files or ():
        parts = file.parts
        if not parts or parts[0] in ("..", "__pycache__") or parts[0].endswith(
                (".dist-info", ".egg-info", ".pth", ".data")):
            continue
        entry = os.path.realpath(str(distribution.locate_file(parts[0])))
        if entry in entries or not os.path.exists(entry):
            continue
        entries.append(entry)
        name = parts[0]
        if len(parts) == 1:
            if name.endswith(".py"):
                name = name[:-3]
            else:
                name = _EXTENSION_SUFFIX.sub("", name)
        if name.isidentifier() and name not in modules:
            modules.append(name)
    return modules, entries


def problem_with(name: str) -> str | None:
    """Why ``name`` cannot be provided to students, or None."""
    if _normalised(name) == GRADER_DISTRIBUTION:
        return (f"{name} is the grader itself; providing it would hand students the "
                "reference solutions")
    if name in getattr(sys, "stdlib_module_names", ()):
        return (f"{name} is part of Python's standard library, which students may always "
                "import; remove it from packages")
    import importlib.metadata   # not at the top: most courses provide no packages
    import importlib.util
    try:
        distribution = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return (f"package {name!r} is not installed in the grader's environment; install it "
                f"there (pip install {name}) or remove it from packages")
    modules, _ = _top_level(distribution)
    if not any(importlib.util.find_spec(module) for module in modules):
        return (f"package {name!r} is installed but provides no module that can be imported "
                "(an editable install?); install it normally with pip")
    return None


def _requirements(distribution) -> list[str]:
    """The names of the distributions ``distribution`` requires, extras left out."""
    try:
        from packaging.requirements import Requirement
    except ImportError:  # without packaging, markers cannot be evaluated: keep all but extras
        Requirement = None
    found = []
    for text in distribution.requires or ():
        if Requirement is None:
            if "extra" not in text:
                found.append(re.split(r"[\s;<>=!~\[(]", text, maxsplit=1)[0])
            continue
        requirement = Requirement(text)
        if requirement.marker is not None and (
                "extra" in str(requirement.marker)
                or not requirement.marker.evaluate({"extra": ""})):
            continue
        found.append(requirement.name)
    return found


@functools.lru_cache(maxsize=None)
def provision(names: tuple) -> Provision:
    """The modules and files of the distributions ``names`` and of the ones they require.
    Assumes each name passed ``problem_with`` (the task files are checked at load)."""
    modules, entries, seen = [], [], set()
    pending = list(names)
    while pending:
        name = pending.pop(0)
        if _normalised(name) in seen or _normalised(name) == GRADER_DISTRIBUTION:
            continue
        seen.add(_normalised(name))
        import importlib.metadata   # not at the top: most courses provide no packages
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # an optional requirement that is not installed
        own_modules, own_entries = _top_level(distribution)
        modules += [m for m in own_modules if m not in modules]
        entries += [e for e in own_entries if e not in entries]
        pending += _requirements(distribution)
    return Provision(tuple(names), tuple(modules), tuple(entries))
