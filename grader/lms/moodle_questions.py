"""A hand task's variants as a Moodle question bank: Moodle XML, one Cloze ("embedded
answers") question per variant, which Moodle grades itself.

Each question shows the variant's tree as an image (an SVG file embedded in the question
text, ``@@PLUGINFILE@@``) and a table with a field per answer:

* a node's minimax value: NUMERICAL (tolerance 0; 0.01 where values are not whole);
* the bounds α and β a node is entered with, and the value it returns: a drop-down
  (MULTICHOICE) of “–” (never entered), −∞, the tree's leaf values and +∞;
* the cuts: per inner node a drop-down “never entered / no cut / after X / after Y / …”,
  the child after which the node cuts (its later children are the cut edges);
* the visited nodes: NUMERICAL; a best order: SHORTANSWER with every best order in the
  usual spellings (``F, E, G``, ``F,E,G``, ``F E G``); the best move: a drop-down with every
  optimal move right.

Each field's weight is its share of its question's points (``{w:...}``; the task's points
scaled to whole numbers, as Cloze weights are); the general feedback shows the solved tree.
All variants of a task go into one category (``$course$/top/COURSE/TASK``), so that a quiz
can draw one with a random question (see the README, "Inside Moodle").
"""

from __future__ import annotations

import base64
import html
import math
from fractions import Fraction

from markupsafe import Markup

CLOZE_SPECIAL = '}#~/"\\'
NOT_VISITED = "–"


def cloze_text(text: str) -> str:
    """An answer as Cloze writes it inside HTML: escaped for HTML, then its special
    characters backslashed."""
    text = html.escape(str(text), quote=False)
    return "".join("\\" + c if c in CLOZE_SPECIAL else c for c in text)


def _number(value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def _bound(value) -> str:
    if value == "pruned":
        return NOT_VISITED
    if isinstance(value, float) and math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    return _number(value)


def multichoice(options: list[str], right) -> str:
    right = {right} if isinstance(right, str) else set(right)
    return "MULTICHOICE:" + "~".join(("%100%" if option in right else "") + cloze_text(option)
                                      for option in options)


def _spellings(order: list[str]) -> list[str]:
    forms = [", ".join(order), ",".join(order), " ".join(order)]
    if all(len(name) == 1 for name in order):
        forms.append("".join(order))
    return list(dict.fromkeys(forms))


def fields_of(task, answer: dict, questions: list, words) -> list[dict]:
    """The Cloze fields of one variant, in the order of the question text: each with its
    ``question`` (check kind), ``node``, ``part`` (``value``, ``alpha``, ``beta``,
    ``returns``, ``cut``, ``visited``, ``order``, ``move``), ``type``, ``answers`` (the
    option texts or accepted texts), ``right`` (those that earn full marks) and ``points``
    (its exact share)."""
    run = answer.get("alphabeta") or {}
    leaves = sorted({_number(v) for v in answer["leaves"].values()
                     if not isinstance(v, list)}, key=float)
    bounds = [NOT_VISITED, "−∞", *leaves, "+∞"]
    returned = [NOT_VISITED, *leaves]
    fields, examples = [], {}
    for question in questions:
        kind = question["kind"]
        parts = []
        if kind == "hand-values":
            for node in question["nodes"]:
                value = answer["values"][node]
                if isinstance(value, list):
                    shown = "(" + ", ".join(_number(v) for v in value) + ")"
                    parts.append((node, "value", "SHORTANSWER", [shown, shown.strip("()")],
                                  [shown, shown.strip("()")]))
                else:
                    parts.append((node, "value", "NUMERICAL", [_number(value)],
                                  [_number(value)]))
        elif kind == "hand-intervals":
            for node in question["nodes"]:
                interval = run["intervals"].get(node, ["pruned", "pruned"])
                parts.append((node, "alpha", "MULTICHOICE", bounds, [_bound(interval[0])]))
                parts.append((node, "beta", "MULTICHOICE", bounds, [_bound(interval[1])]))
        elif kind == "hand-returns":
            for node in question["nodes"]:
                parts.append((node, "returns", "MULTICHOICE", returned,
                              [_bound(run["returns"].get(node, "pruned"))]))
        elif kind == "hand-cuts":
            for node in answer["order"]:
                children = answer["children"].get(node)
                if not children:
                    continue
                options = [words("moodle_not_visited"), words("moodle_no_cut"),
                           *(words("moodle_after", child=c) for c in children[:-1])]
                if node not in run["intervals"]:
                    right = options[0]
                elif node in run["cut_after"]:
                    right = words("moodle_after", child=run["cut_after"][node])
                else:
                    right = options[1]
                parts.append((node, "cut", "MULTICHOICE", options, [right]))
        elif kind == "hand-visited":
            count = str(len(run["visits"]))
            parts.append(("", "visited", "NUMERICAL", [count], [count]))
        elif kind == "hand-order":
            for node in question["nodes"]:
                table = answer["orders"][node]
                best = [order for order, count in table["orders"] if count == table["fewest"]]
                accepted = [form for order in best for form in _spellings(order)]
                parts.append((node, "order", "SHORTANSWER", accepted, accepted))
                examples[node] = ", ".join(answer["children"][node])
        elif kind == "hand-move":
            root = answer["root"]
            moves = list(zip(answer["actions"][root], answer["children"][root]))
            options = [action for action, _ in moves]
            right = [action for action, child in moves if child in answer["optimal_moves"]]
            parts.append(("", "move", "MULTICHOICE", options, right))
        share = Fraction(str(question["points"])) / max(1, len(parts))
        for node, part, kind_of_field, options, right in parts:
            fields.append({"question": kind, "node": node, "part": part,
                           "type": kind_of_field, "answers": options, "right": right,
                           "points": share, "example": examples.get(node, "")})
    return fields


def weights(fields: list[dict]) -> int:
    """The factor that makes every field's points a whole number (Cloze weights are)."""
    factor = 1
    for field in fields:
        factor = math.lcm(factor, field["points"].denominator)
    return factor


def cloze(field: dict, factor: int) -> str:
    weight = int(field["points"] * factor)
    if field["type"] == "NUMERICAL":
        value = field["right"][0]
        tolerance = "0" if float(value).is_integer() else "0.01"
        body = f"NUMERICAL:={cloze_text(value)}:{tolerance}"
    elif field["type"] == "SHORTANSWER":
        body = "SHORTANSWER:" + "~".join("=" + cloze_text(text) for text in field["right"])
    else:
        body = multichoice(field["answers"], field["right"])
    return "{" + f"{weight}:{body}" + "}"


def _svg_file(tree: dict, title: str) -> str:
    from ..report.templating import TEMPLATES
    svg = TEMPLATES.get_template("hand_tree_file.svg.j2").render(tree=tree, title=title)
    return base64.b64encode(svg.encode("utf-8")).decode("ascii")


def cdata(text: str) -> Markup:
    return Markup("<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>")


def moodle_questions(course, tasks, answers, catalogue, calls) -> str:
    """The question bank of ``calls`` (each student's by-hand call: one question per distinct
    variant), as Moodle XML."""
    import json

    from ..hand.questions import drawing
    from ..hand.questions import questions_of
    from ..report.hand import blank, labels_of, solution
    from ..report.templating import TEMPLATES

    def words(key, **facts):
        return catalogue.text(f"hand.{key}", **facts)

    by_task = {task.id: task for task in tasks}
    seen, categories = set(), []
    labels = labels_of(catalogue)
    for call in calls:
        item = json.loads(call.items[0])
        answer = answers[call][0]
        task = by_task[item["task"]]
        if (task.id, answer["variant"]) in seen:
            continue
        seen.add((task.id, answer["variant"]))
        questions = questions_of(task, answer)
        fields = fields_of(task, answer, questions, words)
        factor = weights(fields)
        for field in fields:
            field["cloze"] = cloze(field, factor)
        shape = drawing(answer, limit=None)
        code = answer["variant"]
        question = {
            "name": f"{task.title} ({code})", "idnumber": f"{task.id}-{code}",
            "image": f"tree-{task.id}-{code}.svg", "solution_image": f"solution-{task.id}-{code}.svg",
            "svg": _svg_file(blank(shape), words("sheet_tree")),
            "solution_svg": _svg_file(solution(answer, shape, labels), words("sheet_tree")),
            "fields": fields, "questions": questions, "task": task, "code": code,
            "rule": "equal" if task.prune_on_equality else "strict",
            "mark": sum(int(f["points"] * factor) for f in fields)}
        question["text"] = cdata(TEMPLATES.get_template("moodle_question.html.j2").render(
            q=question, t=words, titles={kind: catalogue.text(f"kind.{kind}") for kind in
                                         {q["kind"] for q in questions}}))
        question["feedback"] = cdata(f'<p><img src="@@PLUGINFILE@@/{question["solution_image"]}"'
                                     f' alt="{html.escape(words("sheet_tree"))}"></p>')
        category = next((c for c in categories if c["task"] is task), None)
        if category is None:
            category = {"task": task, "path": f"$course$/top/{course.title}/{task.id}",
                        "questions": []}
            categories.append(category)
        category["questions"].append(question)
    return TEMPLATES.get_template("moodle_questions.xml.j2").render(categories=categories)
