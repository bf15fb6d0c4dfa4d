"""A student's self-check runs on any machine with a plain Python 3.10+: the kit's check.py is
run here as a Windows Python would run it, without fcntl, resource, pwd and grp, process
groups, sysconf, readv, non-blocking pipes, uids, fchmod and O_NOFOLLOW
(tests/data/portable/without_posix.py), so that the launcher's portable branches (threads
reading the child's pipes, the child killed without a process group, no owner-checked cache)
do the work, at the process level, and give the same feedback as the usual ones."""

import json
import subprocess
import sys

import pytest

from conftest import DATA, ROOT, kit_once

WITHOUT_POSIX = DATA / "portable" / "without_posix.py"


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """The run's one kit of the bundled course (``kit_once``): the self-checks only read it
    (building one more computed the course's answers and variants again, 6 CPU-seconds)."""
    return kit_once(tmp_path_factory, "kit-tasks", ROOT / "tasks")[0]


def self_check(kit, folder, out, portable):
    command = [sys.executable, *([str(WITHOUT_POSIX)] if portable else []),
               str(kit / "check.py"), str(folder), "--sandbox", "process", "--out", str(out),
               "--lang", "en"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600)
    results = json.loads((out / folder.name / "results.json").read_text())
    results.pop("execution_time")
    return done, results


@pytest.mark.parametrize("folder", [
    ROOT / "submissions" / "korrekt",
    ROOT / "submissions" / "strikter-schnitt",
    ROOT / "submissions" / "endlosschleife",                 # killed at its time limit
    DATA / "debug-output" / "korrekt-mit-ausgaben",          # 3.6 MB printed, counted
], ids=lambda path: path.name)
def test_the_self_check_without_posix_gives_the_usual_feedback(kit, tmp_path, folder):
    usual, expected = self_check(kit, folder, tmp_path / "usual", portable=False)
    done, results = self_check(kit, folder, tmp_path / "portable", portable=True)
    assert "without POSIX: " in done.stderr and "threaded pipes True" in done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == usual.returncode == (0 if "korrekt" in folder.name else 1)
    assert results == expected
    assert done.stdout.splitlines()[-1] == usual.stdout.splitlines()[-1]   # Points: X/57


def test_the_child_runs_without_rlimits_where_there_are_none(tmp_path):
    from grader.sandbox.staging import stage_runner
    script = stage_runner(tmp_path / "runner")
    probe = ("import sys; sys.modules['resource'] = None; "
             f"sys.path.insert(0, {str(script.parent.parent.parent)!r}); "
             "from grader.sandbox.child import apply_limits; "
             "apply_limits({'cpu_seconds': 5, 'memory_bytes': 1 << 30}); print('no limits, no error')")
    done = subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "no limits, no error", done.stderr


def test_the_kit_s_entry_knows_where_a_windows_venv_keeps_its_python(kit):
    text = (kit / "check.py").read_text()
    compile(text, "check.py", "exec")
    assert 'folder / "Scripts" / "python.exe"' in text
    assert "subprocess.run(command).returncode" in text, "no exec on Windows"
