"""Fitting the task's call ``name(game, state, *args)`` to the parameters a student wrote
(child side, default convention).

Textbooks write alpha-beta as ``alphabeta(game, state, alpha, beta, depth)`` and minimax as
``minimax(game, state, depth)``; passed the task's ``(game, state, depth)`` such a function
takes the depth for α (or misses its depth), and the student would read that the search
"ignores the depth limit".  ``fit`` reads the parameters' names (``read_signature``, as ``inspect`` reads them): when
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

from keyword import iskeyword
from math import inf

from .standard import standard_module

# The kinds of parameter, numbered as ``inspect.Parameter``'s kinds are.
POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, VAR_POSITIONAL, KEYWORD_ONLY, VAR_KEYWORD = range(5)
_POSITIONAL = (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD)


class NamePattern:
    """A case-insensitive whole-name pattern: ``re.compile(f"^({pattern})$", re.IGNORECASE)``,
    told by its ``names`` (every spelling, lower case) for an ASCII name, where the two agree
    (tests/test_signatures.py checks it), and by the expression itself for any other.  The
    runner starts for every submission, and ``re`` (with ``enum`` and ``functools``) was a
    good part of its start; student code almost always has ASCII names."""

    __slots__ = ("pattern", "names", "_compiled")

    def __init__(self, pattern, names):
        self.pattern = pattern
        self.names = frozenset(names)
        self._compiled = None

    def match(self, name):
        """Whether ``name`` is one of the pattern's names, case aside."""
        if name.isascii() and not name.endswith("\n"):   # "$" matches before a last newline
            return name.lower() in self.names
        if self._compiled is None:
            re = standard_module("re")
            self._compiled = re.compile(f"^({self.pattern})$", re.IGNORECASE)
        return self._compiled.match(name) is not None


_ALPHA = NamePattern("alpha|α|a_?min|lower|lo", ("alpha", "amin", "a_min", "lower", "lo"))
_BETA = NamePattern("beta|β|b_?max|upper|hi", ("beta", "bmax", "b_max", "upper", "hi"))
_DEPTH = NamePattern("depth|d|max_?depth|depth_?limit|limit|tiefe|t|ply|plies|remaining",
                     ("depth", "d", "maxdepth", "max_depth", "depthlimit", "depth_limit",
                      "limit", "tiefe", "t", "ply", "plies", "remaining"))
# The names of a game and of a state (a Pacman project's "gameState" is a state).
_GAME = NamePattern("game|g|spiel|problem|env|environment|rules|gm",
                    ("game", "g", "spiel", "problem", "env", "environment", "rules", "gm"))
_STATE = NamePattern("state|s|st|node|n|position|pos|board|root|current|current_?state|"
                     "game_?state|zustand|knoten|stellung|brett",
                     ("state", "s", "st", "node", "n", "position", "pos", "board", "root",
                      "current", "currentstate", "current_state", "gamestate", "game_state",
                      "zustand", "knoten", "stellung", "brett"))


class Parameter:
    """One parameter as fitting reads it: its name, its kind (``POSITIONAL_ONLY`` ...) and
    whether it has a default."""

    __slots__ = ("name", "kind", "has_default")

    def __init__(self, name, kind, has_default):
        self.name, self.kind, self.has_default = name, kind, has_default


class Signature:
    """The parameters of a function, in order (what ``inspect.signature`` says of them)."""

    __slots__ = ("parameters",)

    def __init__(self, parameters):
        self.parameters = tuple(parameters)

    def binds(self, count):
        """Whether ``count`` positional arguments bind (``inspect.Signature.bind``): each
        goes to a positional parameter or to ``*args``, and every parameter left over has a
        default (or is ``*args`` or ``**kwargs``)."""
        left = count
        for parameter in self.parameters:
            if parameter.kind in _POSITIONAL and left:
                left -= 1
            elif parameter.kind == VAR_POSITIONAL:
                left = 0
            elif parameter.kind in (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, KEYWORD_ONLY) \
                    and not parameter.has_default:
                return False
        return left == 0


_FUNCTION = type(lambda: None)
_VARARGS, _VARKEYWORDS = 0x04, 0x08          # code flags CO_VARARGS, CO_VARKEYWORDS


def read_signature(function):
    """The signature of ``function``: read from its code object where it is a plain Python
    function that carries no attributes (``inspect.signature`` reads the same there, and
    importing ``inspect`` was a fifth of the runner's start), else ``inspect.signature``'s,
    which follows ``__wrapped__`` and ``__signature__``, partials, methods and classes.
    Raises ``TypeError`` or ``ValueError`` where that does."""
    plain = _from_code(function)
    if plain is not None:
        return plain
    signature = standard_module("inspect").signature(function)
    return Signature(Parameter(p.name, int(p.kind), p.default is not p.empty)
                     for p in signature.parameters.values())


def _from_code(function):
    """``inspect``'s reading of a plain function's parameters (``_signature_from_function``),
    or None where that is not what ``inspect.signature`` would read."""
    if type(function) is not _FUNCTION:
        return None
    attributes = function.__dict__
    if type(attributes) is not dict or attributes:   # __wrapped__, __signature__ and the like
        return None
    code = function.__code__
    defaults, kwdefaults = function.__defaults__, function.__kwdefaults__
    count, keyword_only = code.co_argcount, code.co_kwonlyargcount
    names = code.co_varnames
    positional = names[:count]
    # inspect pairs the defaults with the last parameters: ``positional[non_default:]``
    without_default = len(positional[:count - (len(defaults) if defaults else 0)])
    posonly_left = code.co_posonlyargcount
    parameters = []
    for index, name in enumerate(positional):
        kind = POSITIONAL_ONLY if posonly_left else POSITIONAL_OR_KEYWORD
        if posonly_left:
            posonly_left -= 1
        parameters.append(Parameter(name, kind, index >= without_default))
    if code.co_flags & _VARARGS:
        parameters.append(Parameter(names[count + keyword_only], VAR_POSITIONAL, False))
    for name in names[count:count + keyword_only]:
        parameters.append(Parameter(name, KEYWORD_ONLY,
                                    kwdefaults is not None and name in kwdefaults))
    if code.co_flags & _VARKEYWORDS:
        index = count + keyword_only + (1 if code.co_flags & _VARARGS else 0)
        parameters.append(Parameter(names[index], VAR_KEYWORD, False))
    if not all(type(p.name) is str and p.name.isidentifier() and not iskeyword(p.name)
               for p in parameters):
        return None      # a code object made by hand: inspect says what is wrong with it
    return Signature(parameters)


# The signature of each function called in the current request, by id (the function kept
# alive beside it, so that no id is reused): a request's items all call the same function,
# whose signature was worked out afresh for every tree (a fifth of the child's time on the
# bundled course's random trees).  The runner forgets them before each request.
_SIGNATURES = {}


def forget_signatures():
    """Start a request afresh: a function's signature is read again at its first call."""
    _SIGNATURES.clear()


def _signature(function):
    """``read_signature(function)``, once per function and request; raises as it does."""
    known = _SIGNATURES.get(id(function))
    if known is None or known[0] is not function:
        try:
            known = (function, read_signature(function), None)
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
    parameters = list(signature.parameters)
    positional = [p for p in parameters if p.kind in _POSITIONAL]
    rest = positional[2:]
    roles = [_role(p.name) for p in rest]
    binds = signature.binds(2 + len(args))
    # The task's own shape: the arguments bind and none lands on a parameter named α or β.
    if binds and not any(role in ("alpha", "beta") for role in roles[:len(args)]):
        return args, None
    student = f"{name}({', '.join(p.name for p in positional)})"
    expected = f"{name}(game, state{', depth' if args else ''})"
    depth = args[0] if args else None
    values = {"alpha": -inf, "beta": inf, "depth": depth}
    fitted = []
    for parameter, role in zip(rest, roles):
        if role is None or (role == "depth" and not args and parameter.has_default):
            if not parameter.has_default:
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
        parameters = [p for p in _signature(function).parameters
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
        names = [p.name for p in _signature(function).parameters
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
