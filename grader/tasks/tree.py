"""A task's tree -> the tree's game spec: nodes named as the file names them, leaves named
after their parent, heuristic values, edge labels, chance edges' probabilities, utility
vectors of n-player trees, and the options of max^n (``paranoid``, ``alliances``, ``ties``).

How a tree is written (``tree: {A: {B: [8, 7, 3], C: [2, 4]}}``) is ``_TreeBuilder``'s
docstring; the manual's version is docs/instructors/task-files.md#trees.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ..calls import canonical
from ..yamlsrc import LocatedDict, LocatedList, parse_number
from .model import PLAYER_NAME, PLAYERS, TIE_RULES
from .sheet import Sheet


def tree_spec(sheet: Sheet, raw) -> str | None:
    """The spec of a tree task (``game: tree``): its tree, ``players``, ``lose_states`` and
    the n-player options; None where the tree has a problem (reported)."""
    tree = raw.get("tree")
    if tree is None:
        if not raw.given("tree"):
            sheet.problem(raw.line, "a tree task needs tree: with exactly one root, e.g. "
                          "tree: {A: {B: [8, 7, 3], C: [2, 4]}}")
        return None
    builder = _TreeBuilder(sheet)
    root_key = next(iter(tree))
    root = builder.node(root_key, tree[root_key], tree.line_of(root_key))
    if root is None:
        return None
    spec = {"kind": "tree", "root": root, "nodes": builder.nodes}
    lose_states = raw.get("lose_states", [])
    if any(n not in builder.nodes or builder.nodes[n].get("children") for n in lose_states):
        sheet.problem(raw.line_of("lose_states"), "lose_states lists leaves of the tree "
                      "(isLose() holds there in the multi-agent convention)")
    else:
        for name in lose_states:
            builder.nodes[name]["outcome"] = "lose"
    if not tree_players(sheet, raw, builder, spec):
        return None
    return canonical(spec)


def n_player_rules(sheet: Sheet, raw, game_spec, convention, depth, references) -> None:
    """What an n-player tree (utility vectors at the leaves) allows: the game convention,
    no depth limit, max^n, or a two-player search only under ``paranoid``; and what the
    options ``paranoid``, ``alliances``, ``ties`` and ``p=`` need."""
    spec = json.loads(game_spec)
    vector = spec.get("vector", False)
    line = raw.line_of("tree") if "tree" in raw else raw.line
    if not vector:
        for key in ("paranoid", "alliances", "ties"):
            if key in raw:
                sheet.problem(raw.line_of(key), f"{key} belongs to an n-player tree, whose "
                              "leaves are utility vectors such as \"(1, 2, 6)\"")
        for function, reference in references.items():
            if reference == "maxn":
                sheet.problem(line, f"{function!r} (max^n) needs an n-player tree: players "
                              "such as [A, B, C] and leaves such as \"(1, 2, 6)\"")
        return
    if spec.get("probabilities") and convention == "multi-agent":
        sheet.problem(raw.line_of("convention"), "the multi-agent convention has no "
                      "probabilities (its expectimax agents average); leave out p=")
    if convention != "game":
        sheet.problem(raw.line_of("convention"), "an n-player tree needs the game "
                      "convention (its game object has utilities() and players())")
    if depth is not None:
        sheet.problem(raw.line_of("depth"), "an n-player tree is searched to its leaves; "
                      "leave out depth")
    paranoid = spec.get("paranoid")
    for function, reference in references.items():
        if reference in ("minimax", "alphabeta", "negamax", "expectimax") and not paranoid:
            sheet.problem(raw.line_of("functions") if "functions" in raw else raw.line,
                          f"{function!r} is a two-player search, but this tree has "
                          f"{len(spec['players'])} players; use maxn, or set paranoid: "
                          f"{spec['players'][0]} (the root player against all others)")
        if reference == "maxn" and paranoid:
            sheet.problem(raw.line_of("paranoid"), f"{function!r} (max^n) lets every "
                          "player maximise its own component; paranoid is for minimax, "
                          "alphabeta, negamax or expectimax: give max^n its own task")
    if "ties" in raw and not any(r == "maxn" for r in references.values()):
        sheet.problem(raw.line_of("ties"), "ties is the tie rule of max^n; this task has "
                      "no function compared with maxn")
    if "alliances" in raw and not any(r == "maxn" for r in references.values()):
        sheet.problem(raw.line_of("alliances"), "alliances change max^n; this task has no "
                      "function compared with maxn")


def n_player_options(sheet: Sheet, raw, spec, players, cycle) -> bool:
    """``paranoid``, ``alliances`` and ``ties`` of an n-player tree into its spec."""
    ok = True
    if "paranoid" in raw:
        paranoid = raw["paranoid"]
        if paranoid != cycle[0]:
            sheet.problem(raw.line_of("paranoid"), f"paranoid names the player at the root "
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
            sheet.problem(raw.line_of("alliances"), "alliances split the players into "
                          f"coalitions, each player in exactly one, e.g. [[{players[0]}, "
                          f"{players[1]}], [{', '.join(players[2:]) or players[-1]}]]; "
                          f"the players are {', '.join(players)}")
            ok = False
        else:
            spec["alliances"] = [[str(m) for m in g] for g in groups]
    if "ties" in raw:
        if raw["ties"] != TIE_RULES[0]:
            spec["ties"] = raw["ties"]
    return ok


def tree_players(sheet: Sheet, raw, builder, spec) -> bool:
    """The ``players`` cycle: MAX/MIN/CHANCE for a tree with numbers at its leaves, any
    player names (and CHANCE) for an n-player tree with utility vectors; each vector has
    one component per player.  Probabilities only on the edges of chance nodes."""
    if raw.given("players") and "players" not in raw:
        return False        # refused by the schema, reported
    players = raw.get("players")
    line = raw.line_of("players" if "players" in raw else "tree")
    vectors, numbers = builder.vectors, builder.numbers
    if vectors:
        if numbers:
            name, number_line = numbers[0]
            sheet.problem(number_line, f"leaf {name!r} is a number, but this tree's leaves "
                          "are utility vectors (such as \"(1, 2, 6)\" at line "
                          f"{vectors[0][2]}); write every leaf as a vector")
            return False
        if (not isinstance(players, list) or len(players) < 2
                or any(not isinstance(p, str) or not PLAYER_NAME.match(p) for p in players)
                or players[0] == "CHANCE"):
            sheet.problem(line, "a tree with utility vectors names its players, one per "
                          "ply, cycling, e.g. players: [A, B, C] (CHANCE for chance "
                          "nodes, not at the root)")
            return False
        named = [p for p in dict.fromkeys(players) if p != "CHANCE"]
        for name, length, leaf_line in vectors:
            if length != len(named):
                sheet.problem(leaf_line, f"leaf {name!r} has {length} utilities, but the "
                              f"tree has {len(named)} players ({', '.join(named)}); "
                              "write one value per player, in that order")
        spec["players"] = list(players)
        spec["vector"] = True
        if not n_player_options(sheet, raw, spec, named, players):
            return False
    elif players is not None:
        if (not isinstance(players, list) or len(players) < 2 or players[0] != "MAX"
                or any(p not in PLAYERS[1:] for p in players[1:])):
            if isinstance(players, list) and players and all(
                    isinstance(p, str) and PLAYER_NAME.match(p) for p in players) \
                    and any(p not in PLAYERS for p in players):
                sheet.problem(line, f"players {', '.join(players)} name an n-player tree: "
                              "write its leaves as utility vectors, e.g. \"(1, 2, 6)\"")
            else:
                sheet.problem(line, "players is the cycle of players by depth: "
                              "MAX first, then MIN or CHANCE, e.g. [MAX, MIN, MIN]")
            return False
        spec["players"] = list(players)
    return tree_probabilities(sheet, builder, spec)


def tree_probabilities(sheet: Sheet, builder, spec) -> bool:
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
            sheet.problem(first_line, f"p= belongs to the edges of a chance node, but "
                          f"{cycle[depth[name] % len(cycle)]} moves at {name!r}")
            ok = False
        elif not all(given):
            missing = [c for c, g in zip(children, given) if not g]
            sheet.problem(first_line, f"chance node {name!r} gives p= for some edges but "
                          f"not for {', '.join(missing)}; give every edge its probability")
            ok = False
        elif not math.isclose(sum(g[0] for g in given), 1.0, abs_tol=1e-9):
            sheet.problem(first_line, f"the probabilities of chance node {name!r} sum to "
                          f"{sum(g[0] for g in given):g}, not 1")
            ok = False
        else:
            node["probabilities"] = [g[0] for g in given]
    if ok and any("probabilities" in n for n in builder.nodes.values()):
        spec["probabilities"] = True
    return ok


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

    def __init__(self, sheet: Sheet):
        self.reader = sheet
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


