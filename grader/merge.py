"""``grader merge``: the reports of a batch graded as shards (``grader grade --shard K/N``),
combined into the reports of one run.

Each shard's ``.batch.json`` (written with its exports, see ``lms.exports.write_batch``)
records which shard it is, the task files' hash, what the whole listing held, the students it
graded, its language, time and jobs.  Merging checks those records against each other (every
shard of one split exactly once, the same listing, task files and language, nothing
interrupted, no student twice), rebuilds each student's result from its state file, copies
the student folders as the shards wrote them and writes the batch's exports with the same
writer a single run uses, so that they are a single run's apart from timing.

What it must never do: merge what a single run could not have produced (shards of different
task files, listings or languages; a student twice or missing), write anything before every
shard has been checked, or crash on a shard folder that is missing or half-written (every such
problem is reported: which file, what, and what to do).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from .batch import STATE_FILE, result_from_state
from .report.messages import LANGUAGES, Catalogue
from .report.writers import BATCH_RECORD
from .lms.exports import write_batch
from .submissions.staging import tasks_hash


class MergeError(Exception):
    """Shard outputs that cannot be merged; ``problems`` says each one for a person."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass
class ShardOutput:
    folder: Path
    record: dict            # its .batch.json

    @property
    def shard(self) -> str:
        return f"{self.record['shard']['index']}/{self.record['shard']['count']}"

    def resume_hint(self) -> str:
        return f"grader grade --shard {self.shard} --resume --out {self.folder}"


def read_records(folders: list[Path]) -> list[ShardOutput]:
    """Each folder's batch record; every folder that has none (or not a shard's) reported."""
    outputs, problems = [], []
    for folder in folders:
        if not folder.is_dir():
            problems.append(f"{folder}: no such folder; pass the --out folder of each "
                            "`grader grade --shard K/N` run")
            continue
        path = folder / BATCH_RECORD
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            problems.append(f"{path}: missing: {folder} is not the output of a finished "
                            "`grader grade --shard K/N` (still running, killed before its "
                            "reports were written, or copied without its hidden files); grade "
                            "that shard again with --resume and the same --out")
            continue
        except (OSError, ValueError, RecursionError) as error:
            problems.append(f"{path}: unreadable ({type(error).__name__}: {error}); grade that "
                            "shard again with --resume and the same --out")
            continue
        shard = record.get("shard") if isinstance(record, dict) else None
        if not isinstance(shard, dict) \
                or not all(isinstance(shard.get(key), int)
                           for key in ("index", "count", "listed")) \
                or not 1 <= shard["index"] <= shard["count"]:
            problems.append(f"{path}: {folder} was graded without --shard (or by an older "
                            "grader); merge combines the outputs of `grader grade --shard K/N`")
            continue
        students = record.get("students")
        if not isinstance(students, list) or not all(_is_student_id(s) for s in students):
            problems.append(f"{path}: no list of student ids; grade that shard again")
            continue
        if not all(_is_number(record.get(key)) for key in ("seconds", "jobs")):
            problems.append(f"{path}: no seconds or jobs; grade that shard again")
            continue
        outputs.append(ShardOutput(folder, record))
    if problems:
        raise MergeError(problems)
    return outputs


def _is_student_id(name) -> bool:
    """A name ``find`` could have given: one path component, not hidden (a record that
    names anything else is not followed out of its folder)."""
    return isinstance(name, str) and bool(name) and "/" not in name and "\0" not in name \
        and not name.startswith(".")


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_consistent(outputs: list[ShardOutput], course_hash: str, tasks_path: str,
                     language: str | None) -> str:
    """Problems that make shards unmergeable, all at once; returns the shards' language."""
    problems = []
    by_tasks: dict[str, list[ShardOutput]] = {}
    for output in outputs:
        by_tasks.setdefault(output.record.get("tasks"), []).append(output)
    if len(by_tasks) > 1:
        groups = "; ".join(", ".join(str(o.folder) for o in group) for group in by_tasks.values())
        problems.append(f"the shards were graded with different task files (or grader "
                        f"versions): {groups}; grade every shard again with the same --tasks")
    elif course_hash not in by_tasks:
        problems.append(f"the shards were graded with other task files (or another grader "
                        f"version) than {tasks_path}; pass the task files they were graded "
                        "with as --tasks")
    counts = sorted({o.record["shard"]["count"] for o in outputs})
    if len(counts) > 1:
        problems.append("the shards come from different splits ("
                        + ", ".join(f"{o.folder} is {o.shard}" for o in outputs)
                        + "); merge the shards of one split, all with the same N")
    else:
        count = counts[0]
        seen: dict[int, list[ShardOutput]] = {}
        for output in outputs:
            seen.setdefault(output.record["shard"]["index"], []).append(output)
        for index, group in sorted(seen.items()):
            if len(group) > 1:
                problems.append(f"shard {index}/{count} was given twice: "
                                + ", ".join(str(o.folder) for o in group))
        missing = [index for index in range(1, count + 1) if index not in seen]
        if missing:
            problems.append("missing: " + ", ".join(f"shard {i}/{count}" for i in missing)
                            + "; pass the --out folder of every shard (grade a missing one "
                            f"with `grader grade --shard K/{count} --out FOLDER`)")
    listings = {(o.record["shard"]["listed"], o.record["shard"].get("listing")) for o in outputs}
    if len(listings) > 1:
        problems.append("the shards saw different submissions folders ("
                        + ", ".join(f"{o.folder}: {o.record['shard']['listed']} submissions"
                                    for o in outputs)
                        + "); grade every shard from the same folder")
    for output in outputs:
        if output.record.get("interrupted"):
            problems.append(f"{output.folder}: shard {output.shard} was interrupted "
                            f"({len(output.record['students'])} of {output.record.get('total')} "
                            f"submissions graded); finish it with `{output.resume_hint()}`, "
                            "then merge again")
    languages = sorted({str(o.record.get("language")) for o in outputs})
    if len(languages) > 1:
        problems.append("the shards wrote feedback in different languages ("
                        + ", ".join(f"{o.folder}: {o.record.get('language')}" for o in outputs)
                        + "); grade them all with the same --lang")
    elif languages[0] not in LANGUAGES:
        problems.append(f"the shards' records name the language {languages[0]!r}, which this "
                        f"grader has no messages in ({', '.join(LANGUAGES)}); grade them again")
    elif language is not None and languages[0] != language:
        problems.append(f"--lang {language}: the shards wrote their feedback in "
                        f"{languages[0]}; merged exports in another language would not match "
                        "it (leave out --lang, or grade the shards with --lang "
                        f"{language})")
    if problems:
        raise MergeError(problems)
    return languages[0]


def read_results(outputs: list[ShardOutput], course, course_hash: str):
    """Every shard's students rebuilt from their state files: ``[(result, folder)]``."""
    problems, found, owner = [], [], {}
    for output in outputs:
        for student in output.record["students"]:
            folder = output.folder / str(student)
            if student in owner:
                problems.append(f"{student} is in {owner[student]} and in {output.folder}: a "
                                "student belongs to one shard; grade the shards of one split "
                                "from the same submissions folder")
                continue
            owner[student] = output.folder
            state_path = folder / STATE_FILE
            try:
                state = json.loads(state_path.read_text(encoding="utf-8"))
            except (OSError, ValueError, RecursionError) as error:
                reason = ("missing" if isinstance(error, FileNotFoundError)
                          else f"unreadable ({type(error).__name__})")
                problems.append(f"{state_path}: {reason}; grade shard {output.shard} again: "
                                f"`{output.resume_hint()}`")
                continue
            hashes = state.get("hashes") if isinstance(state, dict) else None
            if isinstance(hashes, dict) and hashes.get("tasks") != course_hash:
                problems.append(f"{state_path}: graded with other task files than the shard's "
                                f"other students; grade shard {output.shard} again: "
                                f"`{output.resume_hint()}`")
                continue
            result = result_from_state(state, str(student), course) \
                if (folder / "results.json").is_file() else None
            if result is None:
                problems.append(f"{folder}: its state or results.json is incomplete; grade "
                                f"shard {output.shard} again: `{output.resume_hint()}`")
                continue
            found.append((result, folder))
    if problems:
        raise MergeError(problems)
    return found


def merged_batch(outputs: list[ShardOutput]) -> dict:
    """The batch info of the whole run: the shards' seconds and jobs summed (their time and
    parallelism in all), and everything else as one run has it."""
    ordered = sorted(outputs, key=lambda o: o.record["shard"]["index"])
    return {"isolation": ", ".join(sorted({str(o.record.get("isolation")) for o in ordered})),
            "seconds": sum(float(o.record["seconds"]) for o in ordered),
            "jobs": sum(int(o.record["jobs"]) for o in ordered),
            "python": ", ".join(sorted({str(o.record.get("python")) for o in ordered})),
            "interrupted": False,
            "total": sum(len(o.record["students"]) for o in ordered),
            "tasks": ordered[0].record.get("tasks"), "shard": None,
            "merged": [{"folder": str(o.folder), "shard": o.shard,
                        "seconds": o.record.get("seconds"), "jobs": o.record.get("jobs"),
                        "students": len(o.record["students"])} for o in ordered]}


def copy_student(folder: Path, out: Path) -> None:
    """The student's folder as the shard wrote it (state included, so the merged folder can
    be resumed like a single run's); a stale folder of the same name is replaced."""
    target = out / folder.name
    if target.is_symlink() or target.is_file():
        target.unlink()
    elif target.exists():
        shutil.rmtree(target)
    shutil.copytree(folder, target, symlinks=True)


@dataclass
class MergeOutcome:
    results: list
    batch: dict
    export_errors: list     # exports that could not be written
    language: str = ""      # the shards' (and so the exports') language


def merge(folders: list[Path], out: Path, course, tasks_path: str,
          language: str | None = None, roster=None, handback=None) -> MergeOutcome:
    """Check every shard, then copy the student folders into ``out`` and write the batch's
    exports there (moodle.csv after ``roster``, see ``lms.roster``, when one is given).
    Raises ``MergeError`` (before anything is written) if the shards do not make one complete
    run."""
    outputs = read_records(folders)
    course_hash = tasks_hash(course.source_files)
    language = check_consistent(outputs, course_hash, tasks_path, language)
    target = out.resolve()
    inside = [o.folder for o in outputs
              if o.folder.resolve() == target or o.folder.resolve() in target.parents]
    if inside:
        raise MergeError([f"--out {out}: is (or lies inside) the shard folder {folder}; merge "
                          "into a folder of its own" for folder in inside])
    found = read_results(outputs, course, course_hash)
    out.mkdir(parents=True, exist_ok=True)
    for _, folder in found:
        copy_student(folder, out)
    results = [result for result, _ in found]
    batch = merged_batch(outputs)
    errors = write_batch(out, results, course, Catalogue(language), batch, roster, handback)
    return MergeOutcome(results, batch, errors, language)
