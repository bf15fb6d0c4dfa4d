"""Fitting the task's call ``name(game, state, *args)`` to the parameters a student wrote
(child side, default convention).

Textbooks write alpha-beta as ``alphabeta(game, state, alpha, beta, depth)`` and minimax as
``minimax(game, state, depth)``; passed the task's ``(game, state, depth)`` such a function
takes the depth for α (or misses its depth), and the student would read that the search
"ignores the depth limit".  ``fit`` reads the parameters' names (``inspect.signature``): when
they say which is α, β and the depth, the call is made with α = -inf, β = +inf and the task's
depth (None: search to the end); when they do not, the call is made as the task says, and the
report tells the student plainly that the signature differs.

The game and the state are told apart the same way: ``order`` reads the first two
parameters' names, so that ``minimax(state, game)`` (the order of AIMA's ``games.py``) is called
as it is written in the ``game`` convention, and ``alpha_beta_player(game, state)`` in the
``aima`` convention; where the names do not say (``minimax(a, b)``), the call is made in the
convention's order and the report says so.

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
# The names of a game and of a state (a Pacman project's "gameState" is a state).
_GAME = re.compile(r"^(game|g|spiel|problem|env|environment|rules|gm)$", re.IGNORECASE)
_STATE = re.compile(r"^(state|s|st|node|n|position|pos|board|root|current|current_?state|"
                    r"game_?state|zustand|knoten|stellung|brett)$", re.IGNORECASE)


# inspect.signature of each function called in the current request, by id (the function
# kept alive beside it, so that no id is reused): a request's items all call the same
# function, whose signature was worked out afresh for every tree (a fifth of the child's
# time on the bundled course's random trees).  The runner forgets them before each request.
_SIGNATURES = {}


def forget_signatures():
    """Start a request afresh: a function's signature is read again at its first call."""
    _SIGNATURES.clear()


def _signature(function):
    """``inspect.signature(function)``, once per function and request; raises as it does."""
    known = _SIGNATURES.get(id(function))
    if known is None or known[0] is not function:
        try:
            known = (function, inspect.signature(function), None)
        except (TypeError, ValueError) as error:
            known = (function, None, error)
        _SIGNATURES[id(function)] = known
    if known[2] is not None:
        raise known[2].with_traceback(None)
    return known[1]


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
        signature = _signature(function)
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


def order(function, default: str = "game") -> tuple[str, bool]:
    """``(first, told)``: which of the game and the state ``function`` takes first (``"game"``
    or ``"state"``), by its first two parameters' names, and whether the names told; where
    they do not (no names, both or neither recognised), the convention's ``default``."""
    try:
        parameters = [p for p in _signature(function).parameters.values()
                      if p.kind in _POSITIONAL][:2]
    except (TypeError, ValueError):
        return default, False
    if len(parameters) < 2:
        return default, False
    roles = [("game" if _GAME.match(p.name) else None) or ("state" if _STATE.match(p.name)
                                                          else None) for p in parameters]
    if roles[0] == roles[1]:              # neither, or both alike: the names do not say
        return default, False
    if roles[0] is not None:
        return roles[0], True
    return ("state" if roles[1] == "game" else "game"), True


def arranged(function, default: str, game, state) -> tuple:
    """The game and the state in the order ``function``'s names give (``order``)."""
    first, _ = order(function, default)
    return (game, state) if first == "game" else (state, game)


def describe(function, name, args, default: str = "game", report=None):
    """``report`` (``fit``'s, or None) with how the order of the game and the state differs
    from the convention's: ``swapped`` where the names put the state first (or, in a
    convention that puts it first, the game), ``unclear`` where they do not say; None when
    nothing differs."""
    first, told = order(function, default)
    if first == default and told:
        return report
    head = "game, state" if default == "game" else "state, game"
    try:
        names = [p.name for p in _signature(function).parameters.values()
                 if p.kind in _POSITIONAL]
    except (TypeError, ValueError):
        return report
    bounds = bool(report and report.get("adapted"))
    report = dict(report or {"student": f"{name}({', '.join(names)})",
                             "expected": f"{name}({head}{', depth' if args else ''})",
                             "adapted": True})
    report["expected"] = report["expected"].replace("game, state", head, 1)
    if first != default:
        report["swapped"] = True
        report["bounds"] = bounds
    if not told:
        report["unclear"] = True
    return report
