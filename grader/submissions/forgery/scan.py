"""The forgery scan of a submission folder: every source file read (never a link, never
executed), the work bounded (files, bytes, directory entries, findings), what could not be
read listed as such; and a finding's plain form for results.json."""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from .rules import COMPILED_SUFFIXES, KINDS, MAX_FINDINGS, MAX_WHAT, NOT_SCANNED, SOURCE_SUFFIXES
from .syntax import scan_source


@dataclass(frozen=True)
class Finding:
    file: str      # path relative to the submission folder, POSIX, escaped
    line: int      # 1-based; 1 for whole-file findings (not-scanned)
    kind: str      # one of KINDS
    what: str      # the construct found, short and escaped


def findings_json(findings: list[Finding]) -> list[dict]:
    """Plain dicts for results.json, in the scan's order."""
    return [{"file": f.file, "line": f.line, "kind": f.kind, "what": f.what} for f in findings]


def escape(text: str, limit: int = 200) -> str:
    """Printable text: control, format and separator characters, undecodable bytes (kept by
    the file system as surrogates) and backslashes are written as escapes, so a file name
    cannot move the cursor or fake another line in a terminal or a report."""
    out = []
    for char in text:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif char == "\\":
            out.append("\\\\")
        elif unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
                       if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(char)
    shown = "".join(out)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


def scan(folder: Path, max_files: int = 500, max_bytes: int = 2 << 20) -> list[Finding]:
    """Every place in the submission's source that reaches for the runner: at most
    ``MAX_FINDINGS``, one per (file, line, kind), ordered by file and line.  Never raises."""
    try:
        return _scan(Path(folder), max_files, max_bytes)
    except Exception as error:  # a bug here must not stop grading, nor pass as "clean"
        return [Finding(".", 1, NOT_SCANNED, f"scanner error: {type(error).__name__}")]


def _scan(folder: Path, max_files: int, max_bytes: int) -> list[Finding]:
    found: dict[tuple, Finding] = {}
    unscanned: dict[tuple, Finding] = {}

    def skip(relative: str, reason: str) -> None:
        finding = Finding(escape(relative), 1, NOT_SCANNED, escape(reason, MAX_WHAT))
        unscanned.setdefault((finding.file, finding.line), finding)

    sources, skipped = _walk(folder, max_files)
    for relative, reason in skipped:
        skip(relative, reason)
    # Bounds the total work too, not only each file's.
    budget = max(max_bytes, 1) * 4
    for relative, path in sources:
        if len(found) >= MAX_FINDINGS:
            break
        try:
            size = os.lstat(path).st_size
            if size > max_bytes or size > budget:
                skip(relative, f"{size} bytes, more than {min(max_bytes, budget)}")
                continue
            with open(path, "rb", opener=_no_follow) as handle:
                data = handle.read(max_bytes + 1)
        except OSError as error:
            skip(relative, f"unreadable: {error.strerror}")
            continue
        if len(data) > max_bytes:  # grew since lstat
            skip(relative, f"more than {max_bytes} bytes")
            continue
        budget -= len(data)
        try:
            results = scan_source(_decode(data))
        except Exception as error:  # this file only: the others are still scanned
            skip(relative, f"scanner error: {type(error).__name__}")
            continue
        name = escape(relative)
        for line, kind, what in results:
            finding = Finding(name, line, kind, escape(what, MAX_WHAT))
            found.setdefault((finding.file, finding.line, finding.kind), finding)

    def order(finding: Finding) -> tuple:
        return finding.file, finding.line, KINDS.index(finding.kind)

    # What was found comes first when there is too much; files not scanned fill the rest,
    # so that many compiled files cannot push a real finding out of the list.
    chosen = sorted(found.values(), key=order)[:MAX_FINDINGS]
    chosen += sorted(unscanned.values(), key=order)[:MAX_FINDINGS - len(chosen)]
    return sorted(chosen, key=order)


def _no_follow(path, flags):
    return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))


def _decode(data: bytes) -> str:
    """The text, as Python would read it where it can; bytes that are not UTF-8 replaced."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8", errors="replace")


def _walk(folder: Path, max_files: int) -> tuple[list, list]:
    """The Python sources under ``folder`` (relative POSIX name, path), sorted, and the files
    that hold code but are not scanned (relative name, reason).  Symbolic links are never
    followed, neither to files nor to folders."""
    sources, unscanned = [], []
    entries_left = max(max_files, 1) * 20
    too_many = False
    pending = [(folder, "")]
    while pending:
        directory, prefix = pending.pop()
        try:
            with os.scandir(directory) as iterator:
                entries = []
                for entry in iterator:
                    entries_left -= 1
                    if entries_left < 0:
                        unscanned.append((prefix or ".", "too many files and folders to "
                                                         "scan them all"))
                        return sorted(sources), unscanned
                    entries.append(entry)
        except OSError:
            continue
        folders = []
        for entry in sorted(entries, key=lambda e: e.name):
            relative = prefix + entry.name
            try:
                if entry.is_symlink():
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":  # caches are removed before grading
                        folders.append((entry.path, relative + "/"))
                elif entry.is_file(follow_symlinks=False):
                    if entry.name.endswith(SOURCE_SUFFIXES):
                        if len(sources) < max_files:
                            sources.append((relative, entry.path))
                        elif not too_many:  # one finding says it; the rest are not listed
                            too_many = True
                            unscanned.append((relative, f"more than {max_files} Python "
                                                        f"files: this and later ones"))
                    elif entry.name.endswith(COMPILED_SUFFIXES):
                        unscanned.append((relative, "compiled code"))
            except OSError:
                continue
        # Depth first, by name: a folder's own files before its subfolders'.
        pending.extend(reversed(folders))
    return sorted(sources), unscanned
