"""Fitting the task's call ``name(game, state, *args)`` to the parameters a student wrote
(child side, default convention).

Textbooks write alpha-beta as ``alphabeta(game, state, alpha, beta, depth)`` and minimax as
``minimax(game, state, depth)``; passed the task's ``(game, state, depth)`` such a function
takes the depth for α (or misses its depth), and the student would read that the search
"ignores the depth limit".  ``fit`` reads the parameters' names (``inspect.signature``): when
they say which is α, β and the depth, the call is made with α = -inf, β = +inf and the task's
depth (None: search to the end); when they do not, the call is made as the task says, and the
report tells the student plainly that the signature differs.

Standard library only; never imports ``reference``.
"""

import inspect
import re
from math import inf

_ALPHA = re.compile(r"^(alpha|α|a_?min|lower|lo)$", re.IGNORECASE)
_BETA = re.compile(r"^(beta|β|b_?max|upper|hi)$", re.IGNORECASE)
_DEPTH = re.compile(r"^(depth|d|max_?depth|depth_?limit|limit|tiefe|t|ply|plies|remaining)$",
                    re.IGNORECASE)
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _role(name):
    for role, pattern in (("alpha", _ALPHA), ("beta", _BETA), ("depth", _DEPTH)):
        if pattern.match(name):
            return role
    return None


def fit(function, name, args):
    """``(arguments after (game, state), report)``: the arguments to call ``function`` with,
    and None when it takes the task's arguments as they are, or else a report
    ``{"student", "expected", "adapted"}`` of how its signature differs."""
    args = tuple(args)
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # builtins, odd callables: call as the task says
        return args, None
    parameters = list(signature.parameters.values())
    positional = [p for p in parameters if p.kind in _POSITIONAL]
    rest = positional[2:]
    roles = [_role(p.name) for p in rest]
    binds = True
    try:
        signature.bind(None, None, *args)
    except TypeError:
        binds = False
    # The task's own shape: the arguments bind and none lands on a parameter named α or β.
    if binds and not any(role in ("alpha", "beta") for role in roles[:len(args)]):
        return args, None
    student = f"{name}({', '.join(p.name for p in positional)})"
    expected = f"{name}(game, state{', depth' if args else ''})"
    depth = args[0] if args else None
    values = {"alpha": -inf, "beta": inf, "depth": depth}
    fitted = []
    for parameter, role in zip(rest, roles):
        if role is None or (role == "depth" and not args and parameter.default
                            is not inspect.Parameter.empty):
            if parameter.default is inspect.Parameter.empty:
                return args, {"student": student, "expected": expected, "adapted": False}
            break  # the rest keep their defaults
        fitted.append(values[role])
    if args and "depth" not in roles[:len(fitted)]:  # nowhere to put the task's depth
        return args, {"student": student, "expected": expected, "adapted": False}
    return tuple(fitted), {"student": student, "expected": expected, "adapted": True}
