"""``grader solve``: the reference's answers of every task, as a table or as JSON (for
instructors)."""

from __future__ import annotations

import json

from .common import EXIT_BAD_INPUT, EXIT_OK, NO_CACHE_HELP, console, load_tasks, reference_answers

NAME = "solve"

SOLVE_EPILOG = """\
examples:
  grader solve                                  # a table per task
  grader solve tasks/blatt3.yaml --json         # one JSON object per task and function

exit status: 0 printed; 2 the task files are malformed."""


def register(command) -> None:
    solve = command(NAME, help="print the reference answers",
                    description="Print the reference's answers of every task: "
                    "value, move, optimal moves, visited nodes and their order, "
                    "and the pruned nodes of trees (for instructors).",
                    epilog=SOLVE_EPILOG)
    solve.add_argument("path", nargs="?", default="tasks", help="task file or folder [tasks]")
    solve.add_argument("--json", action="store_true", help="a JSON array instead of a table")
    solve.add_argument("--no-cache", action="store_true", help=NO_CACHE_HELP)


def run(args) -> int:
    err = console(stderr=True)
    course = load_tasks(args.path, err)
    if course is None:
        return EXIT_BAD_INPUT
    answers = reference_answers(course, args)
    rows = solutions(course, answers)
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return EXIT_OK
    from rich.table import Table
    table = Table(title=course.title)
    # A depth-limited game's heuristic is shown by name (never its formula or values).
    heuristics = any("heuristic" in row for row in rows)
    for column in ("task", "function", "value", "move", "visited", "pruned") \
            + (("depth", "heuristic") if heuristics else ()):
        table.add_column(column)
    for row in rows:
        if row["value"] is None and "seed" in row:
            continue
        cells = [row["task"], row["function"], str(row["value"]), str(row["move"]),
                 str(row["visited"] if row["visited"] is not None else ""),
                 ", ".join(row.get("pruned", [])) or ""]
        if heuristics:
            cells += [str(row.get("depth", "")), row.get("heuristic", "")]
        table.add_row(*cells)
    console().print(table)
    return EXIT_OK


def solutions(course, answers) -> list[dict]:
    """One object per task and function: the reference's answers."""
    from ..checks.common import search_call
    from ..checks.evaluate import calls as evaluate_calls
    from ..answers.pins import pruned_nodes
    from ..tasks import SEARCH_FUNCTIONS
    rows = []
    for task in course.tasks:
        for function in task.functions:
            reference = task.reference_of(function)
            if task.game_spec is not None and reference in SEARCH_FUNCTIONS:
                answer = answers[search_call(task, function)][0]
                row = {"task": task.id, "function": function, "value": answer["value"],
                       "move": answer["action"], "optimal_moves": answer["optimal_actions"],
                       "visited": len(answer["visits"]), "visit_order": answer["visits"]}
                if task.depth:
                    row["depth"] = task.depth
                if task.heuristic:
                    row["heuristic"] = task.heuristic
                if task.game == "tree" and reference == "alphabeta":
                    row["pruned"] = pruned_nodes(task, function, answers)
                rows.append(row)
            elif function == "evaluate":
                for check in task.checks:
                    if check.kind == "evaluate":
                        value = answers[evaluate_calls(task, check)[0]][0]["value"]
                        rows.append({"task": task.id, "function": function, "value": value,
                                     "move": None, "visited": None,
                                     "board": check.option("board"),
                                     "player": check.option("player")})
            if task.game_spec is not None and reference in ("iterative_deepening",
                                                            "principal_variation"):
                rows.append(deepening_solution(task, function, answers))
            rows += ordering_solutions(task, function, answers)
            for check in task.checks:
                if check.kind == "random-trees" and check.function == function:
                    rows.append({"task": task.id, "function": function, "value": None,
                                 "move": None, "visited": None, "check": check.id,
                                 "seed": check.option("seed"), "trees": check.option("trees")})
    return rows


def deepening_solution(task, function, answers) -> dict:
    """Iterative deepening's row (the deepest iteration's value and move, each iteration's
    values) or the principal variation's (its value, and the line as the move)."""
    from ..checks.common import search_call
    answer = answers[search_call(task, function)][0]
    value, move = answer["returned"][-1] if "iterations" in answer else answer["returned"]
    row = {"task": task.id, "function": function, "value": value, "move": move,
           "visited": len(answer["visits"]), "visit_order": answer["visits"],
           "depth": task.depth}
    if "iterations" in answer:
        row["values"] = [facts["value"] for facts in answer["iterations"]]
    if task.heuristic:
        row["heuristic"] = task.heuristic
    return row


def ordering_solutions(task, function, answers) -> list[dict]:
    """A move ordering's rows: alpha-beta with the model ordering (value, move, nodes) and
    the nodes in the game's own order (``plain_visited``), to choose an ``at_most`` from."""
    from ..checks import ordering
    rows = []
    for check in task.checks:
        if check.kind == ordering.KIND and check.function == function:
            search = answers[ordering.calls(task, check)[0]][0]["search"]
            rows.append({"task": task.id, "function": function,
                         "value": search["model"]["value"], "move": search["model"]["action"],
                         "visited": search["model"]["count"],
                         "plain_visited": search["plain"]["count"]})
    return rows
