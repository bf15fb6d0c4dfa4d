"""Task files (YAML) -> immutable task objects, with every error reported as ``file:line``.

A task file describes one exercise sheet::

    course:                       # optional header; defaults in brackets
      title: Blatt 3
      language: de                # [en] language of the feedback
      prune_on_equality: true     # [true] alpha-beta cuts when beta <= alpha
      limits: {call_seconds: 2, submission_seconds: 60}
      modules: {minimax: minimax, alphabeta: minimax, negamax: minimax, evaluate: evaluation}
      packages: [numpy]           # [none] third-party packages students may import
      gradescope:                 # [none] the Gradescope autograder's leaderboard columns
        leaderboard: [{name: Knoten, value: visited, check: ttt/alphabeta/count}]
    tasks:
      - id: tree-blatt3
        title: Minimax am Baum
        game: tree                # tree | tictactoe | nim | kalah | connect4 | none | a module .py
        tree: {A: {B: [8, 7, 3], C: [2, 4]}}
        functions: [minimax, alphabeta]
        depth: 2                  # optional: depth-limited search, passed after (game, state)
        # heuristic: tictactoe-lines   # a game's heuristic at the horizon (see heuristic_spec)
        # evaluation: evaluation.evaluate  # match checks: the student's own heuristic plays
        # noisy: captures         # quiescence search: the game's rule of noisy positions
        # extension: 2            # [2] plies a noisy position extends the horizon (quiet_rule)
        checks:
          - {kind: value, points: 1}                       # for every function of the task
          - {kind: visited, function: alphabeta, points: 2, visibility: hidden}
        expect:                   # optional pins, verified by `grader validate`
          alphabeta: {value: 3, action: B, visited: 16, pruned: [D2, D3]}
      - id: three-player          # an n-player tree: utility vectors at the leaves
        game: tree
        players: [A, B, C]        # one per ply, cycling (CHANCE for chance nodes)
        ties: first               # max^n's tie rule: first | spiteful | generous
        alliances: [[A], [B, C]]  # optional: a coalition maximises its members' sum
        tree: {R: {X: ["(1, 2, 6)", "(4, 2, 3)"], Y: ["(6, 1, 2)", "(7, 4, 1)"]}}
        functions: [maxn]         # or minimax/alphabeta/... with paranoid: A

``load_course(path)`` reads a file or every ``*.yaml`` in a folder and returns a ``Course``,
or raises ``TaskFileError`` listing *every* problem found, before any grading starts.
"""

from __future__ import annotations

import datetime
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import checks as check_kinds
from .calls import canonical
from .games.connect4 import BoardError, read_board
from .games.kalah import PositionError as KalahPositionError
from .games.kalah import normalise_position as kalah_position
from .games.tictactoe import normalise_board
from .hand.taskfile import module_of as hand_module
from .hand.taskfile import read_task as read_hand_task
from .yamlsrc import LocatedDict, LocatedList, Problem, line_of, load

# The searches that return (value, action): one list, the check kinds'.
SEARCH_FUNCTIONS = check_kinds.common.SEARCH_FUNCTIONS
DEFAULT_MODULES = {"minimax": "minimax", "alphabeta": "minimax", "negamax": "minimax",
                   "evaluate": "evaluation",
                   # AIMA's games.py (the aima convention)
                   "minmax_decision": "games", "alpha_beta_search": "games",
                   "alpha_beta_cutoff_search": "games"}
GAMES = ("tree", "tictactoe", "nim", "kalah", "connect4", "none")
# Games whose rules look the heuristic up in a table (grader.heuristics), by a task's heuristic:
HEURISTIC_GAMES = ("tictactoe",)
CONVENTIONS = ("game", "helpers", "negamax-sign", "multi-agent", "aima")
# Student functions whose model solution goes without saying.
DEFAULT_REFERENCES = {"Value": "negamax", "MinimaxAgent": "minimax",
                      "AlphaBetaAgent": "alphabeta", "ExpectimaxAgent": "expectimax",
                      "minmax_decision": "minimax", "alpha_beta_search": "alphabeta",
                      "alpha_beta_cutoff_search": "alphabeta"}
PLAYERS = ("MAX", "MIN", "CHANCE")
# How max^n picks among children that are equally good for the player to move (see
# reference/search.py maxn): the first in action order, or the one worst (spiteful) or best
# (generous) for the other players together.
TIE_RULES = ("first", "spiteful", "generous")
PLAYER_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
LANGUAGES = ("de", "en")
VISIBILITIES = ("visible", "hidden", "after_due")
# What a Gradescope leaderboard column can show, and its default order (desc: higher ranks
# higher): the total points, one task's points, the nodes the student's search visited in one
# count check, the grading time.
LEADERBOARD_VALUES = {"score": "desc", "task": "desc", "visited": "asc", "seconds": "asc"}
TASK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class TaskFileError(Exception):
    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass(frozen=True)
class Limits:
    call_seconds: float = 2.0
    submission_seconds: float = 60.0


@dataclass(frozen=True)
class Check:
    id: str                  # unique in the course, e.g. "tree-blatt3/alphabeta/visited"
    task_id: str
    kind: str
    function: str
    points: float
    visibility: str
    options: tuple           # sorted (name, value) pairs, values JSON-able
    file: str
    line: int

    def option(self, name: str, default: Any = None) -> Any:
        return dict(self.options).get(name, default)


@dataclass(frozen=True)
class Task:
    id: str
    title: str
    file: str
    line: int
    game: str                # one of GAMES
    game_spec: str | None    # canonical JSON of the game spec, None for game "none"
    functions: tuple
    depth: int | None
    prune_on_equality: bool
    modules: tuple           # (function, module) pairs
    references: tuple        # (function, reference name) pairs
    limits: Limits
    checks: tuple
    pins: tuple              # (function, ((field, value, line), ...), line)
    due: datetime.datetime | None = None   # after_due checks stay hidden until then
    convention: str = "game"                # how the student's search functions are called
    heuristic: str | None = None            # reference evaluation tabulated at the horizon
    evaluation: str | None = None           # "module.function": the student's own heuristic
    answers: str | None = None              # a hand exercise's answer file (grader/hand)
    variants: str | None = None             # its per-student trees (canonical JSON)

    def module_of(self, function: str) -> str:
        return dict(self.modules)[function]

    def reference_of(self, function: str) -> str:
        return dict(self.references).get(function, function)

    @property
    def max_score(self) -> float:
        return sum(check.points for check in self.checks)


@dataclass(frozen=True)
class LeaderboardColumn:
    """One column of the Gradescope autograder's leaderboard (``course: gradescope:
    leaderboard:``); what it shows is in ``LEADERBOARD_VALUES``."""
    name: str
    value: str
    order: str               # "desc" (higher ranks higher) or "asc"
    of: str | None           # the task's id (value "task"), the count check's (value "visited")
    file: str
    line: int


@dataclass(frozen=True)
class Provided:
    """A module the course ships to every submission (``provides: [utils.py]``): imported by
    the student's code as ``name``, from ``source`` (never written into the submission)."""
    name: str
    source: str
    path: str                # the file it was read from
    written: str             # that path as the task file writes it (relative to the file)
    file: str                # the task file that provides it, and its line
    line: int


@dataclass(frozen=True)
class Course:
    title: str
    language: str
    files: tuple
    tasks: tuple = field(default_factory=tuple)
    packages: tuple = ()     # distributions students may import (see grader/packages.py)
    leaderboard: tuple = ()  # LeaderboardColumn: Gradescope's leaderboard, in file order
    warnings: tuple = ()     # Problems that do not stop grading, printed as warnings
    # Modules the course ships to every submission (``provides:``): Provided, by name
    provided: tuple = ()
    provided_wins: bool = True   # over a submission's own file of the same name

    @property
    def max_score(self) -> float:
        return sum(task.max_score for task in self.tasks)

    @property
    def visible_checks(self) -> tuple:
        """The checks a student's self-check runs (hidden and after-due ones are not)."""
        return tuple(c for task in self.tasks for c in task.checks if c.visibility == "visible")

    @property
    def hidden_count(self) -> int:
        """How many checks a self-check only counts."""
        return sum(len(task.checks) for task in self.tasks) - len(self.visible_checks)

    @property
    def source_files(self) -> tuple:
        """The files a grade depends on besides the submission: the task files and the
        modules the course provides (``--resume`` grades again when one changes)."""
        return tuple(self.files) + tuple(module.path for module in self.provided)

    @property
    def modules(self) -> tuple:
        """The module names its tasks import from a submission, sorted (for staging)."""
        return tuple(sorted({module for task in self.tasks for _, module in task.modules}
                            | {task.evaluation.partition(".")[0] for task in self.tasks
                               if task.evaluation}))

    def task(self, task_id: str) -> Task:
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise KeyError(task_id)


# ---------------------------------------------------------------------------------------
def task_files(path: Path | str) -> list[Path]:
    path = Path(path)
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.suffix in (".yaml", ".yml"))
    return [path]


def load_course(path: Path | str) -> Course:
    path = Path(path)
    if not path.exists():
        raise TaskFileError([Problem(str(path), 0, "no such file or folder; pass the task "
                                     "file or folder with --tasks")])
    files = task_files(path)
    if not files:
        raise TaskFileError([Problem(str(path), 0, "the folder holds no *.yaml task file")])
    problems: list[Problem] = []
    tasks: list[Task] = []
    titles, languages, packages, leaderboard = [], [], [], []
    provided: dict[str, Provided] = {}
    provided_wins = []
    warnings: list[Problem] = []
    seen_ids: dict[str, str] = {}
    for file in files:
        reader = _SheetReader(str(file), problems, warnings)
        sheet = reader.read()
        leaderboard += reader.leaderboard
        for module in reader.provided:
            if module.name in provided and provided[module.name].source != module.source:
                problems.append(Problem(module.file, module.line, f"{module.name}.py is "
                                        f"provided twice with different contents (first at "
                                        f"{provided[module.name].file}:"
                                        f"{provided[module.name].line}); provide it once"))
            provided.setdefault(module.name, module)
        if reader.provided_wins is not None:
            provided_wins.append(reader.provided_wins)
        if sheet is None:
            continue
        title, language, sheet_tasks, sheet_packages = sheet
        titles.append(title)
        languages.append(language)
        packages += [name for name in sheet_packages if name not in packages]
        for task in sheet_tasks:
            if task.id in seen_ids:
                problems.append(Problem(task.file, task.line, f"task id {task.id!r} is used "
                                        f"twice (first at {seen_ids[task.id]}); ids must be "
                                        "unique"))
            seen_ids.setdefault(task.id, f"{task.file}:{task.line}")
            tasks.append(task)
    problems += leaderboard_problems(leaderboard, tasks)
    problems += provided_problems(provided, tasks, provided_wins)
    if problems:
        raise TaskFileError(sorted(problems, key=lambda p: (p.file, p.line)))
    # sheets of one course may repeat its title: each title once
    return Course(title=" · ".join(dict.fromkeys(t for t in titles if t)) or path.stem,
                  language=languages[0] if languages else "en",
                  files=tuple(str(f) for f in files), tasks=tuple(tasks),
                  packages=tuple(packages), leaderboard=tuple(leaderboard),
                  warnings=tuple(sorted(warnings, key=lambda p: (p.file, p.line))),
                  provided=tuple(provided.values()),
                  provided_wins=provided_wins[0] if provided_wins else True)


def provided_problems(provided: dict, tasks, wins: list) -> list[Problem]:
    """A provided module may not be one the students hand in (a task's module), and the
    course's sheets must agree on which copy wins."""
    problems = []
    handed_in = {module: (task, function) for task in tasks for function, module in task.modules}
    for module in provided.values():
        if module.name in handed_in:
            task, function = handed_in[module.name]
            problems.append(Problem(module.file, module.line, f"{module.name}.py is the "
                                    f"module students hand in ({function} of task {task.id} "
                                    f"is read from it); a course cannot provide it too"))
    if len(set(wins)) > 1:
        problems.append(Problem(provided and next(iter(provided.values())).file or "", 0,
                                "the task files disagree on provided_wins; set it in one"))
    return problems


def leaderboard_problems(columns, tasks) -> list[Problem]:
    """What is wrong with the leaderboard's columns once every task is known: a name used
    twice, a task or check that does not exist, and a column that would show every student
    (the leaderboard is public) a result of a hidden or after-due check."""
    problems = []
    names: dict[str, str] = {}
    task_by_id = {task.id: task for task in tasks}
    check_by_id = {check.id: check for task in tasks for check in task.checks}

    def secret(checks) -> list[str]:
        return [check.id for check in checks if check.visibility != "visible"]
    for column in columns:
        def problem(message):
            problems.append(Problem(column.file, column.line, message))
        if column.name in names:
            problem(f"leaderboard column {column.name!r} is named twice (first at "
                    f"{names[column.name]}); each column needs its own name")
        names.setdefault(column.name, f"{column.file}:{column.line}")
        if column.value == "score":
            hidden = secret(check for task in tasks for check in task.checks)
        elif column.value == "task":
            if column.of not in task_by_id:
                problem(f"no task has the id {column.of!r}; known: {', '.join(task_by_id)}")
                continue
            hidden = secret(task_by_id[column.of].checks)
        elif column.value == "visited":
            check = check_by_id.get(column.of)
            if check is None or check.kind != "count":
                counts = [c for c in check_by_id.values() if c.kind == "count"]
                problem(f"{column.of!r} is not the id of a count check; 'visited' shows the "
                        "nodes a search visited in a count check, e.g. "
                        f"{counts[0].id if counts else 'TASK/alphabeta/count'}")
                continue
            hidden = secret([check])
        else:
            hidden = []
        if hidden:
            problem(f"the leaderboard is shown to every student, and this column would "
                    f"show the result of hidden or after-due checks ({', '.join(hidden[:3])}"
                    f"{', ...' if len(hidden) > 3 else ''}); show a visible check's task or "
                    "count instead, or make those checks visible")
    return problems


class _SheetReader:
    """Reads one task file, collecting problems instead of stopping at the first."""

    def __init__(self, file: str, problems: list[Problem], warnings: list | None = None):
        self.file = file
        self.problems = problems
        self.warnings = warnings if warnings is not None else []
        self.provided: list[Provided] = []
        self.provided_wins: bool | None = None
        self.due = None
        self.leaderboard: list[LeaderboardColumn] = []

    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.file, line, message))

    def read(self):
        document, problems = load(self.file)
        self.problems.extend(problems)
        if document is None:
            return None
        if not isinstance(document, LocatedDict):
            self.problem(line_of(document, 1), "a task file is a mapping with the keys "
                         "'course' (optional) and 'tasks'")
            return None
        self.unknown_keys(document, ("course", "tasks"))
        header = document.get("course", LocatedDict())
        if not isinstance(header, LocatedDict):
            self.problem(document.line_of("course"), "'course' must be a mapping")
            header = LocatedDict()
        self.unknown_keys(header, ("title", "language", "prune_on_equality", "limits",
                                   "modules", "due", "packages", "gradescope", "provides",
                                   "provided_wins"))
        self.leaderboard = self.gradescope(header)
        self.provided = self.provides(header)
        if "provided_wins" in header:
            self.provided_wins = self.boolean(header, "provided_wins", True)
        self.due = self.date(header, "due")
        title = str(header.get("title", ""))
        language = header.get("language", "en")
        if language not in LANGUAGES:
            self.problem(header.line_of("language"), f"language {language!r} is not "
                         f"supported; use one of {', '.join(LANGUAGES)}")
            language = "en"
        prune = self.boolean(header, "prune_on_equality", True)
        limits = self.limits(header.get("limits"), header.line_of("limits"))
        modules = dict(DEFAULT_MODULES)
        raw_modules = header.get("modules", {})
        if not isinstance(raw_modules, dict):
            self.problem(header.line_of("modules"), "'modules' maps function names to "
                         "module names, e.g. {minimax: minimax}")
        else:
            for function, module in raw_modules.items():
                if not isinstance(module, str) or not module.isidentifier():
                    self.problem(raw_modules.line_of(function), f"module {module!r} of "
                                 f"{function!r} is not a Python module name")
                else:
                    modules[str(function)] = module
        packages = self.packages(header)
        raw_tasks = document.get("tasks")
        if not isinstance(raw_tasks, LocatedList) or not raw_tasks:
            self.problem(document.line_of("tasks") if "tasks" in document else 1,
                         "'tasks' must be a non-empty list of tasks")
            return title, language, [], packages
        tasks = []
        for index, raw in enumerate(raw_tasks):
            task = self.task(raw, raw_tasks.line_of(index), prune, limits, modules)
            if task is not None:
                tasks.append(task)
        return title, language, tasks, packages

    # -- small readers -----------------------------------------------------------------
    def packages(self, header) -> list[str]:
        """The course's ``packages``: names of distributions installed beside the grader."""
        from .packages import problem_with
        raw = header.get("packages")
        if raw is None:
            return []
        if not isinstance(raw, LocatedList):
            self.problem(header.line_of("packages"), "'packages' must be a list of package "
                         "names, e.g. [numpy]")
            return []
        names = []
        for index, name in enumerate(raw):
            line = raw.line_of(index)
            if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
                self.problem(line, f"{name!r} is not a package name; 'packages' lists names "
                             "such as numpy")
                continue
            problem = problem_with(name)
            if problem is not None:
                self.problem(line, problem)
            elif name not in names:
                names.append(name)
        return names

    def provides(self, header) -> list[Provided]:
        """The course's ``provides``: Python files beside this task file (paths relative to
        it), each a module every submission may import."""
        raw = header.get("provides")
        if raw is None:
            return []
        if not isinstance(raw, LocatedList):
            self.problem(header.line_of("provides"), "'provides' lists the course's own "
                         "modules, paths relative to this task file, e.g. [utils.py]")
            return []
        modules = []
        for index, text in enumerate(raw):
            line = raw.line_of(index)
            path = Path(self.file).parent / str(text)
            name = path.name[:-3] if path.name.endswith(".py") else ""
            if not isinstance(text, str) or not name.isidentifier():
                self.problem(line, f"{text!r} is not a Python module's file; 'provides' lists "
                             "files such as utils.py (relative to this task file)")
                continue
            try:
                source = path.read_text(encoding="utf-8")
                compile(source, str(path), "exec", dont_inherit=True)
            except (OSError, UnicodeDecodeError) as error:
                self.problem(line, f"{text}: cannot read the module ({error}); the path is "
                             "relative to this task file")
                continue
            except SyntaxError as error:
                self.problem(line, f"{path}:{error.lineno}: {error.msg}")
                continue
            if any(module.name == name for module in modules):
                self.problem(line, f"{name}.py is listed twice")
                continue
            modules.append(Provided(name, source, str(path), text, self.file, line))
        return modules

    def gradescope(self, header) -> list[LeaderboardColumn]:
        """The course's ``gradescope: {leaderboard: [...]}``: the leaderboard's columns (their
        tasks and checks are looked up once every file is read)."""
        raw = header.get("gradescope")
        if raw is None:
            return []
        if not isinstance(raw, LocatedDict):
            self.problem(header.line_of("gradescope"), "'gradescope' must be a mapping, e.g. "
                         "{leaderboard: [{name: Knoten, value: visited, check: ID}]}")
            return []
        self.unknown_keys(raw, ("leaderboard",))
        entries = raw.get("leaderboard", LocatedList())
        if not isinstance(entries, LocatedList):
            self.problem(raw.line_of("leaderboard"), "'leaderboard' must be a list of "
                         "columns, each {name: ..., value: score|task|visited|seconds}")
            return []
        columns = []
        for index, entry in enumerate(entries):
            line = entries.line_of(index)
            if not isinstance(entry, LocatedDict):
                self.problem(line, "a leaderboard column is a mapping such as {name: Punkte, "
                             "value: task, task: ID}")
                continue
            self.unknown_keys(entry, ("name", "value", "order", "task", "check"))
            name, value = entry.get("name"), entry.get("value")
            if not isinstance(name, str) or not name.strip():
                self.problem(entry.line_of("name") if "name" in entry else line,
                             "a leaderboard column needs a name (the column's heading)")
                continue
            if value not in LEADERBOARD_VALUES:
                self.problem(entry.line_of("value") if "value" in entry else line,
                             f"value {value!r} of leaderboard column {name!r} is not one of "
                             f"{', '.join(LEADERBOARD_VALUES)}")
                continue
            order = entry.get("order", LEADERBOARD_VALUES[value])
            if order not in ("asc", "desc"):
                self.problem(entry.line_of("order"), "order must be desc (higher ranks "
                             "higher) or asc (lower ranks higher)")
                continue
            needed = {"task": "task", "visited": "check"}.get(value)
            for key in ("task", "check"):
                if key in entry and key != needed:
                    self.problem(entry.line_of(key), f"{key!r} does not belong to a "
                                 f"leaderboard column of value {value}")
            of = entry.get(needed) if needed else None
            if needed and not isinstance(of, str):
                self.problem(entry.line_of(needed) if needed in entry else line,
                             f"a leaderboard column of value {value} names its {needed}'s "
                             f"id: {needed}: ID")
                continue
            columns.append(LeaderboardColumn(name.strip(), value, order, of, self.file, line))
        return columns

    def unknown_keys(self, mapping: LocatedDict, known) -> None:
        for key in mapping:
            if key not in known:
                self.problem(mapping.line_of(key), f"unknown key {key!r}; known keys here: "
                             f"{', '.join(known)}")

    def boolean(self, mapping, key, default):
        value = mapping.get(key, default)
        if not isinstance(value, bool):
            self.problem(mapping.line_of(key), f"{key!r} must be true or false")
            return default
        return value

    def date(self, mapping, key):
        value = mapping.get(key)
        if value is None:
            return None
        if isinstance(value, datetime.datetime):
            moment = value
        elif isinstance(value, datetime.date):
            moment = datetime.datetime.combine(value, datetime.time(23, 59, 59))
        else:
            try:
                moment = datetime.datetime.fromisoformat(str(value))
            except ValueError:
                self.problem(mapping.line_of(key), f"{key} must be a date such as 2026-12-01 or "
                             "2026-12-01T23:59:00+01:00")
                return None
        if moment.tzinfo is None:
            moment = moment.astimezone()  # the grading machine's local time zone
        return moment

    def limits(self, raw, line) -> Limits:
        if raw is None:
            return Limits()
        if not isinstance(raw, LocatedDict):
            self.problem(line, "'limits' must be a mapping with call_seconds and/or "
                         "submission_seconds")
            return Limits()
        self.unknown_keys(raw, ("call_seconds", "submission_seconds"))
        values = {}
        for key in ("call_seconds", "submission_seconds"):
            if key in raw:
                value = raw[key]
                if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                    self.problem(raw.line_of(key), f"{key} must be a positive number of seconds")
                else:
                    values[key] = float(value)
        return Limits(**values)

    # -- one task ----------------------------------------------------------------------
    def task(self, raw, line, prune_default, limits, modules) -> Task | None:
        if not isinstance(raw, LocatedDict):
            self.problem(line, "each task is a mapping with at least id, game and checks")
            return None
        before = len(self.problems)
        self.unknown_keys(raw, ("id", "title", "game", "tree", "board", "sticks", "take",
                                "last_loses", "functions", "function", "depth",
                                "prune_on_equality", "checks", "expect", "reference",
                                "visibility", "limits", "convention", "module", "players",
                                "lose_states", "options", "heuristic", "paranoid",
                                "alliances", "ties", "pits", "stones", "to_move",
                                "columns", "rows", "connect", "first",
                                "noisy", "extension", "evaluation", "answers", "variants"))
        task_id = raw.get("id")
        if not isinstance(task_id, str) or not TASK_ID.match(task_id):
            self.problem(raw.line_of("id") if "id" in raw else raw.line,
                         "every task needs an 'id' of letters, digits, '-', '_' or '.', "
                         "e.g. id: tree-blatt3")
            task_id = f"<task at line {raw.line}>"
        title = str(raw.get("title", task_id))
        convention = raw.get("convention", "game")
        if convention not in CONVENTIONS:
            self.problem(raw.line_of("convention"), f"unknown convention {convention!r}; use one "
                         f"of {', '.join(CONVENTIONS)}")
            convention = "game"
        game = raw.get("game", "none")
        if isinstance(game, str) and game.endswith(".py"):
            game_spec = self.plugin_spec(game, raw)
            game = "plugin"
        elif game not in GAMES:
            self.problem(raw.line_of("game"), f"unknown game {game!r}; use one of "
                         f"{', '.join(GAMES)}")
            game = "none"
        if game != "plugin":
            game_spec = self.game_spec(game, raw)
        modules = dict(modules)
        functions = self.functions(raw, modules)
        depth = raw.get("depth")
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)
                                  or depth < 1):
            self.problem(raw.line_of("depth"), "depth must be a whole number of plies >= 1 "
                         "(leave it out to search to the end of the game)")
            depth = None
        if depth is not None and game_spec is not None and game == "tree":
            self.check_horizon(game_spec, depth, raw.line_of("depth"),
                               rounds=convention == "multi-agent")
        if depth is not None and game == "plugin" and game_spec is not None \
                and "evaluate" not in json.loads(game_spec)["methods"]:
            self.problem(raw.line_of("depth"), f"{raw['game']} defines no evaluate(state, "
                         "player): a depth-limited search needs a heuristic at its horizon")
        heuristic = self.heuristic(raw, game, depth)
        if heuristic is not None and game_spec is not None:
            game_spec = self.heuristic_spec(game_spec, depth, heuristic, raw.line_of("depth"))
        elif depth is not None and game in HEURISTIC_GAMES and "heuristic" not in raw:
            self.problem(raw.line_of("depth"), f"{game} has no heuristic of its own to evaluate "
                         "at the horizon; name a reference evaluation, e.g. "
                         "heuristic: tictactoe-lines")
        elif depth is not None and game == "nim":
            self.problem(raw.line_of("depth"), f"{game} has no heuristic to evaluate at a "
                         "horizon; use a tree with heuristic values, e.g. \"C (4)\", "
                         "or connect4 (its window count)")
        # Courses in the style of the Pacman projects prune only on strict inequality.
        prune = self.boolean(raw, "prune_on_equality",
                             False if convention == "multi-agent" else prune_default)
        if convention == "multi-agent" and game not in ("tree", "none"):
            self.problem(raw.line_of("convention"), "the multi-agent convention needs a tree "
                         "(or no game, for random-trees checks)")
        for key in ("pits", "stones", "to_move"):
            if key in raw and game != "kalah":
                self.problem(raw.line_of(key), f"{key!r} belongs to a kalah task (game: kalah)")
        if game == "kalah" and convention in ("helpers", "negamax-sign"):
            self.problem(raw.line_of("convention"), f"the {convention} convention gives the "
                         "student no way to ask whose turn it is, and in Kalah a move into "
                         "one's own store gives another turn; use the game convention "
                         "(game.to_move)")
        task_limits = self.limits(raw.get("limits"), raw.line_of("limits")) \
            if "limits" in raw else limits
        references = self.references(raw, functions)
        game_spec = self.quiet_rule(raw, game, game_spec, depth,
                                    {f: references.get(f, f) for f in functions})
        if game_spec is not None and game == "tree":
            self.n_player_rules(raw, game_spec, convention, depth,
                                {f: references.get(f, f) for f in functions})
        evaluation = self.evaluation(raw)
        # a hand exercise: an answer file instead of code, maybe a tree per student
        answers, variants = read_hand_task(self, raw, game, game_spec, depth)
        visibility = raw.get("visibility", "visible")
        if visibility not in VISIBILITIES:
            self.problem(raw.line_of("visibility"), f"visibility must be one of "
                         f"{', '.join(VISIBILITIES)}")
            visibility = "visible"
        context = check_kinds.TaskContext(task_id=task_id, game=game, game_spec=game_spec,
                                          functions=tuple(functions), depth=depth,
                                          file=self.file, problems=self.problems,
                                          convention=convention, evaluation=evaluation,
                                          references={f: dict(references).get(f, f)
                                                      for f in functions},
                                          players=self.players_cycle(raw, game, game_spec),
                                          warnings=self.warnings)
        task_checks = self.checks(raw, context, visibility)
        for check in task_checks:
            if answers is None and check.kind.startswith("hand-"):
                self.problem(check.line, f"a {check.kind} check asks about a hand exercise; "
                             "give the task the name of its answer file (answers: aufgabe1)")
        if variants is not None and any(not c.kind.startswith("hand-") for c in task_checks):
            self.problem(raw.line_of("variants"), "a task with variants (a tree per student) "
                         "asks only hand questions (hand-* checks): give code checks a task "
                         "of their own")
        if evaluation is not None and not any(
                hasattr(check_kinds.KINDS[c.kind], "series") for c in task_checks):
            self.problem(raw.line_of("evaluation"), "evaluation: is the heuristic the "
                         "student's search plays with; this task has no check that plays "
                         "(kind: match)")
        pins = self.pins(raw, functions, context.references)
        if len(self.problems) > before:
            return None
        return Task(id=task_id, title=title, file=self.file, line=raw.line, game=game,
                    game_spec=game_spec, functions=tuple(functions), depth=depth,
                    prune_on_equality=prune,
                    modules=tuple((f, modules[f]) for f in functions),
                    references=tuple(sorted(references.items())), limits=task_limits,
                    checks=tuple(task_checks), pins=pins, due=self.due,
                    convention=convention, heuristic=heuristic, evaluation=evaluation,
                    answers=answers, variants=variants)

    def players_cycle(self, raw, game, game_spec) -> tuple | None:
        """The task's cycle of players: its tree's, or (a task without a game, for random
        trees) as its ``players:`` names it (MAX, then MIN or CHANCE); None where it names
        none."""
        if game == "tree" and game_spec is not None:
            players = json.loads(game_spec).get("players")
            return tuple(players) if players else None
        players = raw.get("players")
        if game != "none" or players is None:
            return None
        if (not isinstance(players, list) or len(players) < 2 or players[0] != "MAX"
                or any(p not in PLAYERS[1:] for p in players[1:])):
            self.problem(raw.line_of("players"), "players is the cycle of players by depth: "
                         "MAX first, then MIN or CHANCE, e.g. [MAX, MIN, MIN]")
            return None
        return tuple(players)

    def evaluation(self, raw) -> str | None:
        """The task's ``evaluation: module.function``: the student's own heuristic, which the
        searches of match checks play with instead of the game's (``grader/checks/match.py``)."""
        value = raw.get("evaluation")
        if value is None:
            return None
        module, _, function = value.partition(".") if isinstance(value, str) else ("", "", "")
        if not (module.isidentifier() and function.isidentifier()):
            self.problem(raw.line_of("evaluation"), f"evaluation names the student's own "
                         f"evaluation function as module.function, e.g. evaluation: "
                         f"evaluation.evaluate; not {value!r}")
            return None
        return value

    def functions(self, raw, modules) -> list[str]:
        value = raw.get("functions", raw.get("function"))
        key = "functions" if "functions" in raw else "function"
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            self.problem(raw.line_of(key) if key in raw else raw.line,
                         "name the student function(s) this task calls, e.g. "
                         "functions: [minimax, alphabeta]")
            return []
        if "module" in raw:  # the task's own module for all of its functions
            module = raw["module"]
            if not isinstance(module, str) or not module.isidentifier():
                self.problem(raw.line_of("module"), f"module {module!r} is not a Python module name")
            else:
                modules.update({function: module for function in value})
        elif isinstance(raw.get("answers"), str):   # a hand exercise: no code, an answer file
            modules.update({function: hand_module(raw["answers"]) for function in value})
        for function in value:
            if function not in modules:
                self.problem(raw.line_of(key), f"no module is known for function "
                             f"{function!r}; add it under course.modules or give the task "
                             "a module: key")
        if len(set(value)) != len(value):
            self.problem(raw.line_of(key), "a function is listed twice")
        return [f for f in value if f in modules]

    def references(self, raw, functions) -> dict:
        from reference.deepening import TECHNIQUES
        from reference.evaluation import EVALUATIONS
        from reference.search import SEARCHES
        from reference.techniques import MOVE_ORDERINGS
        known = {**{name: "search" for name in SEARCHES}, **{name: "evaluation" for name in EVALUATIONS},
                 **{name: "ordering" for name in MOVE_ORDERINGS}}
        known.update({name: "search" for name in TECHNIQUES})
        value = raw.get("reference", {})
        result = {f: DEFAULT_REFERENCES[f] for f in functions if f in DEFAULT_REFERENCES}
        if not isinstance(value, dict):
            self.problem(raw.line_of("reference"), "'reference' maps a function to the model "
                         "solution it is compared with, e.g. {evaluate: tictactoe-lines}")
            return result
        for function, name in value.items():
            if function not in functions:
                self.problem(value.line_of(function), f"{function!r} is not one of this "
                             "task's functions")
            elif name not in known:
                self.problem(value.line_of(function), f"unknown reference {name!r}; known: "
                             f"{', '.join(sorted(known))}")
            else:
                result[function] = name
        for function in functions:
            if function not in SEARCHES and function not in MOVE_ORDERINGS \
                    and function not in TECHNIQUES and function not in result:
                self.problem(raw.line_of("functions") if "functions" in raw else raw.line,
                             f"say which model solution {function!r} is compared with, e.g. "
                             f"reference: {{{function}: tictactoe-lines}}")
        return result

    # -- games -------------------------------------------------------------------------
    def plugin_spec(self, path_text: str, raw) -> str | None:
        """The spec of a course's own game module (``game: ./games/race.py``, relative to the
        task file; ``options:`` its options): the module's source travels in the spec (see
        ``grader/games/plugin.py``).  The module is run here once, to check its contract."""
        from .games.plugin import PluginRules, interface_problems, load_source
        line = raw.line_of("game")
        path = Path(self.file).parent / path_text
        name = path.stem
        if not name.isidentifier():
            self.problem(line, f"{path_text}: a game module's file name must be a Python "
                         "name (letters, digits, _), e.g. games/race.py")
            return None
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            self.problem(line, f"{path_text}: cannot read the game module ({error}); the path "
                         "is relative to this task file")
            return None
        try:
            namespace = load_source(name, source)
        except SyntaxError as error:
            self.problem(line, f"{path}:{error.lineno}: {error.msg}")
            return None
        except Exception as error:  # noqa: BLE001 - the module's own code, run at load
            self.problem(line, f"{path_text}: running the module raised "
                         f"{type(error).__name__}: {error}")
            return None
        lacking = interface_problems(namespace)
        for problem in lacking:
            self.problem(line, f"{path_text}: {problem}")
        if lacking:
            return None
        options = raw.get("options", {})
        if not isinstance(options, dict):
            self.problem(raw.line_of("options"), "options: maps the game's option names to "
                         "values, e.g. options: {target: 10}")
            return None
        spec = {"kind": "plugin", "name": name, "source": source, "path": path_text,
                "options": {str(k): v for k, v in options.items()}}
        try:
            rules = PluginRules(json.loads(canonical(spec)))
            root = rules.initial_state()
            if not rules.is_terminal(root):
                actions = rules.actions(root)
                json.dumps(actions)
                rules.to_move(root)
                if actions:
                    rules.result(root, actions[0])
        except ValueError as error:
            self.problem(raw.line_of("options") if "options" in raw else line,
                         f"{path_text}: {error}")
            return None
        except Exception as error:  # noqa: BLE001 - the module's own code
            self.problem(line, f"{path_text}: its rules fail on the first position: "
                         f"{type(error).__name__}: {error}")
            return None
        spec["methods"] = sorted(m for m in ("evaluate", "show")
                                 if callable(getattr(rules.rules, m, None)))
        return canonical(spec)

    def n_player_rules(self, raw, game_spec, convention, depth, references) -> None:
        """What an n-player tree (utility vectors at the leaves) allows: the game convention,
        no depth limit, max^n, or a two-player search only under ``paranoid``; and what the
        options ``paranoid``, ``alliances``, ``ties`` and ``p=`` need."""
        import json
        spec = json.loads(game_spec)
        vector = spec.get("vector", False)
        line = raw.line_of("tree") if "tree" in raw else raw.line
        if not vector:
            for key in ("paranoid", "alliances", "ties"):
                if key in raw:
                    self.problem(raw.line_of(key), f"{key} belongs to an n-player tree, whose "
                                 "leaves are utility vectors such as \"(1, 2, 6)\"")
            for function, reference in references.items():
                if reference == "maxn":
                    self.problem(line, f"{function!r} (max^n) needs an n-player tree: players "
                                 "such as [A, B, C] and leaves such as \"(1, 2, 6)\"")
            return
        if spec.get("probabilities") and convention == "multi-agent":
            self.problem(raw.line_of("convention"), "the multi-agent convention has no "
                         "probabilities (its expectimax agents average); leave out p=")
        if convention != "game":
            self.problem(raw.line_of("convention"), "an n-player tree needs the game "
                         "convention (its game object has utilities() and players())")
        if depth is not None:
            self.problem(raw.line_of("depth"), "an n-player tree is searched to its leaves; "
                         "leave out depth")
        paranoid = spec.get("paranoid")
        for function, reference in references.items():
            if reference in ("minimax", "alphabeta", "negamax", "expectimax") and not paranoid:
                self.problem(raw.line_of("functions") if "functions" in raw else raw.line,
                             f"{function!r} is a two-player search, but this tree has "
                             f"{len(spec['players'])} players; use maxn, or set paranoid: "
                             f"{spec['players'][0]} (the root player against all others)")
            if reference == "maxn" and paranoid:
                self.problem(raw.line_of("paranoid"), f"{function!r} (max^n) lets every "
                             "player maximise its own component; paranoid is for minimax, "
                             "alphabeta, negamax or expectimax: give max^n its own task")
        if "ties" in raw and not any(r == "maxn" for r in references.values()):
            self.problem(raw.line_of("ties"), "ties is the tie rule of max^n; this task has "
                         "no function compared with maxn")
        if "alliances" in raw and not any(r == "maxn" for r in references.values()):
            self.problem(raw.line_of("alliances"), "alliances change max^n; this task has no "
                         "function compared with maxn")

    def n_player_options(self, raw, spec, players, cycle) -> bool:
        """``paranoid``, ``alliances`` and ``ties`` of an n-player tree into its spec."""
        ok = True
        if "paranoid" in raw:
            paranoid = raw["paranoid"]
            if paranoid != cycle[0]:
                self.problem(raw.line_of("paranoid"), f"paranoid names the player at the root "
                             f"({cycle[0]}), who searches assuming that all others play "
                             f"against it; {paranoid!r} is not that player")
                ok = False
            else:
                spec["paranoid"] = paranoid
        if "alliances" in raw:
            groups = raw["alliances"]
            members = [m for g in groups for m in g] if isinstance(groups, list) and all(
                isinstance(g, list) and g for g in groups) else None
            if members is None or sorted(map(str, members)) != sorted(players):
                self.problem(raw.line_of("alliances"), "alliances split the players into "
                             f"coalitions, each player in exactly one, e.g. [[{players[0]}, "
                             f"{players[1]}], [{', '.join(players[2:]) or players[-1]}]]; "
                             f"the players are {', '.join(players)}")
                ok = False
            else:
                spec["alliances"] = [[str(m) for m in g] for g in groups]
        if "ties" in raw:
            ties = raw["ties"]
            if ties not in TIE_RULES:
                self.problem(raw.line_of("ties"), f"ties must be one of {', '.join(TIE_RULES)}"
                             " (first: the first of equally good children in action order)")
                ok = False
            elif ties != "first":
                spec["ties"] = ties
        return ok

    def tree_players(self, raw, builder, spec) -> bool:
        """The ``players`` cycle: MAX/MIN/CHANCE for a tree with numbers at its leaves, any
        player names (and CHANCE) for an n-player tree with utility vectors; each vector has
        one component per player.  Probabilities only on the edges of chance nodes."""
        players = raw.get("players")
        line = raw.line_of("players" if "players" in raw else "tree")
        vectors, numbers = builder.vectors, builder.numbers
        if vectors:
            if numbers:
                name, number_line = numbers[0]
                self.problem(number_line, f"leaf {name!r} is a number, but this tree's leaves "
                             "are utility vectors (such as \"(1, 2, 6)\" at line "
                             f"{vectors[0][2]}); write every leaf as a vector")
                return False
            if (not isinstance(players, list) or len(players) < 2
                    or any(not isinstance(p, str) or not PLAYER_NAME.match(p) for p in players)
                    or players[0] == "CHANCE"):
                self.problem(line, "a tree with utility vectors names its players, one per "
                             "ply, cycling, e.g. players: [A, B, C] (CHANCE for chance "
                             "nodes, not at the root)")
                return False
            named = [p for p in dict.fromkeys(players) if p != "CHANCE"]
            for name, length, leaf_line in vectors:
                if length != len(named):
                    self.problem(leaf_line, f"leaf {name!r} has {length} utilities, but the "
                                 f"tree has {len(named)} players ({', '.join(named)}); "
                                 "write one value per player, in that order")
            spec["players"] = list(players)
            spec["vector"] = True
            if not self.n_player_options(raw, spec, named, players):
                return False
        elif players is not None:
            if (not isinstance(players, list) or len(players) < 2 or players[0] != "MAX"
                    or any(p not in PLAYERS[1:] for p in players[1:])):
                if isinstance(players, list) and players and all(
                        isinstance(p, str) and PLAYER_NAME.match(p) for p in players) \
                        and any(p not in PLAYERS for p in players):
                    self.problem(line, f"players {', '.join(players)} name an n-player tree: "
                                 "write its leaves as utility vectors, e.g. \"(1, 2, 6)\"")
                else:
                    self.problem(line, "players is the cycle of players by depth: "
                                 "MAX first, then MIN or CHANCE, e.g. [MAX, MIN, MIN]")
                return False
            spec["players"] = list(players)
        return self.tree_probabilities(builder, spec)

    def tree_probabilities(self, builder, spec) -> bool:
        if not builder.probabilities:
            return True
        cycle = spec.get("players") or ["MAX", "MIN"]
        depth = {spec["root"]: 0}
        ok = True
        for name, node in builder.nodes.items():   # parents come before their children
            children = node.get("children", [])
            for child in children:
                depth[child] = depth[name] + 1
            given = [builder.probabilities.get(c) for c in children]
            if not any(given):
                continue
            chance = cycle[depth[name] % len(cycle)] == "CHANCE"
            first_line = next(g[1] for g in given if g)
            if not chance:
                self.problem(first_line, f"p= belongs to the edges of a chance node, but "
                             f"{cycle[depth[name] % len(cycle)]} moves at {name!r}")
                ok = False
            elif not all(given):
                missing = [c for c, g in zip(children, given) if not g]
                self.problem(first_line, f"chance node {name!r} gives p= for some edges but "
                             f"not for {', '.join(missing)}; give every edge its probability")
                ok = False
            elif not math.isclose(sum(g[0] for g in given), 1.0, abs_tol=1e-9):
                self.problem(first_line, f"the probabilities of chance node {name!r} sum to "
                             f"{sum(g[0] for g in given):g}, not 1")
                ok = False
            else:
                node["probabilities"] = [g[0] for g in given]
        if ok and any("probabilities" in n for n in builder.nodes.values()):
            spec["probabilities"] = True
        return ok

    def game_spec(self, game, raw) -> str | None:
        if game == "none":
            return None
        if game == "tictactoe":
            board = raw.get("board")
            if not isinstance(board, str):
                self.problem(raw.line_of("board") if "board" in raw else raw.line,
                             "a tictactoe task needs board: \"X.O/.X./..O\" (rows of X, O, .)")
                return None
            try:
                return canonical({"kind": "tictactoe", "board": normalise_board(board)})
            except ValueError as error:
                self.problem(raw.line_of("board"), str(error))
                return None
        if game == "kalah":
            return self.kalah_spec(raw)
        if game == "connect4":
            return self.connect4_spec(raw)
        if game == "nim":
            sticks, take = raw.get("sticks"), raw.get("take", 2)
            for key, value, low in (("sticks", sticks, 0), ("take", take, 1)):
                if isinstance(value, bool) or not isinstance(value, int) or value < low or value > 60:
                    self.problem(raw.line_of(key) if key in raw else raw.line,
                                 f"a nim task needs {key}: a whole number from {low} to 60")
                    return None
            last_loses = self.boolean(raw, "last_loses", True)
            return canonical({"kind": "nim", "sticks": sticks, "max_take": take,
                              "last_loses": last_loses})
        tree = raw.get("tree")
        if not isinstance(tree, LocatedDict) or len(tree) != 1:
            self.problem(raw.line_of("tree") if "tree" in raw else raw.line,
                         "a tree task needs tree: with exactly one root, e.g. "
                         "tree: {A: {B: [8, 7, 3], C: [2, 4]}}")
            return None
        builder = _TreeBuilder(self)
        root_key = next(iter(tree))
        root = builder.node(root_key, tree[root_key], tree.line_of(root_key))
        if root is None:
            return None
        spec = {"kind": "tree", "root": root, "nodes": builder.nodes}
        lose_states = raw.get("lose_states", [])
        if not isinstance(lose_states, list) or any(n not in builder.nodes or
                                                    builder.nodes[n].get("children")
                                                    for n in lose_states):
            self.problem(raw.line_of("lose_states"), "lose_states lists leaves of the tree "
                         "(isLose() holds there in the multi-agent convention)")
        else:
            for name in lose_states:
                builder.nodes[name]["outcome"] = "lose"
        if not self.tree_players(raw, builder, spec):
            return None
        return canonical(spec)

    def quiet_rule(self, raw, game, game_spec, depth, references) -> str | None:
        """The game spec with the task's quiescence rule: ``noisy:`` (which positions are
        noisy, a rule the game defines: ``grader/games/quiet.py``) and ``extension:`` (how
        many plies beyond the horizon a noisy position is searched on, 2 unless given)."""
        from .games import RULES
        from .games.quiet import DEFAULT_EXTENSION
        quiescent = [f for f, r in references.items() if r == "quiescence"]
        if "noisy" not in raw:
            if "extension" in raw:
                self.problem(raw.line_of("extension"), "extension: is how far a noisy "
                             "position extends the horizon; it needs the task's noisy: rule")
            if quiescent:
                self.problem(raw.line_of("functions") if "functions" in raw else raw.line,
                             f"{', '.join(quiescent)}: a quiescence search needs the task to "
                             "say which positions are noisy, e.g. noisy: captures")
            return game_spec
        rule, line = raw["noisy"], raw.line_of("noisy")
        known = getattr(RULES.get(game), "noisy_rules", ())
        if not known:
            games = ", ".join(f"{name} ({', '.join(rules.noisy_rules)})"
                              for name, rules in RULES.items()
                              if getattr(rules, "noisy_rules", ()))
            self.problem(line, f"noisy: needs a game that defines noisy positions; {game} "
                         f"does not (games that do, with their rules: {games})")
            return None
        if rule not in known:
            self.problem(line, f"unknown noisy rule {rule!r} for {game}; use one of "
                         f"{', '.join(known)}")
            return None
        extension = raw.get("extension", DEFAULT_EXTENSION)
        if isinstance(extension, bool) or not isinstance(extension, int) \
                or not 1 <= extension <= 10:
            self.problem(raw.line_of("extension"), "extension must be a whole number of plies "
                         "from 1 to 10 (how far beyond the horizon a noisy position is "
                         "searched on)")
            return None
        if depth is None:
            if "depth" not in raw:
                self.problem(line, "a quiescence search extends the horizon of a "
                             "depth-limited search: give the task a depth (depth: 2)")
            return None
        if game_spec is None:
            return None
        return canonical({**json.loads(game_spec), "noisy": rule, "extension": extension})

    def heuristic(self, raw, game, depth) -> str | None:
        """The task's ``heuristic:``, a name in ``reference.evaluation.EVALUATIONS``, or None."""
        if "heuristic" not in raw:
            return None
        from reference.evaluation import EVALUATIONS
        name, line = raw["heuristic"], raw.line_of("heuristic")
        if game not in HEURISTIC_GAMES:
            self.problem(line, f"heuristic: is for games without heuristic values of their "
                         f"own ({', '.join(HEURISTIC_GAMES)}); "
                         + ("a tree's heuristic values are written into it, e.g. \"C (4)\""
                            if game == "tree" else f"{game} cannot look one up"))
            return None
        if not isinstance(name, str) or name not in EVALUATIONS:
            self.problem(line, f"unknown heuristic {name!r}; known: "
                         f"{', '.join(sorted(EVALUATIONS))}")
            return None
        if depth is None:
            if "depth" in raw:    # an invalid depth, reported already
                return None
            self.problem(line, "a heuristic is evaluated at the horizon of a depth-limited "
                         "search: give the task a depth (depth: 2) or leave heuristic out")
            return None
        return name

    def heuristic_spec(self, game_spec, depth, heuristic, line) -> str | None:
        """The game spec with the heuristic's values at the task's positions
        (``grader.heuristics``): the child gets values, never the evaluation's code."""
        import json
        from reference.evaluation import EVALUATIONS
        from .heuristics import MAX_TREE_NODES, TableTooLarge, heuristic_table
        spec = json.loads(game_spec)
        try:
            table = heuristic_table(spec, depth, EVALUATIONS[heuristic])
        except TableTooLarge as error:
            self.problem(line, f"depth {depth} is too deep for heuristic {heuristic}: the game "
                         f"tree within the horizon has more than {MAX_TREE_NODES:,} nodes, "
                         "and every search of every student visits them all; use depth "
                         f"{error.largest_depth} or less, or a position with fewer free moves")
            return None
        except Exception as error:  # an evaluation written for another game
            self.problem(line, f"heuristic {heuristic} cannot evaluate the positions of this "
                         f"game ({type(error).__name__}: {error})")
            return None
        return canonical({**spec, "heuristic": heuristic, "heuristic_values": table})

    def kalah_spec(self, raw) -> str | None:
        """``pits`` and ``stones`` (6 and 4 by default), or an explicit position: ``board``,
        the 2n + 2 stone counts counter-clockwise from MAX's first pit; ``to_move`` (MAX by
        default) either way."""
        spec = {key: list(raw[key]) if isinstance(raw[key], LocatedList) else raw[key]
                for key in ("pits", "stones", "board", "to_move") if key in raw}
        if "board" in spec and "stones" in spec:
            self.problem(raw.line_of("stones"), "give either stones (every pit alike) or a "
                         "board (an explicit position), not both")
            return None
        try:
            board, to_move = kalah_position(spec)
        except KalahPositionError as error:
            self.problem(raw.line_of(error.key) if error.key in raw else raw.line, str(error))
            return None
        if "board" in spec:
            return canonical({"kind": "kalah", "board": list(board), "to_move": to_move})
        return canonical({"kind": "kalah", "pits": len(board) // 2 - 1,
                          "stones": board[0], "to_move": to_move})

    def connect4_spec(self, raw) -> str | None:
        """``game: connect4``: the board size (7x6, connect 4 unless given), who moves first,
        and the position (``board:``, rows from the top; an empty board when left out)."""
        from .games.connect4 import DEFAULT_SIZE, size_problem
        size = {key: raw.get(key, default) for key, default in DEFAULT_SIZE.items()}
        problem = size_problem(**size)
        if problem:
            wrong = next((key for key in DEFAULT_SIZE if key in raw and key in problem), None)
            self.problem(raw.line_of(wrong) if wrong else raw.line, problem)
            return None
        first = raw.get("first", "X")
        if first not in ("X", "O"):
            self.problem(raw.line_of("first"), f"first must be X or O (who moved first), "
                         f"not {first!r}")
            return None
        board = raw.get("board")
        if board is None:
            board = "/".join(["." * size["columns"]] * size["rows"])
        elif not isinstance(board, str):
            self.problem(raw.line_of("board"), "a connect4 board is text: the rows from the "
                         "top, one a line, e.g. board: |\n  .......\n  ...X...")
            return None
        try:
            state = read_board(board, first=first, **size)
        except BoardError as error:
            line = raw.line_of("board")
            if error.line is not None and "\n" in board:
                line += 1 + error.line          # a block scalar starts below its key
            self.problem(line, str(error))
            return None
        spec = {"kind": "connect4", **size, "board": state}
        if first != "X":
            spec["first"] = first
        return canonical(spec)

    def check_horizon(self, game_spec, depth, line, rounds: bool = False) -> None:
        """Every non-terminal node at the horizon needs a heuristic value (``rounds``: the
        depth counts rounds of all players, as agents of the multi-agent convention do)."""
        import json
        spec = json.loads(game_spec)
        if rounds:
            depth *= len(spec.get("players") or ("MAX", "MIN"))
        nodes = spec["nodes"]
        frontier = [spec["root"]]
        for _ in range(depth):
            frontier = [c for name in frontier for c in nodes[name].get("children", [])]
        missing = [n for n in frontier if nodes[n].get("children") and nodes[n].get("eval") is None]
        if missing:
            self.problem(line, f"depth {depth} evaluates the nodes {', '.join(missing)} at the "
                         "horizon, but they have no heuristic value; write them as "
                         "\"NAME (value)\"")

    # -- checks and pins ---------------------------------------------------------------
    def checks(self, raw, context, default_visibility) -> list[Check]:
        raw_checks = raw.get("checks")
        if not isinstance(raw_checks, LocatedList) or not raw_checks:
            self.problem(raw.line_of("checks") if "checks" in raw else raw.line,
                         "a task needs a non-empty list of checks, e.g. "
                         "checks: [{kind: value, points: 1}]")
            return []
        result: list[Check] = []
        used_ids: set[str] = set()
        for index, item in enumerate(raw_checks):
            line = raw_checks.line_of(index)
            if not isinstance(item, LocatedDict) or "kind" not in item:
                self.problem(line, "each check is a mapping with a kind, e.g. "
                             "{kind: value, points: 1}")
                continue
            kind = item["kind"]
            module = check_kinds.KINDS.get(kind)
            if module is None:
                self.problem(item.line_of("kind"), f"unknown check kind {kind!r}; known: "
                             f"{', '.join(sorted(check_kinds.KINDS))}")
                continue
            points = item.get("points", 1)
            if isinstance(points, bool) or not isinstance(points, (int, float)) or points < 0:
                self.problem(item.line_of("points"), "points must be a number >= 0")
                points = 0
            visibility = item.get("visibility", default_visibility)
            if visibility not in VISIBILITIES:
                self.problem(item.line_of("visibility"), "visibility must be visible, hidden "
                             "or after_due")
                visibility = "visible"
            if visibility == "after_due" and self.due is None:
                self.problem(item.line_of("visibility") if "visibility" in item else line,
                             "after_due needs the date in the course header, e.g. "
                             "due: 2026-12-01T23:59:00+01:00")
            functions = self.check_functions(item, context, module)
            options = module.parse_options(item, context, line)
            if "points" not in item and hasattr(module, "points_of"):
                points = module.points_of(options)   # a kind whose options say its points
            extra = set(item) - {"kind", "points", "visibility", "function"} - set(module.OPTIONS)
            for key in sorted(extra, key=str):
                self.problem(item.line_of(key), f"unknown option {key!r} for a {kind} check; "
                             f"known: {', '.join(module.OPTIONS) or 'none'}")
            for function in functions:
                check_id = f"{context.task_id}/{function}/{kind}"
                number = 2
                while check_id in used_ids:
                    check_id = f"{context.task_id}/{function}/{kind}-{number}"
                    number += 1
                used_ids.add(check_id)
                result.append(Check(id=check_id, task_id=context.task_id, kind=kind,
                                    function=function, points=float(points),
                                    visibility=visibility,
                                    options=tuple(sorted(options.items())),
                                    file=self.file, line=line))
        return result

    def check_functions(self, item, context, module) -> list[str]:
        """The task's functions a check applies to (judged by their model solution)."""
        if "function" in item:
            function = item["function"]
            if function not in context.functions:
                self.problem(item.line_of("function"), f"{function!r} is not one of this task's "
                             f"functions ({', '.join(context.functions)})")
                return []
            functions = [function]
        else:
            functions = list(context.functions)
        fitting = [f for f in functions if module.applies_to(context.references.get(f, f))]
        refused = REFUSED.get(context.convention, ())
        if module.KIND in refused:
            self.problem(item.line_of("kind"), f"a {module.KIND} check cannot judge the "
                         f"{context.convention} convention (its functions return "
                         f"{'the action alone, no value' if context.convention in ACTION_ONLY else 'no action'}"
                         "); judge the action, the visited nodes, their count or the horizon")
            return []
        if not fitting and functions:
            self.problem(item.line_of("kind"), f"a {module.KIND} check does not apply to "
                         f"{', '.join(functions)}")
        return fitting

    def pins(self, raw, functions, references) -> tuple:
        value = raw.get("expect")
        if value is None:
            return ()
        if not isinstance(value, LocatedDict):
            self.problem(raw.line_of("expect"), "'expect' maps a function to pinned answers, "
                         "e.g. {alphabeta: {value: 3, visited: 16}}")
            return ()
        from .pins import TECHNIQUE_PINS
        pins = []
        for function, fields in value.items():
            if function not in functions or (references.get(function) not in SEARCH_FUNCTIONS
                                             and references.get(function) not in TECHNIQUE_PINS):
                self.problem(value.line_of(function), f"cannot pin answers of {function!r}: pin "
                             "the search functions of this task")
                continue
            if not isinstance(fields, LocatedDict):
                self.problem(value.line_of(function), "pins are a mapping of value, action, "
                             "visited (a count) and pruned (a list of nodes)")
                continue
            self.unknown_keys(fields, TECHNIQUE_PINS.get(references.get(function),
                                                         ("value", "action", "visited", "pruned")))
            pins.append((function, tuple((k, _freeze(v), fields.line_of(k))
                                         for k, v in fields.items()), value.line_of(function)))
        return tuple(pins)


# Check kinds a convention cannot support: its functions return no value, or no action.
REFUSED = {"multi-agent": ("value",),
           "negamax-sign": ("action", "hygiene"),
           "aima": ("value",)}
# Conventions whose searches return the action alone.
ACTION_ONLY = ("multi-agent", "aima")


def _freeze(value):
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


class _TreeBuilder:
    """Nested YAML -> {name: {"children": [...], "eval": h} | {"value": v}}.

    A node is a key ``NAME`` or ``NAME (h)`` (h: heuristic value for depth-limited search),
    optionally with the label of the edge that leads to it, ``"ACTION -> NAME"`` (the action
    is then called ACTION instead of NAME), whose value is a mapping of named children, a
    list, or a number (a leaf).  In a list,
    bare numbers are leaves and nested lists inner nodes, named after their parent plus their
    position (``D`` -> ``D1``, ``D2``; ``A1`` -> ``A1.1``).

    n-player trees: a leaf is a utility vector written as a string ``"(1, 2, 6)"`` (a YAML
    list is a list of children).  The edge into a child of a chance node may carry its
    probability: ``"NAME p=0.25"`` as a key, ``"3 p=1/4"`` or ``"(1, 2, 6) p=0.5"`` as a leaf.
    """

    KEY = re.compile(r"^\s*(?:([^\s()]+)\s*->\s*)?([^\s()]+)\s*(?:\(\s*([^()]+?)\s*\))?"
                     r"(?:\s+p\s*=\s*(\S+))?\s*$")
    VECTOR = re.compile(r"^\s*\(([^()]*)\)\s*$")
    PROBABILITY = re.compile(r"^(.*?)\s+p\s*=\s*(\S+)\s*$")

    def __init__(self, reader: _SheetReader):
        self.reader = reader
        self.nodes: dict[str, dict] = {}
        self.labels: dict[str, str] = {}
        self.vectors: list = []          # (leaf, number of components, line)
        self.numbers: list = []          # (leaf, line) of leaves that are plain numbers
        self.probabilities: dict = {}    # child -> (probability of its edge, line)

    def node(self, key, value, line) -> str | None:
        match = self.KEY.match(str(key))
        if not match:
            self.reader.problem(line, f"{key!r} is not a node name; write NAME, "
                                "\"NAME (heuristic value)\" or \"ACTION -> NAME\"")
            return None
        label, name, heuristic = match.group(1), match.group(2), match.group(3)
        if match.group(4) is not None:
            self.probability(name, match.group(4), line)
        if label is not None:
            self.labels[name] = label
        node: dict[str, Any] = {}
        if heuristic is not None:
            number = self.number(heuristic, line)
            if number is not None:
                node["eval"] = number
        return self.add(name, node, value, line)

    def add(self, name, node, value, line) -> str | None:
        if name in self.nodes:
            self.reader.problem(line, f"node name {name!r} is used twice; node names must be "
                                "unique (they are the actions of their parent)")
            return None
        self.nodes[name] = node
        if isinstance(value, LocatedDict):
            if not value:
                self.reader.problem(line, f"node {name!r} has an empty mapping; give it "
                                    "children or a value")
                return None
            node["children"] = [c for c in (self.node(k, v, value.line_of(k))
                                            for k, v in value.items()) if c is not None]
            if any(c in self.labels for c in node["children"]):
                node["actions"] = [self.labels.get(c, c) for c in node["children"]]
                if len(set(node["actions"])) != len(node["actions"]):
                    self.reader.problem(line, f"node {name!r} has two edges with the same "
                                        "action label")
        elif isinstance(value, LocatedList):
            if not value:
                self.reader.problem(line, f"node {name!r} has an empty list of children")
                return None
            separator = "." if name[-1].isdigit() else ""
            children = []
            for index, item in enumerate(value, start=1):
                child = f"{name}{separator}{index}"
                item_line = value.line_of(index - 1)
                if isinstance(item, (LocatedList, LocatedDict)):
                    children.append(self.add(child, {}, item, item_line))
                else:
                    children.append(self.leaf(child, item, item_line))
            node["children"] = [c for c in children if c is not None]
        else:
            self.nodes.pop(name)
            return self.leaf(name, value, line)
        return name

    def leaf(self, name, value, line) -> str | None:
        if isinstance(value, str) and self.PROBABILITY.match(value):
            value, probability = self.PROBABILITY.match(value).groups()
            self.probability(name, probability, line)
        if isinstance(value, str) and self.VECTOR.match(value):
            number = self.vector(value, line)
            if number is not None:
                self.vectors.append((name, len(number), line))
        else:
            number = self.number(value, line)
            if number is not None:
                self.numbers.append((name, line))
        if number is None:
            return None
        if name in self.nodes:
            self.reader.problem(line, f"node name {name!r} is used twice")
            return None
        self.nodes[name] = {"value": number}
        return name

    def vector(self, text, line):
        parts = [part.strip() for part in self.VECTOR.match(text).group(1).split(",")]
        numbers = [parse_number(part) for part in parts]
        if len(parts) < 2 or any(n is None for n in numbers):
            self.reader.problem(line, f"{text!r} is not a utility vector; write one finite "
                                "number per player, e.g. \"(1, 2, 6)\"")
            return None
        return numbers

    def probability(self, name, text, line) -> None:
        numerator, _, denominator = text.partition("/")
        top, bottom = parse_number(numerator), parse_number(denominator) if denominator else 1
        value = top / bottom if top is not None and bottom not in (None, 0) else None
        if value is None or not 0 < value <= 1:
            self.reader.problem(line, f"p={text} is not a probability; write a number in "
                                "(0, 1] such as p=0.25 or p=1/4")
            return
        self.probabilities[name] = (value, line)

    def number(self, value, line):
        parsed = parse_number(value)
        if parsed is None:
            self.reader.problem(line, f"{value!r} is not a number; leaves and heuristic values "
                                "are finite numbers such as 3, -2.5 or 1e9")
        return parsed


def parse_number(value):
    """A finite int or float from YAML (which reads ``1e9`` as a string), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip()
        try:
            value = int(text)
        except ValueError:
            try:
                value = float(text)
            except ValueError:
                return None
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return value
    return value if isinstance(value, int) else None
