"""The task-file schema: every key a task file may set, its type, default, allowed values
and one line of documentation, as JSON Schema (draft-07).

It is one schema with three readers.  The loader checks every mapping of a task file against
it before reading it (``grader.tasks.validate``: unknown keys, wrong types and values outside
the allowed ones are refused at ``file:line``); ``grader schema`` publishes it, and the
package ships it as ``task-file.schema.json`` beside this module, so that an editor with a
YAML language server validates and completes task files (the bundled ones name it on their
first line: ``# yaml-language-server: $schema=../grader/tasks/task-file.schema.json``); and
``docs/gen/references.py`` writes the task-file reference from it.

The course header's and a task's keys are declared here.  A check's keys are the four every
check takes (``kind``, ``points``, ``visibility``, ``function``) and the options its kind
declares: each check kind module's ``OPTIONS`` is a mapping of option name to its JSON Schema
(``grader/checks/count.py``: ``bound``, ``slack``), built into one definition per kind,
``check-<kind>``, that a check whose ``kind`` names it must fit.  So a new check kind is one
module and one registration, and its options reach the loader, editors and the manual alike.

Only what a value may be is checked here; what it means (a tree's node names, a board that
cannot occur in play, a check that does not fit the task's game) is the readers' part.
"""

from __future__ import annotations

import copy
import json
import sys
from functools import cache
from pathlib import Path

from .. import checks as check_kinds
from ..games.connect4 import DEFAULT_SIZE, MAX_SIDE
from ..games.kalah import MAX_PITS, MAX_STONES
from ..games.kalah import PLAYERS as KALAH_PLAYERS
from ..games.quiet import DEFAULT_EXTENSION
from ..hand.taskfile import VARIANT_KEYS
from .model import (CONVENTIONS, DEFAULT_MODULES, GAMES, LANGUAGES, LEADERBOARD_VALUES,
                    SEARCH_PINS, TASK_ID, TIE_RULES, VISIBILITIES, Limits)

DRAFT = "http://json-schema.org/draft-07/schema#"
FILE = Path(__file__).with_name("task-file.schema.json")
# The definitions whose mappings their own readers check, one by one (grader.tasks.validate).
SECTIONS = ("course", "task", "check")
COMMON_CHECK_KEYS = ("kind", "points", "visibility", "function")
PYTHON_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"


def _limits() -> dict:
    defaults = Limits()
    return {
        "type": "object", "additionalProperties": False,
        "x-hint": "'{key}' must be a mapping with call_seconds and/or submission_seconds",
        "description": "CPU-time limits, in seconds",
        "properties": {
            "call_seconds": {"type": "number", "exclusiveMinimum": 0,
                             "default": defaults.call_seconds,
                             "x-words": "a positive number of seconds",
                             "description": "CPU seconds of one call of a student function"},
            "submission_seconds": {"type": "number", "exclusiveMinimum": 0,
                                   "default": defaults.submission_seconds,
                                   "x-words": "a positive number of seconds",
                                   "description": "CPU seconds of a whole submission's run"},
        }}


def _course() -> dict:
    return {
        "type": "object", "additionalProperties": False,
        "x-hint": "'course' must be a mapping",
        "description": "The course header (optional): what holds for every task of the file.",
        "properties": {
            "title": {"type": ["string", "number"],
                      "description": "the course's title, shown on every page"},
            "language": {"enum": list(LANGUAGES), "default": "en",
                         "x-hint": "language {value!r} is not supported; use one of {choices}",
                         "description": "the language of the feedback and the reports "
                                        "(--lang overrides it for one run)"},
            "prune_on_equality": {"type": "boolean", "default": True,
                                  "x-hint": "'{key}' must be true or false",
                                  "description": "true: alpha-beta cuts when beta <= alpha; "
                                                 "false: only when beta < alpha"},
            "limits": {"$ref": "#/definitions/limits"},
            "modules": {"type": "object",
                        "additionalProperties": {
                            "type": "string", "pattern": PYTHON_NAME,
                            "x-hint": "module {value!r} of {key!r} is not a Python module "
                                      "name"},
                        "default": dict(DEFAULT_MODULES),
                        "x-words": "a mapping of function names to module names",
                        "x-hint": "'modules' maps function names to module names, e.g. "
                                  "{{minimax: minimax}}",
                        "description": "student function -> the module (file without .py) it "
                                       "is read from; added to the defaults"},
            "due": {"type": "string",
                    "x-words": "a date such as 2026-12-01 or 2026-12-01T23:59:00+01:00",
                    "description": "the due date (a day: its end; without a time zone: the "
                                   "grading machine's); after_due checks stay hidden until "
                                   "then"},
            "packages": {"type": "array",
                         "items": {"type": "string",
                                   "pattern": r"^[A-Za-z0-9][A-Za-z0-9._-]*$",
                                   "x-hint": "{value!r} is not a package name; 'packages' "
                                             "lists names such as numpy"},
                         "x-hint": "'packages' must be a list of package names, e.g. [numpy]",
                         "x-words": "a list of package names, e.g. [numpy]",
                         "description": "third-party distributions installed beside the "
                                        "grader that student code may import"},
            "gradescope": {
                "type": "object", "additionalProperties": False,
                "x-hint": "'gradescope' must be a mapping, e.g. {{leaderboard: [{{name: "
                          "Knoten, value: visited, check: ID}}]}}",
                "x-words": "a mapping {leaderboard: [columns]}",
                "description": "the Gradescope autograder's settings",
                "properties": {"leaderboard": {
                    "type": "array", "items": {"$ref": "#/definitions/leaderboard-column"},
                    "x-words": "a list of columns, each {name: ..., value: "
                               "score|task|visited|seconds}",
                    "description": "the leaderboard's columns, in order"}}},
            "provides": {"type": "array", "items": {"type": "string"},
                         "x-words": "a list of .py files, e.g. [utils.py]",
                         "x-hint": "'provides' lists the course's own modules, paths relative "
                                   "to this task file, e.g. [utils.py]",
                         "description": "the course's own modules (paths relative to the task "
                                        "file) that every submission may import"},
            "provided_wins": {"type": "boolean", "default": True,
                              "x-hint": "'{key}' must be true or false",
                              "description": "true: a provided module is used over a "
                                             "submission's own file of that name; false: the "
                                             "student's"},
        }}


def _leaderboard_column() -> dict:
    return {
        "type": "object", "additionalProperties": False, "required": ["name", "value"],
        "x-hint": "a leaderboard column is a mapping such as {{name: Punkte, value: task, "
                  "task: ID}}",
        "description": "One column of the Gradescope leaderboard.",
        "properties": {
            "name": {"type": "string", "pattern": r"\S",
                     "x-hint": "a leaderboard column needs a name (the column's heading)",
                     "x-missing": "a leaderboard column needs a name (the column's heading)",
                     "description": "the column's heading"},
            "value": {"enum": list(LEADERBOARD_VALUES),
                      "x-hint": "value {value!r} of a leaderboard column is not one of "
                                "{choices}",
                      "description": "what it shows: score (the total points), task (one "
                                     "task's points), visited (the nodes a count check "
                                     "counted), seconds (the grading time)"},
            "order": {"enum": ["desc", "asc"],
                      "x-hint": "order must be desc (higher ranks higher) or asc (lower ranks "
                                "higher)",
                      "description": "desc: higher ranks higher; asc: lower ranks higher "
                                     "(default: asc for visited and seconds)"},
            "task": {"type": "string", "description": "value task: the task's id"},
            "check": {"type": "string", "description": "value visited: the count check's id"},
        }}


def _task() -> dict:
    """A task's keys, in groups (``x-group``, the reference's headings)."""
    def group(name, properties):
        return {key: {**value, "x-group": name} for key, value in properties.items()}
    names = {"type": "array", "items": {"type": "string"}}
    return {
        "type": "object", "additionalProperties": False, "required": ["id", "checks"],
        "x-hint": "each task is a mapping with at least id, game and checks",
        "description": "One task: a game and a position, the student functions it calls, and "
                       "its checks.",
        "properties": {
            **group("the task", {
                "id": {"type": "string", "pattern": TASK_ID.pattern,
                       "x-words": "an id such as tree-blatt3",
                       "x-hint": "every task needs an 'id' of letters, digits, '-', '_' or "
                                 "'.', e.g. id: tree-blatt3",
                       "x-missing": "every task needs an 'id' of letters, digits, '-', '_' "
                                    "or '.', e.g. id: tree-blatt3",
                       "description": "letters, digits, -, _ or .; unique in the course"},
                "title": {"type": ["string", "number"],
                          "description": "the task's title on the feedback page (default: "
                                         "its id)"},
                "functions": {"anyOf": [{"type": "string"},
                                        {**names, "minItems": 1}],
                              "x-hint": "name the student function(s) this task calls, e.g. "
                                        "functions: [minimax, alphabeta]",
                              "description": "the student functions the task calls, e.g. "
                                             "[minimax, alphabeta]"},
                "function": {"anyOf": [{"type": "string"}, {**names, "minItems": 1}],
                             "x-hint": "name the student function(s) this task calls, e.g. "
                                       "functions: [minimax, alphabeta]",
                             "description": "the same as functions"},
                "module": {"type": "string", "pattern": PYTHON_NAME,
                           "x-words": "a Python module name",
                           "x-hint": "module {value!r} is not a Python module name",
                           "description": "the student's file (without .py) for all of the "
                                          "task's functions"},
                "convention": {"enum": list(CONVENTIONS), "default": "game",
                               "x-hint": "unknown convention {value!r}; use one of {choices}",
                               "description": "how student code is called"},
                "reference": {"type": "object", "additionalProperties": {"type": "string"},
                              "x-words": "a mapping of function names to model solutions",
                              "x-hint": "'reference' maps a function to the model solution "
                                        "it is compared with, e.g. {{evaluate: "
                                        "tictactoe-lines}}",
                              "description": "student function -> the model solution it is "
                                             "compared with, where its name does not say"},
                "checks": {"type": "array", "minItems": 1,
                           "items": {"$ref": "#/definitions/check"},
                           "x-hint": "a task needs a non-empty list of checks, e.g. checks: "
                                     "[{{kind: value, points: 1}}]",
                           "x-missing": "a task needs a non-empty list of checks, e.g. "
                                        "checks: [{kind: value, points: 1}]",
                           "description": "the task's checks"},
                "expect": {"type": "object",
                           "additionalProperties": {"$ref": "#/definitions/pins"},
                           "x-hint": "'expect' maps a function to pinned answers, e.g. "
                                     "{{alphabeta: {{value: 3, visited: 16}}}}",
                           "description": "pins: student function -> figures grader validate "
                                          "verifies against the reference"},
                "visibility": {"enum": list(VISIBILITIES), "default": "visible",
                               "description": "the default visibility of the task's checks "
                                              "(hidden: the feedback says only whether a "
                                              "check passed; after_due: hidden until the due "
                                              "date)"},
                "limits": {"$ref": "#/definitions/limits"},
                "prune_on_equality": {"type": "boolean",
                                      "x-hint": "'{key}' must be true or false",
                                      "description": "the task's own cut rule (default: the "
                                                     "course's; false for multi-agent)"},
                "game": {"anyOf": [{"enum": list(GAMES)},
                                   {"type": "string", "pattern": r"\.py$",
                                    "x-words": "the path of a .py file"}],
                         "default": "none",
                         "x-hint": "unknown game {value!r}; use one of " + ", ".join(GAMES),
                         "description": "the game, or the path of a course's own game module "
                                        "(relative to the task file)"},
                "depth": {"type": "integer", "minimum": 1,
                          "x-hint": "depth must be a whole number of plies >= 1 (leave it out "
                                    "to search to the end of the game)",
                          "description": "a depth limit: the search evaluates the non-terminal "
                                         "nodes this many plies below the root"},
                "heuristic": {"type": "string",
                              "description": "a named reference evaluation tabulated at a "
                                             "depth-limited task's positions "
                                             "(tictactoe-lines)"},
                "evaluation": {"type": "string",
                               "pattern": r"^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$",
                               "x-words": "module.function",
                               "x-hint": "evaluation names the student's own evaluation "
                                         "function as module.function, e.g. evaluation: "
                                         "evaluation.evaluate; not {value!r}",
                               "description": "module.function of the student's own "
                                              "evaluation, which its searches play with in "
                                              "match checks"},
            }),
            **group("trees", {
                "tree": {"type": "object", "minProperties": 1, "maxProperties": 1,
                         "additionalProperties": {"$ref": "#/definitions/tree-node"},
                         "x-hint": "a tree task needs tree: with exactly one root, e.g. tree: "
                                   "{{A: {{B: [8, 7, 3], C: [2, 4]}}}}",
                         "description": "the tree: one root, nested mappings of named "
                                        "children; lists of numbers are leaves named after "
                                        "their parent"},
                "players": {**names, "minItems": 2,
                            "x-words": "a list of at least 2 players",
                            "description": "the players by depth, cycling: [MAX, MIN], [MAX, "
                                           "MIN, MIN], [MAX, CHANCE], or names for n-player "
                                           "trees"},
                "lose_states": {**names, "x-words": "a list of node names",
                                "description": "leaves that are lost states (the multi-agent "
                                               "convention's isLose())"},
                "paranoid": {"type": "string",
                             "description": "n-player trees: the root player, who maximises "
                                            "while all others minimise"},
                "alliances": {"type": "array", "items": names,
                              "x-words": "a list of lists of players",
                              "description": "n-player trees: coalitions of players, e.g. "
                                             "[[A], [B, C]]"},
                "ties": {"enum": list(TIE_RULES), "default": TIE_RULES[0],
                         "x-hint": "ties must be one of {choices} (first: the first of equally "
                                   "good children in action order)",
                         "description": "how max^n breaks ties among equally good children"},
            }),
            **group("positions", {
                "board": {"anyOf": [{"type": "string"},
                                    {"type": "array", "items": {"type": "integer"}}],
                          "description": "tic-tac-toe: \"X.O/.X./..O\", rows of X, O and .; "
                                         "Connect Four: rows from the top; Kalah: the stone "
                                         "counts of MAX's pits, store, MIN's pits, store"},
            }),
            **group("matchsticks", {
                "sticks": {"type": "integer", "minimum": 0, "maximum": 60,
                           "x-hint": "a nim task needs sticks: a whole number from 0 to 60",
                           "description": "sticks on the pile"},
                "take": {"type": "integer", "minimum": 1, "maximum": 60, "default": 2,
                         "x-hint": "a nim task needs take: a whole number from 1 to 60",
                         "description": "a move takes 1 to take sticks"},
                "last_loses": {"type": "boolean", "default": True,
                               "x-hint": "'{key}' must be true or false",
                               "description": "true: whoever takes the last stick loses; "
                                              "false: wins"},
            }),
            # The games judge their positions (grader/games/kalah.py, connect4.py), with
            # messages that say how to write one: the schema gives only the types here.
            **group("Kalah", {
                "pits": {"type": "integer", "default": 6,
                         "description": f"pits per side, from 1 to {MAX_PITS}"},
                "stones": {"type": "integer", "default": 4,
                           "description": f"stones per pit at the start, from 1 to "
                                          f"{MAX_STONES}"},
                "to_move": {"type": "string", "default": KALAH_PLAYERS[0],
                            "description": "the player to move: MAX (the bottom row, pits 0 .. "
                                           "n-1) or MIN (the top row)"},
            }),
            **group("Connect Four", {
                **{key: {"type": "integer", "default": DEFAULT_SIZE[key],
                         "description": {"columns": f"the board's columns, from 1 to {MAX_SIDE}",
                                         "rows": f"the board's rows, from 1 to {MAX_SIDE}",
                                         "connect": "discs in a row that win, from 2 to the "
                                                    "longer side"}[key]}
                   for key in DEFAULT_SIZE},
                "first": {"enum": ["X", "O"], "default": "X",
                          "x-hint": "first must be X or O (who moved first), not {value!r}",
                          "description": "who moved first"},
            }),
            **group("quiescence search", {
                "noisy": {"type": "string",
                          "description": "the game's rule of noisy positions: Kalah captures "
                                         "or captures-and-extra-turns, Connect Four threats"},
                "extension": {"type": "integer", "minimum": 1, "maximum": 10,
                              "default": DEFAULT_EXTENSION,
                              "x-hint": "extension must be a whole number of plies from 1 to 10 "
                                        "(how far beyond the horizon a noisy position is "
                                        "searched on)",
                              "description": "plies beyond the horizon a noisy position is "
                                             "searched on"},
            }),
            **group("a course's own game", {
                "options": {"type": "object",
                            "x-hint": "options: maps the game's option names to values, e.g. "
                                      "options: {{target: 10}}",
                            "description": "the options given to the module's Rules(options)"},
            }),
            **group("hand exercises", {
                "answers": {"type": "string",
                            "description": "the answer file's name in the submission "
                                           "(aufgabe1 for aufgabe1.yaml, .yml or .json)"},
                "variants": {"type": "object",
                             "properties": {key: {} for key in VARIANT_KEYS},
                             "description": "one tree per student: {seed, values: [low, "
                                            "high], cuts, deep_cut, root_ties, visited}"},
            }),
        }}


def _pins() -> dict:
    """What ``expect:`` may pin of one function (which of them, by its model solution, the
    reader of pins says)."""
    from ..answers.pins import TECHNIQUE_PINS
    which = "; ".join([f"a search pins {', '.join(SEARCH_PINS)}"] + [
        f"{technique} {', '.join(fields)}" for technique, fields in TECHNIQUE_PINS.items()])
    return {
        "type": "object", "additionalProperties": False,
        "x-hint": "the pins of {key!r} are a mapping of value, action, visited (a count) and "
                  "pruned (a list of nodes)",
        "x-unknown": f"unknown pin {{key!r}}: {which}",
        "description": "The figures pinned for one student function.",
        "properties": {
            "value": {"anyOf": [{"type": "number"}, {"type": "array",
                                                     "items": {"type": "number"}}],
                      "description": "the root value (a utility vector for max^n)"},
            "action": {"description": "the action at the root (any optimal one; iterative "
                                      "deepening: the deepest iteration's)"},
            "visited": {"anyOf": [{"type": "integer"},
                                  {"type": "array", "items": {"type": "integer"}}],
                        "description": "the number of nodes visited (iterative deepening: per "
                                       "iteration)"},
            "pruned": {"type": "array", "items": {"type": ["string", "number"]},
                       "description": "the nodes never visited"},
            "values": {"type": "array",
                       "description": "iterative deepening: the value of each iteration"},
            "line": {"type": "array",
                     "description": "principal variation: a line of optimal play of full "
                                    "length"},
        }}


def _tree_node() -> dict:
    return {"anyOf": [{"type": ["number", "string"]},
                      {"type": "array", "items": {"$ref": "#/definitions/tree-node"}},
                      {"type": "object",
                       "additionalProperties": {"$ref": "#/definitions/tree-node"}}],
            "x-words": "a number (a leaf), text (\"(1, 2, 6)\", \"3 p=1/4\", 1e9), or children "
                       "as a mapping or a list",
            "description": "A node: children by name (\"NAME\", \"NAME (h)\", \"ACTION -> "
                           "NAME\", \"NAME p=0.25\"), a list of children, or a leaf's value."}


def _first_line(docstring: str | None) -> str:
    return " ".join((docstring or "").strip().split("\n\n")[0].split())


def _check_definitions() -> dict:
    """``check``, which a check's ``kind`` sends to ``check-<kind>``: the keys every check
    takes and the kind's ``OPTIONS``."""
    kinds = check_kinds.KINDS
    common = {
        "kind": {"const": None, "description": "the check kind"},
        "points": {"type": "number", "minimum": 0, "default": 1,
                   "description": "the check's points (match, rating: their last threshold's "
                                  "or rung's)"},
        "visibility": {"enum": list(VISIBILITIES),
                       "description": "hidden: the student's feedback says only whether it "
                                      "passed; after_due: hidden until the course's due date "
                                      "(default: the task's visibility)"},
        "function": {"type": "string",
                     "description": "one of the task's functions: the check applies to it "
                                    "alone (default: every function of the task)"},
    }
    definitions = {"check": {
        "type": "object", "required": ["kind"],
        "x-hint": "each check is a mapping with a kind, e.g. {{kind: value, points: 1}}",
        "description": "One check: its kind, points and visibility, and its kind's options.",
        "properties": {"kind": {
            "enum": list(kinds), "x-hint": "unknown check kind {value!r}; known: "
            + ", ".join(sorted(kinds)),
            "x-missing": "each check is a mapping with a kind, e.g. {kind: value, points: 1}",
            "description": "the check kind"}},
        "allOf": [{"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                   "then": {"$ref": f"#/definitions/check-{kind}"}} for kind in kinds]}}
    for kind, module in kinds.items():
        clash = set(module.OPTIONS) & set(COMMON_CHECK_KEYS)
        if clash:
            raise ValueError(f"check kind {kind} declares {', '.join(sorted(clash))}, which "
                             "every check takes already")
        options = copy.deepcopy(module.OPTIONS)
        required = [name for name, option in options.items() if option.pop("x-required", False)]
        for name in required:     # said when missing: "a match check needs thresholds: ..."
            option = options[name]
            hint = option.get("x-hint", "{value")
            option.setdefault("x-missing", hint if "{value" not in hint else
                              f"a {kind} check needs {name}: {option.get('description', '')}")
        definitions[f"check-{kind}"] = {
            "type": "object", "additionalProperties": False,
            **({"required": required} if required else {}),
            "x-unknown": f"unknown option {{key!r}} for a {kind} check; known: "
                         + (", ".join(module.OPTIONS) or "none"),
            "description": _first_line(module.__doc__),
            "properties": {**common, "kind": {**common["kind"], "const": kind}, **options}}
    return definitions


@cache
def schema() -> dict:
    """The schema the loader checks task files against (shared: do not change it)."""
    return {
        "$schema": DRAFT,
        "$comment": "Generated by `grader schema` from grader/tasks/schema.py and the OPTIONS "
                    "of every check kind (grader/checks/); do not edit.",
        "title": "gametree-grader task file",
        "description": "A task file: an optional course header and a list of tasks.",
        "type": "object", "additionalProperties": False, "required": ["tasks"],
        "x-hint": "a task file is a mapping with the keys 'course' (optional) and 'tasks'",
        "properties": {
            "course": {"$ref": "#/definitions/course"},
            "tasks": {"type": "array", "minItems": 1, "items": {"$ref": "#/definitions/task"},
                      "x-hint": "'tasks' must be a non-empty list of tasks",
                      "x-missing": "'tasks' must be a non-empty list of tasks",
                      "description": "the tasks of the sheet"},
        },
        "definitions": {"course": _course(), "limits": _limits(),
                        "leaderboard-column": _leaderboard_column(), "task": _task(),
                        "tree-node": _tree_node(), "pins": _pins(),
                        **_check_definitions()},
    }


def json_schema() -> dict:
    """The task-file schema as JSON Schema (a fresh copy, to do with as one likes)."""
    return copy.deepcopy(schema())


def text() -> str:
    """The schema as the file ``task-file.schema.json`` holds it."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


def default(definition: str, key: str):
    """The default the schema declares for ``key`` of a definition (``course``, ``task``)."""
    return schema()["definitions"][definition]["properties"][key]["default"]


def publish(out: Path | None = None) -> int:
    """What ``grader schema [--out FILE]`` does (``grader.cli.schema``): print the schema, or
    write it into ``out``; 0, or 1 after saying on standard error why it cannot be written."""
    if out is None:
        sys.stdout.write(text())
        return 0
    try:
        out.write_text(text(), encoding="utf-8")
    except OSError as error:
        print(f"grader schema: cannot write {out}: {error.strerror or error}",
              file=sys.stderr)
        return 1
    print(f"wrote {out}", file=sys.stderr)
    return 0
