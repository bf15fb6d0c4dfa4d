"""The self-check kit as a student gets it: check.py, run by a Python without the grader,
installs the kit's wheel (no ``reference/`` in it) into a virtual environment and checks
there, with the student's pip where it can.  (Apart from tests/test_kit.py, whose kit
checks run in this interpreter's environment: these wait for pip, so they run on a worker of
their own.)"""

import subprocess

from conftest import ROOT, kit_installed_once, kit_once, plain_python


def test_check_py_installs_the_kit_s_wheel_where_no_grader_is_and_runs_without_reference(
        tmp_path_factory, tmp_path):
    """The kit as a student gets it: a Python without the grader runs check.py, which installs
    the kit's wheel (no ``reference/`` in it) into a virtual environment and checks there.
    (The run's one kit of the course, installed once: ``kit_installed_once``; tests/test_wheel.py
    looks into the same environment.)"""
    import os
    import zipfile
    kit, _ = kit_once(tmp_path_factory, "kit-tasks", ROOT / "tasks")
    wheel = list(kit.glob("*.whl"))
    assert len(wheel) == 1
    assert not [n for n in zipfile.ZipFile(wheel[0]).namelist() if n.startswith("reference")]
    installed_once = kit_installed_once(tmp_path_factory)
    environment = {**os.environ, "GRADER_CACHE_DIR": str(installed_once / "cache")}
    environment.pop("PYTHONPATH", None)
    assert subprocess.run([plain_python(), "-c", "import grader"], env=environment,
                          cwd=tmp_path, capture_output=True).returncode != 0, \
        "a Python without the grader"
    stderr = (installed_once / "stderr.txt").read_text()
    assert (installed_once / "returncode.txt").read_text() == "0", stderr
    assert "installing the grader from the kit" in stderr
    assert (installed_once / "stdout.txt").read_text().rstrip().endswith("Points: 57/57")
    assert (installed_once / "out" / "korrekt" / "feedback.html").is_file()
    installed = installed_once / "cache" / "kit-0.1.0" / "bin" / "python"
    assert subprocess.run([installed, "-c", "import reference"], capture_output=True,
                          cwd=tmp_path, env=environment).returncode != 0
    refused = subprocess.run([installed, "-m", "grader.cli", "solve", ROOT / "tasks"],
                             capture_output=True, text=True, cwd=tmp_path, env=environment)
    assert refused.returncode == 2 and "only `grader check --kit" in refused.stderr
    # The second run uses the environment made by the first; a faulty submission fails.
    again = subprocess.run([plain_python(), kit / "check.py",
                            ROOT / "submissions" / "ohne-alphabeta", "--out", tmp_path / "out"],
                           cwd=tmp_path, env=environment, capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 1 and "installing" not in again.stderr


def test_check_py_installs_with_the_student_s_pip_where_it_can_and_seeds_one_where_not(
        tmp_path_factory, tmp_path):
    """A Python with pip 22.3 or later installs the kit's environment from outside (``pip
    --python``), so the environment has no pip of its own (the run's one, from
    ``kit_installed_once``); a Python without pip gets an environment seeded with its own
    (only the choice is run here: seeding pip costs some 8 CPU-seconds)."""
    import os
    import venv
    kit, _ = kit_once(tmp_path_factory, "kit-tasks", ROOT / "tasks")
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    installed = kit_installed_once(tmp_path_factory) / "cache" / "kit-0.1.0" / "bin" / "python"
    own_pip = subprocess.run([installed, "-I", "-c", "import pip"], capture_output=True,
                             env=environment, cwd=tmp_path)
    assert own_pip.returncode != 0, "the kit's environment was made without pip"
    venv.EnvBuilder(with_pip=False).create(tmp_path / "no-pip")
    chooses = "import runpy, sys; print(runpy.run_path(sys.argv[1])['outside_pip']())"
    for python, outside in ((plain_python(), "True"),
                            (tmp_path / "no-pip" / "bin" / "python", "False")):
        done = subprocess.run([python, "-c", chooses, kit / "check.py"], capture_output=True,
                              text=True, env=environment, cwd=tmp_path)
        assert done.stdout.strip() == outside, (python, done.stdout, done.stderr)
