"""The task-file schema: one schema, which the loader checks task files against, `grader
schema` publishes as JSON Schema and the package ships; editors validate the bundled task
files with it, and it says the same as the loader about what a task file may hold."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from grader import checks
from grader.tasks import TaskFileError, load_course
from grader.cli import main
from grader.tasks.schema import FILE, json_schema, text
from grader.yamlsrc import load

from conftest import DATA, ROOT

BUNDLED = sorted(ROOT.glob("tasks/*.yaml")) + sorted(ROOT.glob("courses/*/tasks/*.yaml"))
MODELINE = "# yaml-language-server: $schema="


def as_an_editor_reads_it(value):
    """A task file's YAML as JSON Schema sees it in an editor (YAML 1.2): keys are strings
    and a date is a string."""
    if isinstance(value, dict):
        return {str(key): as_an_editor_reads_it(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_an_editor_reads_it(item) for item in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value


def editor_errors(path: Path) -> list:
    document = as_an_editor_reads_it(yaml.safe_load(path.read_text(encoding="utf-8")))
    return list(jsonschema.Draft7Validator(json_schema()).iter_errors(document))


def accepted_task_files() -> list[Path]:
    """Every task file under tests/data that the loader accepts."""
    accepted = []
    for path in sorted(DATA.rglob("*.yaml")):
        try:
            load_course(path)
        except TaskFileError:
            continue
        accepted.append(path)
    return accepted


# -- the published schema -------------------------------------------------------------------

def test_the_schema_is_json_schema_draft_7():
    jsonschema.Draft7Validator.check_schema(json_schema())
    assert json_schema()["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_the_package_ships_the_schema_as_json_schema_gives_it():
    assert FILE.read_text(encoding="utf-8") == text(), (
        "grader/tasks/task-file.schema.json is out of date: run "
        "grader schema --out grader/tasks/task-file.schema.json")


def test_pyproject_ships_the_schema_file_with_the_package():
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = project["tool"]["setuptools"]["package-data"]["grader"]
    assert any(Path("grader", pattern).match(FILE.relative_to(ROOT).as_posix())
               for pattern in shipped)


def test_grader_schema_prints_the_schema_and_writes_it_with_out(tmp_path, capsys):
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == json_schema()
    target = tmp_path / "task-file.schema.json"
    assert main(["schema", "--out", str(target)]) == 0
    assert json.loads(target.read_text(encoding="utf-8")) == json_schema()
    assert main(["schema", "--out", str(tmp_path / "no-such-folder" / "x.json")]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_grader_schema_help_names_the_file_the_package_ships(capsys):
    with pytest.raises(SystemExit):
        main(["schema", "--help"])
    assert f"ships it as {FILE.name} in grader/tasks/" in capsys.readouterr().out


def test_every_check_kind_has_a_definition_built_from_its_options():
    definitions = json_schema()["definitions"]
    assert definitions["check"]["properties"]["kind"]["enum"] == list(checks.KINDS)
    for kind, module in checks.KINDS.items():
        properties = definitions[f"check-{kind}"]["properties"]
        assert set(properties) == {"kind", "points", "visibility", "function", *module.OPTIONS}
        for name, option in module.OPTIONS.items():
            declared = {key: value for key, value in option.items() if key != "x-required"}
            assert declared.items() <= properties[name].items(), (kind, name)
            assert (name in definitions[f"check-{kind}"].get("required", ())) == bool(
                option.get("x-required")), (kind, name)


# -- editors and the loader agree -----------------------------------------------------------

def test_every_bundled_task_file_names_the_schema_on_its_first_line():
    assert len(BUNDLED) >= 15
    for path in BUNDLED:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith(MODELINE), path
        assert (path.parent / first[len(MODELINE):]).resolve() == FILE, path


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_bundled_task_file_fits_the_schema(path):
    assert not editor_errors(path), [e.message for e in editor_errors(path)]


def test_every_task_file_the_loader_accepts_under_tests_data_fits_the_schema():
    accepted = accepted_task_files()
    assert len(accepted) >= 20
    misfits = {str(p.relative_to(ROOT)): [e.message for e in editor_errors(p)]
               for p in accepted if editor_errors(p)}
    assert not misfits


def test_an_unknown_check_kind_is_refused_by_the_schema_and_by_the_loader():
    path = DATA / "bad" / "unknown-kind.yaml"
    errors = editor_errors(path)
    assert any(list(error.absolute_path) == ["tasks", 0, "checks", 1, "kind"] for error in errors)
    with pytest.raises(TaskFileError) as raised:
        load_course(path)
    assert [str(p) for p in raised.value.problems] == [
        f"{path}:9: unknown check kind 'visted'; known: {', '.join(sorted(checks.KINDS))}"]


def line_of_path(document, path) -> int:
    """The line of the value a JSON Schema error's path leads to: the line of its key (or
    list item), where the loader reports it too."""
    value, line = document, document.line
    for step in path:
        line = value.line_of(step)
        value = value[step] if step in value or isinstance(value, list) else None
    return line


def test_the_loader_refuses_what_an_editor_refuses_at_the_same_lines():
    """tests/data/bad/schema-errors.yaml: wrong types, values outside the allowed ones and
    unknown keys, in the header, a task, its limits and its checks."""
    path = DATA / "bad" / "schema-errors.yaml"
    with pytest.raises(TaskFileError) as raised:
        load_course(path)
    loader_lines = {problem.line for problem in raised.value.problems}
    document, _ = load(path)
    editor_lines = set()
    for error in editor_errors(path):
        if error.validator == "additionalProperties":    # reported at the unknown key
            unknown = error.message.split("'")[1]
            editor_lines.add(line_of_path(document, [*error.absolute_path, unknown]))
        else:
            editor_lines.add(line_of_path(document, error.absolute_path))
    assert editor_lines == loader_lines
    assert len(loader_lines) >= 10


# -- what the schema declares is what the loader does -----------------------------------------

def test_the_defaults_of_check_options_are_what_the_kinds_read(tmp_path):
    """A check without an option gets the default its kind's OPTIONS declare (where its
    options keep it)."""
    course = load_course(DATA / "schema" / "every-kind.yaml")
    seen = set()
    for task in course.tasks:
        for check in task.checks:
            module = checks.KINDS[check.kind]
            for name, option in module.OPTIONS.items():
                if "default" in option and name in dict(check.options):
                    assert check.option(name) == option["default"], (check.id, name)
                    seen.add((check.kind, name))
    assert {("random-trees", "trees"), ("match", "margin"), ("match", "games"),
            ("rating", "games"), ("count", "bound"), ("hygiene", "aspects")} <= seen


def test_the_positions_games_give_without_their_keys_are_the_declared_defaults():
    definitions = json_schema()["definitions"]["task"]["properties"]
    course = load_course(DATA / "schema" / "every-kind.yaml")
    specs = {task.game: json.loads(task.game_spec) for task in course.tasks
             if task.game in ("kalah", "connect4", "nim")}
    assert specs["kalah"]["pits"] == definitions["pits"]["default"]
    assert specs["kalah"]["stones"] == definitions["stones"]["default"]
    assert specs["kalah"]["to_move"] == definitions["to_move"]["default"]
    for key in ("columns", "rows", "connect"):
        assert specs["connect4"][key] == definitions[key]["default"]
    assert specs["nim"]["max_take"] == definitions["take"]["default"]
    assert specs["nim"]["last_loses"] == definitions["last_loses"]["default"]


# -- a file that fitted is not checked again unchanged (grader/tasks/fitted.py) ----------------

def test_an_unchanged_task_file_that_fitted_reads_as_the_schema_reads_it(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "blatt3.yaml"
    path.write_bytes((ROOT / "tasks" / "blatt3.yaml").read_bytes())
    checked = load_course(path)                 # checked against the schema, remembered
    assert len(list((tmp_path / "cache" / "fitted").iterdir())) == 1
    assert load_course(path) == checked         # remembered: the same course


def test_an_edited_task_file_is_checked_against_the_schema_again(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "blatt3.yaml"
    text = (ROOT / "tasks" / "blatt3.yaml").read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    load_course(path)
    path.write_text(text.replace("  language: de\n", "  language: de\n  farbe: blau\n", 1),
                    encoding="utf-8")
    for _ in range(2):      # a file with a problem is never remembered: refused each time
        with pytest.raises(TaskFileError) as raised:
            load_course(path)
        assert [(p.line, "unknown key 'farbe'" in p.message)
                for p in raised.value.problems] == [(8, True)]
    assert len(list((tmp_path / "cache" / "fitted").iterdir())) == 1
