"""Task files -> a ``Course``: every file of a course read, then what only the whole course
can tell (a task id used twice, a module provided twice, a leaderboard column naming a task
that no file has).

``load_course(path)`` reads a file or every ``*.yaml`` in a folder and returns a ``Course``,
or raises ``TaskFileError`` listing *every* problem found (``file:line: what is wrong``, and
what to do), before any grading starts.
"""

from __future__ import annotations

from pathlib import Path

from ..yamlsrc import Problem, line_of, load
from .header import Header, read_header
from .model import Course, Provided, Task, TaskFileError
from .fitted import fitted_before, remember_fitted
from .sheet import Sheet
from .task import read_task


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
        text = _text_of(file)
        fitted = text is not None and fitted_before(text)
        sheet = Sheet(str(file), problems, warnings, fitted=fitted)
        before = len(problems)
        header, sheet_tasks = read_file(sheet, text)
        if not fitted and text is not None and sheet_tasks is not None \
                and len(problems) == before:
            remember_fitted(text)      # read without a problem: not checked again unchanged
        leaderboard += header.leaderboard
        for module in header.provided:
            if module.name in provided and provided[module.name].source != module.source:
                problems.append(Problem(module.file, module.line, f"{module.name}.py is "
                                        f"provided twice with different contents (first at "
                                        f"{provided[module.name].file}:"
                                        f"{provided[module.name].line}); provide it once"))
            provided.setdefault(module.name, module)
        if header.provided_wins is not None:
            provided_wins.append(header.provided_wins)
        if sheet_tasks is None:
            continue
        titles.append(header.title)
        languages.append(header.language)
        packages += [name for name in header.packages if name not in packages]
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


def _text_of(file: Path) -> bytes | None:
    try:
        return file.read_bytes()
    except OSError:
        return None     # read_file says what is wrong with it


def read_file(sheet: Sheet, data: bytes | None = None) -> tuple[Header, list[Task] | None]:
    """One task file: its header, and its tasks (None where the file is not a task file at
    all: not YAML, or not a mapping).  ``data``: the file's bytes, where they were read
    already (the same bytes whose fit to the schema was looked up)."""
    document, problems = load(sheet.file, data)
    sheet.problems.extend(problems)
    if document is None:
        return Header(), None
    document = sheet.section("document", document, line_of(document, 1))
    if document is None:
        return Header(), None
    header = (read_header(sheet, document["course"], document.line_of("course"))
              if "course" in document else Header())
    raw_tasks = document.get("tasks")
    if raw_tasks is None:           # missing or refused: the schema said so
        return header, []
    tasks = []
    for index, raw in enumerate(raw_tasks):
        task = read_task(sheet, raw, raw_tasks.line_of(index), header)
        if task is not None:
            tasks.append(task)
    return header, tasks


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
