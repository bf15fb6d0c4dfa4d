"""The forgery scan of a file that does not parse (a syntax error, Python 2): token by token,
then, past the point where the tokenizer gives up, line by line as raw text.  Aliases are not
followed in this mode."""

from __future__ import annotations

import ast
import io
import re
import tokenize

from .rules import (BUILTINS, DESCRIPTOR, FD_CALLS, FRAME, MAX_WHAT, MODULES, NATIVE, RUNNER,
                    STRINGS, string_findings)

WORDS = dict(STRINGS)
WORDS.pop("__builtins__")
WORDS.update({"ctypes": NATIVE, "_ctypes": NATIVE, "cffi": NATIVE})
PAIRS = {("sys", "modules"): RUNNER, ("inspect", "stack"): FRAME, ("inspect", "trace"): FRAME,
         ("inspect", "getmodule"): RUNNER}
FD_FUNCTIONS = {name.partition(".")[2] for name in FD_CALLS if name.startswith("os.")}
RAW_WORD = re.compile(r"\b(" + "|".join(map(re.escape, sorted(WORDS))) + r")\b")
RAW_IMPORT = re.compile(r"^\s*(?:import|from)\s+(grader|__main__|ctypes|cffi)\b")
RAW_PAIR = re.compile(r"\b(sys\s*\.\s*modules|inspect\s*\.\s*(?:stack|trace|getmodule))\b")
RAW_FD = re.compile(r"\bos\s*\.\s*(" + "|".join(sorted(FD_FUNCTIONS)) + r")\s*\(\s*(?![12]\s*[,)])")
RAW_PATCH = re.compile(r"\b(json|builtins|__builtin__|__builtins__)\s*(?:\.\s*\w+|\[[^]]{0,200}\])"
                       r"\s*=(?!=)")
MAX_RAW_LINE = 10_000
RAW_STRING = re.compile(r"(['\"])(.*?)\1")


def scan_tokens(text: str) -> list[tuple[int, str, str]]:
    """(line, kind, what) from the tokens of a file that does not parse, and from raw lines
    past the point where the tokenizer gives up."""
    found = []
    tokens = []
    stopped_at = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in (tokenize.NAME, tokenize.OP, tokenize.STRING, tokenize.NUMBER,
                              tokenize.NEWLINE, tokenize.NL):
                tokens.append(token)
    except tokenize.TokenError as error:  # an unterminated string or bracket, at its start
        position = error.args[1] if len(error.args) > 1 else None
        stopped_at = position[0] if isinstance(position, tuple) else _after(tokens)
    except SyntaxError as error:  # bad indentation, null bytes
        stopped_at = error.lineno or _after(tokens)
    except Exception:
        stopped_at = _after(tokens)
    texts = [t.string for t in tokens]
    text_lines = text.splitlines()
    for index, token in enumerate(tokens):
        line = token.start[0]
        after = texts[index + 1:index + 6]
        if token.type == tokenize.STRING:
            value = _literal(token.string)
            if value == "__main__" and _main_guard_line(text_lines, line):
                continue
            for kind, what in string_findings(value, token.string[:MAX_WHAT]):
                found.append((line, kind, what))
            continue
        if token.type != tokenize.NAME:
            continue
        word = token.string
        before = texts[index - 1] if index else ""
        if word in WORDS:
            found.append((line, WORDS[word], word))
        if word in ("import", "from") and after and after[0] in MODULES:
            found.append((line, MODULES[after[0]], f"{word} {after[0]}"))
        if len(after) >= 2 and after[0] == "." and (word, after[1]) in PAIRS:
            found.append((line, PAIRS[(word, after[1])], f"{word}.{after[1]}"))
        if word == "os" and len(after) >= 4 and after[0] == "." and after[1] in FD_FUNCTIONS \
                and after[2] == "(" and not (after[3] in ("1", "2") and after[4:5] in (
                    [","], [")"])):
            found.append((line, DESCRIPTOR, f"os.{after[1]}({after[3]}, …)"))
        if word == "open" and before != "." and len(after) >= 2 and after[0] == "(" \
                and tokens[index + 2].type == tokenize.NUMBER and after[1] not in ("1", "2"):
            found.append((line, DESCRIPTOR, f"open({after[1]}, …)"))
        if word in ("json", "builtins", "__builtin__", "__builtins__") and before != "." \
                and len(after) >= 3:
            kind = RUNNER if word == "json" else BUILTINS
            if after[0] == "." and after[2] == "=":
                found.append((line, kind, f"{word}.{after[1]} = …"))
            elif after[0] == "[" and "]" in after and after[after.index("]") + 1:][:1] == ["="]:
                found.append((line, kind, f"{word}[…] = …"))
    if stopped_at is not None:
        found.extend(_scan_raw(text.splitlines()[stopped_at - 1:], stopped_at))
    return found


def _main_guard_line(lines: list[str], line: int) -> bool:
    """Whether the line compares ``__name__`` (so its ``"__main__"`` is the usual guard)."""
    return 0 < line <= len(lines) and "__name__" in lines[line - 1]


def _after(tokens: list) -> int:
    return tokens[-1].start[0] + 1 if tokens else 1


def _scan_raw(lines: list[str], first: int) -> list[tuple[int, str, str]]:
    """Plain text matching, for the part of a file even the tokenizer cannot read."""
    found = []
    for number, text in enumerate(lines, first):
        text = text[:MAX_RAW_LINE]  # keeps the matching linear in the file's size
        for match in RAW_WORD.finditer(text):
            found.append((number, WORDS[match.group(1)], match.group(1)))
        match = RAW_IMPORT.match(text)
        if match:
            found.append((number, MODULES[match.group(1)], match.group(0).strip()))
        for match in RAW_PAIR.finditer(text):
            pair = tuple(part.strip() for part in match.group(1).split("."))
            found.append((number, PAIRS[pair], ".".join(pair)))
        for match in RAW_FD.finditer(text):
            found.append((number, DESCRIPTOR, f"os.{match.group(1)}(…)"))
        for match in RAW_PATCH.finditer(text):
            found.append((number, RUNNER if match.group(1) == "json" else BUILTINS,
                          match.group(0).strip()))
        for match in RAW_STRING.finditer(text):
            if match.group(2) == "__main__" and "__name__" in text:
                continue
            for kind, what in string_findings(match.group(2), match.group(0)):
                found.append((number, kind, what))
    return found


def _literal(token: str) -> str:
    """A string token's value, without evaluating anything: ``ast.literal_eval`` only reads
    literals; Python 2 prefixes it does not know fall back to stripping the quotes."""
    try:
        value = ast.literal_eval(token)
    except Exception:
        value = token.lstrip("bBrRuUfF").strip("'\"")
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    return value if isinstance(value, str) else ""
