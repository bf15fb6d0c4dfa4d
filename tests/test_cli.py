"""The command line: reports of `grade`, the self-check's exit status, `solve --json`."""

import csv
import json
from pathlib import Path

from grader.cli import main

from conftest import ROOT


def test_grade_writes_gradebook_results_feedback_and_summary(graded_examples, course):
    out, results = graded_examples
    rows = list(csv.reader((out / "gradebook.csv").open()))
    assert rows[0] == ["student", "score", "max_score", *(t.id for t in course.tasks)]
    assert sorted(r[0] for r in rows[1:]) == sorted(results)
    summary = (out / "summary.html").read_text()
    for student in results:
        assert f'href="{student}/feedback.html"' in summary
    for student, data in results.items():
        assert (out / student / "feedback.md").exists()
        assert (out / student / "feedback.html").read_text().startswith("<!DOCTYPE html>")
        assert set(data) >= {"score", "tests"}
        for test in data["tests"]:
            assert set(test) >= {"name", "score", "max_score", "status", "output",
                                 "visibility", "tags"}
            assert test["status"] in ("passed", "failed")
            assert test["visibility"] in ("visible", "hidden")
        assert sum(t["score"] for t in data["tests"]) == data["score"]


def test_a_batch_writes_its_reports_with_the_umask_s_permissions(graded_examples):
    import os
    out, _ = graded_examples
    mask = os.umask(0o022)
    os.umask(mask)
    files = [path for path in out.rglob("*") if path.is_file()]
    assert len(files) > 20
    assert {path.stat().st_mode & 0o777 for path in files} == {0o666 & ~mask}


def test_results_tag_every_test_with_its_function_and_check_kind(graded_examples):
    _, results = graded_examples
    tags = [t["tags"] for t in results["korrekt"]["tests"]]
    assert ["alphabeta", "visited", "tree-blatt3"] in tags
    assert all(tag[0] in ("minimax", "alphabeta", "negamax", "evaluate") for tag in tags)


def test_hidden_checks_count_but_keep_their_details_out_of_the_feedback(graded_examples):
    out, results = graded_examples
    hidden = [t for t in results["strikter-schnitt"]["tests"] if t["visibility"] == "hidden"
              and t["status"] == "failed"]
    assert hidden
    feedback = (out / "strikter-schnitt" / "feedback.html").read_text()
    for test in hidden:
        assert test["output"].split(".")[0] not in feedback


def test_grading_twice_gives_the_same_results(graded_examples, tmp_path):
    out, results = graded_examples
    assert main(["grade", "--tasks", str(ROOT / "tasks"), "--submissions",
                 str(ROOT / "submissions"), "--out", str(tmp_path), "--jobs", "1"]) == 0
    for student, data in results.items():
        again = json.loads((tmp_path / student / "results.json").read_text())
        for item in (data, again):
            item.pop("execution_time")
        assert again == data


def test_self_check_exits_0_only_when_every_visible_check_passes(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    tasks = str(ROOT / "tasks")
    assert main(["check", str(ROOT / "submissions" / "korrekt"), "--tasks", tasks]) == 0
    assert main(["check", str(ROOT / "submissions" / "ohne-alphabeta"), "--tasks", tasks,
                 "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert "minimax.py has no function alphabeta" in out


def test_the_check_command_ends_quickly_with_its_status_its_output_and_its_page(tmp_path):
    """``grader check`` as a program: the process ends without the interpreter's teardown,
    so its exit status, its whole output and its written page must all still be there."""
    import os
    import subprocess
    import sys
    for student, status in (("korrekt", 0), ("ohne-alphabeta", 1), ("syntaxfehler", 1)):
        done = subprocess.run(
            [sys.executable, "-m", "grader.cli", "check", str(ROOT / "submissions" / student),
             "--tasks", str(ROOT / "tasks"), "--out", str(tmp_path), "--lang", "en", "--points"],
            capture_output=True, text=True, cwd=tmp_path, timeout=120,
            env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"})
        assert done.returncode == status, done.stderr
        last_two = done.stdout.rstrip().splitlines()[-2:]
        assert last_two[0].startswith("Points: ") and last_two[1].startswith("Points "), done.stdout
        assert (tmp_path / student / "feedback.html").read_text().rstrip().endswith("</html>")
        assert (tmp_path / student / "junit.xml").read_text().rstrip().endswith("</testsuites>")


def test_a_self_check_inside_the_submission_writes_nothing_into_it(tmp_path, monkeypatch):
    import os
    import shutil
    submission = tmp_path / "abgabe"
    shutil.copytree(ROOT / "submissions" / "korrekt", submission)
    before = sorted(p.relative_to(submission) for p in submission.rglob("*"))
    monkeypatch.chdir(submission)
    assert main(["check", "--tasks", str(ROOT / "tasks")]) == 0
    assert sorted(p.relative_to(submission) for p in submission.rglob("*")) == before
    page = Path(os.environ["GRADER_CACHE_DIR"]) / "check" / "abgabe" / "feedback.html"
    assert page.is_file()
    monkeypatch.chdir(tmp_path)      # beside the submission: the usual reports/check
    assert main(["check", "abgabe", "--tasks", str(ROOT / "tasks")]) == 0
    assert (tmp_path / "reports" / "check" / "abgabe" / "feedback.html").is_file()


def test_every_command_explains_itself_with_an_example_and_its_exit_status(capsys):
    import pytest
    from grader import __version__
    from grader.cli import build_parser
    commands = build_parser()._subparsers._group_actions[0].choices
    assert set(commands) == {"grade", "check", "solve", "validate", "import-trees", "merge",
                             "classroom", "kit", "gradescope", "gradescope-run", "tournament",
                             "sheets", "schema"}
    for name in commands:
        with pytest.raises(SystemExit) as stop:
            main([name, "--help"])
        assert stop.value.code == 0
        text = capsys.readouterr().out
        assert "example" in text and "exit status: 0" in text, name
        assert commands[name].description, name
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"grader {__version__}"


def test_every_command_is_one_module_of_the_cli_package_listed_once():
    """A command is one module of grader/cli/ (NAME, register, run) and one line of
    COMMANDS; the package's other modules are what several commands share."""
    import pkgutil
    from grader import cli
    shared = {"__main__", "common", "lms", "outcome"}
    modules = {info.name for info in pkgutil.iter_modules(cli.__path__)} - shared
    assert sorted(module.__name__.rpartition(".")[2] for module in cli.COMMANDS) == \
        sorted(modules)
    commands = cli.build_parser()._subparsers._group_actions[0].choices
    assert [module.NAME for module in cli.COMMANDS] == list(commands)


def test_solve_json_lists_value_move_visits_and_pruned_nodes(capsys):
    assert main(["solve", str(ROOT / "tasks"), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    by_key = {(r["task"], r["function"]): r for r in rows}
    sheet = by_key[("tree-blatt3", "alphabeta")]
    assert (sheet["value"], sheet["move"], sheet["visited"]) == (3, "B", 16)
    assert sheet["pruned"] == ["D2", "D3", "G", "G1", "G2", "G3"]
    assert by_key[("ttt-midgame-a", "minimax")]["visited"] == 186
    assert by_key[("ttt-midgame-a", "alphabeta")]["visited"] == 88
    assert by_key[("ttt-midgame-b", "minimax")]["visited"] == 38
    assert by_key[("ttt-midgame-b", "alphabeta")]["visited"] == 28
    assert by_key[("nim-5", "minimax")]["move"] == 1
    for row in rows:
        assert {"task", "function", "value", "move", "visited"} <= set(row)


def test_grade_in_english_and_missing_folder(tmp_path, capsys):
    assert main(["grade", "--submissions", str(tmp_path / "nowhere"), "--tasks",
                 str(ROOT / "tasks"), "--out", str(tmp_path / "r")]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_both_languages_have_every_message():
    import yaml
    from grader.report.messages import MESSAGES_DIR

    def keys(tree, prefix=""):
        found = set()
        for key, value in tree.items():
            name = f"{prefix}{key}"
            found |= keys(value, name + ".") if isinstance(value, dict) else {name}
        return found
    german = yaml.safe_load((MESSAGES_DIR / "de.yaml").read_text())
    english = yaml.safe_load((MESSAGES_DIR / "en.yaml").read_text())
    assert keys(german) == keys(english)


def test_grade_writes_complete_pages_in_german_and_in_english(tmp_path, graded_examples):
    # German is the bundled course's language: the run's graded examples are its German
    # pages (graded without --lang); --lang en grades them in English.
    for language, words in (("de", ("Rückmeldung für", "Punkte", "Übersicht")),
                            ("en", ("Feedback for", "Points", "Summary"))):
        out = graded_examples[0] if language == "de" else tmp_path / language
        if language == "en":
            assert main(["grade", "--tasks", str(ROOT / "tasks"), "--submissions",
                         str(ROOT / "submissions"), "--out", str(out), "--lang", language,
                         "--jobs", "2"]) == 0
        page = (out / "strikter-schnitt" / "feedback.html").read_text()
        assert f'<html lang="{language}">' in page
        assert words[0] in page and words[1] in page
        assert words[2] in (out / "summary.html").read_text()
        other = {"de": "Feedback for", "en": "Rückmeldung"}[language]
        assert other not in page
