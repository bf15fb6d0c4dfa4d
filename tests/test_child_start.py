"""The child-side runner starts on few imports (every submission's child starts afresh), and
what it does instead of the heavier standard modules answers as they do: its JSON as the
json package's, a parameter list as inspect's, a name pattern as its regular expression, and
the standard modules it imports late are the standard library's even when a student's module
has the same name."""

import ast
import inspect
import json
import math
import re
import subprocess
import sys
from functools import partial, wraps

import pytest

from grader.conventions import aima, signature
from grader.conventions.signature import NamePattern, read_signature
from grader.sandbox import child

from conftest import DATA

SHADOWING = DATA / "shadowing"
# Standard modules the runner needs only now and then; each costs a child's start time.
LATE = ("json", "re", "inspect", "traceback", "ast", "dis", "enum", "tokenize", "typing",
        "dataclasses")
# Conventions and games the runner imports when a request first names them, and what only
# they import.
UNTIL_ASKED = ("grader.conventions.game", "grader.conventions.aima",
               "grader.conventions.multi_agent", "grader.games.connect4", "grader.games.kalah",
               "grader.games.tree", "functools", "collections", "operator")


def test_the_runner_starts_without_the_standard_modules_it_needs_only_sometimes(child_script):
    stage = child_script.parent.parent.parent
    program = ("import sys; sys.path[:0] = [sys.argv[1]]; import grader.sandbox.child as c; "
               "from grader.conventions.standard import remember_start; remember_start(); "
               "c.Runner(sys.argv[2]); from grader.conventions.absent import AbsentFinder; "
               "print(' '.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-s", "-S", "-B", "-c", program, str(stage),
                             str(SHADOWING / "dekoriert")], capture_output=True, text=True,
                            check=True, cwd="/").stdout.split()
    assert "grader.conventions.signature" in loaded
    assert [name for name in LATE + UNTIL_ASKED if name in loaded] == []



def test_a_game_imported_after_the_students_modules_gets_the_standard_ones(child_script):
    """Connect Four's rules are imported when its first game is made, after the student's
    module imported the student's own functools.py and operator.py: the rules get the
    standard modules, and the student keeps theirs."""
    stage = child_script.parent.parent.parent
    program = (
        "import sys; sys.path[:0] = [sys.argv[1]]; import grader.sandbox.child as c; "
        "from grader.conventions.standard import remember_start; remember_start(); "
        "r = c.Runner(sys.argv[2]); sys.path.insert(1, r.student_dir); "
        "reply = r.handle({'op': 'call', 'module': 'minimax', 'function': 'minimax', "
        "'convention': 'game', 'args': [], 'items': "
        "[{'kind': 'connect4', 'columns': 4, 'rows': 3, 'connect': 3}]}); "
        "import grader.games.connect4 as four; "
        "print(repr([reply['items'][0]['status'], "
        "sys.modules['functools'].__file__.startswith(r.student_dir), "
        "four.lru_cache.__module__, four.itemgetter.__module__]))")
    printed = subprocess.run([sys.executable, "-s", "-S", "-B", "-c", program, str(stage),
                              str(SHADOWING / "vier-gewinnt")], capture_output=True, text=True,
                             check=True, cwd="/").stdout
    assert ast.literal_eval(printed) == ["ok", True, "functools", "operator"]

VALUES = [
    {"op": "call", "module": "minimax", "items": ['{"kind": "tree"}'] * 3, "args": [None, 2]},
    {"status": "ok", "items": [{"status": "ok", "returned": [0.1, -3, 1e300, -0.0, 2**53],
                                "log": {"visits": ["A", "ü", "€", "\U0001f600", "\x00\n\""]}}]},
    [], {}, "", "ascii", [[[[]]]], {"1": {"2": [True, False, None]}},
    {"__float__": "nan"}, 12345678901234567890, -1.5e-300, "\ud800",
]


@pytest.mark.parametrize("value", VALUES)
def test_the_runners_json_is_the_json_packages(value):
    text = json.dumps(value, allow_nan=False)
    assert child._dumps(value) == text
    assert child._loads(text + "\n") == json.loads(text + "\n")
    assert child._loads(json.dumps(value, indent=1)) == value


@pytest.mark.parametrize("line", ["NaN", "[Infinity, -Infinity]", '{"a": NaN}'])
def test_the_runner_reads_the_constants_json_reads(line):
    assert repr(child._loads(line)) == repr(json.loads(line))


@pytest.mark.parametrize("value", [math.nan, [math.inf], {"a": -math.inf}])
def test_the_runner_refuses_to_write_what_json_refuses(value):
    with pytest.raises(ValueError):
        json.dumps(value, allow_nan=False)
    with pytest.raises(ValueError):
        child._dumps(value)


@pytest.mark.parametrize("line", ["", "   ", "[1,", '{"a": 1} {"b": 2}', "[1] x", "nul"])
def test_the_runner_refuses_to_read_what_json_refuses(line):
    with pytest.raises(ValueError):
        json.loads(line)
    with pytest.raises(ValueError):
        child._loads(line)


def test_the_runner_refuses_to_write_objects_and_circles():
    with pytest.raises(TypeError, match="Object of type object is not JSON serializable"):
        child._dumps({"a": object()})
    circle = []
    circle.append(circle)
    with pytest.raises(ValueError):
        child._dumps(circle)


def f_plain(game, state, depth=None):
    pass


def f_everything(a, b, /, c, d=1, *rest, e, f=2, **more):
    pass


def f_keywords(game, state, *, depth, alpha=0):
    pass


def f_star(*args):
    pass


def f_none():
    pass


def f_too_many_defaults(game, state):
    pass


f_too_many_defaults.__defaults__ = (1, 2, 3)


def f_posonly_defaults(a, b=1, /, c=2):
    pass


def _decorated(function):
    @wraps(function)
    def wrapper(*args, **kwargs):
        return function(*args, **kwargs)
    return wrapper


class Searcher:
    def __call__(self, game, state, alpha, beta):
        pass

    def method(self, game, state, depth=3):
        pass


FUNCTIONS = [f_plain, f_everything, f_keywords, f_star, f_none, f_too_many_defaults,
             f_posonly_defaults, _decorated(f_everything), Searcher(), Searcher().method,
             partial(f_everything, 1, 2), lambda game, state, *a: None, max]


@pytest.mark.parametrize("function", FUNCTIONS)
def test_a_signature_is_read_as_inspect_reads_it(function):
    try:
        expected = inspect.signature(function)
    except (TypeError, ValueError) as error:
        with pytest.raises(type(error)):
            read_signature(function)
        return
    read = read_signature(function)
    assert [(p.name, p.kind, p.has_default) for p in read.parameters] == [
        (p.name, int(p.kind), p.default is not p.empty) for p in expected.parameters.values()]
    for count in range(7):
        try:
            expected.bind(*[None] * count)
            binds = True
        except TypeError:
            binds = False
        assert read.binds(count) == binds, count


def test_a_plain_function_is_read_without_inspect(monkeypatch):
    """The code object says it all for a plain function; anything else (here a function
    carrying an attribute) is inspect's to read."""
    from grader.conventions import standard
    asked = []
    monkeypatch.setattr(signature, "standard_module",
                        lambda name: asked.append(name) or standard.standard_module(name))
    read_signature(f_everything)
    assert asked == []
    read_signature(_decorated(f_plain))
    assert asked == ["inspect"]


PATTERNS = {name: value for module in (signature, aima)
            for name, value in vars(module).items() if isinstance(value, NamePattern)}


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_a_name_pattern_answers_as_its_regular_expression(name):
    pattern = PATTERNS[name]
    expression = re.compile(f"^({pattern.pattern})$", re.IGNORECASE)
    names = set()
    for spelled in pattern.names:
        for variant in (spelled, spelled.upper(), spelled.title(), spelled.replace("_", ""),
                        spelled + "_", "_" + spelled, spelled[:-1], spelled + "s",
                        spelled.replace("_", "__"), spelled + "\n", spelled[1:],
                        spelled.replace("i", "\u0131"), spelled.replace("s", "\u017f"),
                        spelled.replace("k", "\u212a"), "x" + spelled):
            names.add(variant)
    names |= {"alpha", "α", "Α", "β", "ϐ", "a_min", "AMIN", "depth_limit", "depthlimit",
              "evaluation_fn", "cut_off_test", "current_state", "game_state", "x", "", "_"}
    disagree = [candidate for candidate in sorted(names)
                if pattern.match(candidate) != bool(expression.match(candidate))]
    assert disagree == []
    assert all(pattern.match(spelled) for spelled in pattern.names)


def test_a_decorated_search_beside_a_students_module_with_a_standard_name_is_fitted(grade):
    """The student's own token.py is imported before the runner reads the decorated search's
    signature with inspect, which imports the standard token module: the runner gets that
    one, the student keeps theirs, and the textbook signature behind the decorator is
    fitted (α, β and the depth) as it is without the decorator."""
    result = grade(SHADOWING / "dekoriert")
    assert [(v.check.id, v.reason) for v in result.verdicts if not v.passed] == []


def test_an_exception_beside_a_students_module_with_a_standard_name_is_described(grade):
    """The runner imports traceback only to describe an exception, after the student's own
    token.py was imported; the description still names the student's line."""
    result = grade(SHADOWING / "fehler")
    errors = {(v.reason, v.facts.get("type"), v.facts.get("file"), v.facts.get("line"))
              for v in result.verdicts if v.check.function in ("minimax", "alphabeta")
              and v.reason == "item.error"}
    assert errors == {("item.error", "ZeroDivisionError", "minimax.py", 8),
                      ("item.error", "ZeroDivisionError", "minimax.py", 12)}


def test_calls_on_the_same_trees_share_them_and_other_inputs_are_decoded_afresh():
    """The random-tree checks search the same trees with three functions: decoded once. A
    plain function's inputs are handed to the student's code, which may change them: decoded
    for every call."""
    from grader.calls import Call, canonical
    runner = child.Runner(str(SHADOWING / "dekoriert"))
    tree = canonical({"kind": "tree", "root": "A", "nodes": {"A": {"value": 1}}})
    board = canonical([["X", ".", "O"], "X"])
    searches = [json.loads(Call("minimax", function, "game", (tree,)).request_text())
                for function in ("minimax", "alphabeta")]
    first, second = (runner.items_of(request) for request in searches)
    assert first == second == [json.loads(tree)] and first[0] is second[0]
    plain = json.loads(Call("evaluation", "evaluate", "plain", (board,)).request_text())
    first, second = runner.items_of(plain), runner.items_of(plain)
    assert first == second == [json.loads(board)] and first[0] is not second[0]
