"""A course's own game: one Python module beside the course's task files, named by the task
(``game: ./games/race.py``), whose ``Rules`` class is a game like the bundled ones.

The module travels *inside* the game spec, as its source text: ``{"kind": "plugin", "name":
"race", "source": "...", "options": {...}}``.  So the parent's reference, the sandboxed child,
the answer cache (the source is part of every call's key), a self-check kit and a Dask
worker all run the very same game, and nothing has to be staged or mounted: the child
compiles the text it was sent (once per source) and nothing on its disk changes.

The module's contract (the README's "A course's own game" has a complete example):

* ``class Rules``, built as ``Rules(options)`` from the task's ``options:`` mapping (raise
  ``ValueError`` with a sentence for options that make no game), with the methods of the
  bundled games' rules: ``initial_state()``, ``to_move(state)``, ``actions(state)`` (in the
  order a search must try them), ``result(state, action)``, ``is_terminal(state)``,
  ``utility(state, player)`` (at terminal states, from ``player``'s view), and the
  attribute ``players`` (the first moves first); optionally ``evaluate(state, player)``
  (a heuristic, needed for depth-limited tasks) and ``show(state)`` (a one-line printable
  form for the feedback);
* states are values the recorder can tag: strings, numbers or tuples of them, compared by
  value; actions are JSON values (numbers or strings);
* standard library only (it runs next to student code, with its limits).

Node names are action paths (``2-1-1``) as for tic-tac-toe; a module may override
``node_name(parent_name, action, child_state)``.

Runs next to student code: standard library only, relative imports only, never imports
``reference``.
"""

from .paths import PathNames

REQUIRED = ("initial_state", "to_move", "actions", "result", "is_terminal", "utility")
_COMPILED = {}


def load_source(name, source):
    """The namespace of a game module's source, compiled and run once per source text (filed
    under the text itself: hashlib would load OpenSSL into every child, 2 ms of its start)."""
    if source not in _COMPILED:
        namespace = {"__name__": f"course_game_{name}", "__builtins__": __builtins__}
        exec(compile(source, f"{name}.py", "exec"), namespace)
        _COMPILED[source] = namespace
    return _COMPILED[source]


def interface_problems(namespace):
    """What the module lacks of the contract above (empty: nothing)."""
    rules = namespace.get("Rules")
    if not isinstance(rules, type):
        return ["it defines no class Rules (the game's rules; see the README, \"A course's "
                "own game\")"]
    missing = [name for name in REQUIRED if not callable(getattr(rules, name, None))]
    problems = [f"Rules has no method {name}(...)" for name in missing]
    return problems


class PluginRules(PathNames):
    """The rules of a spec of kind ``plugin``: the module's ``Rules`` with the defaults
    the bundled games share (path node names, no identity for foreign states), and an
    ``evaluate`` that says so where the module has none (a task refuses a horizon then)."""

    def __init__(self, spec):
        namespace = load_source(spec["name"], spec["source"])
        self.rules = namespace["Rules"](dict(spec.get("options") or {}))
        self.players = tuple(self.rules.players)

    def __getattr__(self, name):
        return getattr(self.rules, name)

    def node_name(self, parent_name, action, child_state):
        own = getattr(self.rules, "node_name", None)
        if own is not None:
            return own(parent_name, action, child_state)
        return super().node_name(parent_name, action, child_state)

    def evaluate(self, state, player):
        own = getattr(self.rules, "evaluate", None)
        if own is None:
            raise ValueError("this game has no heuristic (its module defines no evaluate)")
        return own(state, player)
