"""grader/wheel.py: a wheel of the installed grader that pip installs and runs elsewhere, with
or without the reference, built without the checkout, setuptools or pip."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import grader
from grader.wheel import build_wheel, wheel_name

from conftest import ROOT, kit_installed_once, kit_once

DIST_INFO = f"gametree_grader-{grader.__version__}.dist-info"


def names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def read(wheel: Path, name: str) -> str:
    with zipfile.ZipFile(wheel) as archive:
        return archive.read(name).decode("utf-8")


def headers(text: str, field: str) -> list[str]:
    return [line.split(": ", 1)[1] for line in text.splitlines()
            if line.startswith(f"{field}: ")]


@pytest.fixture(scope="module")
def wheels(tmp_path_factory):
    folder = tmp_path_factory.mktemp("wheels")
    full = build_wheel(folder / "full")
    kit = build_wheel(folder / "kit", with_reference=False)
    return full, kit


def fresh_venv(folder: Path) -> Path:
    """A new virtual environment of this interpreter's Python, without a pip of its own
    (``pip_install`` installs into it with this venv's pip; seeding pip into every new venv
    took 8 s of CPU); its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True,
                   timeout=120)
    return folder / "bin" / "python"


def outside_env() -> dict:
    """The environment of a process that must not see this checkout or this venv."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def pip_install(python: Path, *arguments: str, cwd: Path) -> None:
    """``pip install`` into the environment of ``python`` (pip's --python: this venv's pip,
    run by that interpreter), resolving the dependencies from the package index."""
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                           "-q", *arguments], cwd=cwd, env=outside_env(), capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_wheel_is_named_and_tagged_as_pep_427_says(wheels):
    full, kit = wheels
    assert full.name == kit.name == wheel_name(grader.__version__) == \
        f"gametree_grader-{grader.__version__}-py3-none-any.whl"
    wheel = read(full, f"{DIST_INFO}/WHEEL")
    assert "Wheel-Version: 1.0" in wheel and "Root-Is-Purelib: true" in wheel
    assert "Tag: py3-none-any" in wheel
    listed = names(full)
    assert listed[-1] == f"{DIST_INFO}/RECORD"
    assert all(not name.startswith(DIST_INFO) for name in listed[:listed.index(
        f"{DIST_INFO}/METADATA")])


def test_record_holds_every_file_with_its_sha256_and_size(wheels):
    for wheel in wheels:
        rows = list(csv.reader(io.StringIO(read(wheel, f"{DIST_INFO}/RECORD"))))
        assert sorted(row[0] for row in rows) == sorted(names(wheel))
        with zipfile.ZipFile(wheel) as archive:
            for name, digest, size in rows:
                if name == f"{DIST_INFO}/RECORD":
                    assert digest == size == ""
                    continue
                data = archive.read(name)
                expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                assert digest == f"sha256={expected.decode()}", name
                assert int(size) == len(data), name


def test_metadata_comes_from_the_installed_distribution(wheels):
    from importlib import metadata
    installed = metadata.distribution("gametree-grader").metadata
    text = read(wheels[0], f"{DIST_INFO}/METADATA")
    assert headers(text, "Name") == ["gametree-grader"]
    assert headers(text, "Version") == [grader.__version__]
    assert headers(text, "Requires-Dist") == installed.get_all("Requires-Dist")
    assert {"pyyaml>=6", "jinja2>=3", "rich>=13", "msgspec>=0.18", "pyseccomp>=0.1"} <= \
        set(headers(text, "Requires-Dist"))
    assert headers(text, "Requires-Python") == [installed["Requires-Python"]]
    assert "grader = grader.cli:program" in read(wheels[0], f"{DIST_INFO}/entry_points.txt")


def test_the_package_data_is_in_and_no_bytecode(wheels):
    full, kit = wheels
    listed = names(full)
    assert "grader/report/templates/feedback.html.j2" in listed
    assert "grader/report/messages/de.yaml" in listed and "grader/report/messages/en.yaml" in listed
    assert "reference/minimax.py" in listed and "grader/cli/__init__.py" in listed
    assert not [name for name in listed if "__pycache__" in name or name.endswith(".pyc")]


def test_the_kit_holds_no_file_of_the_reference(wheels):
    full, kit = wheels
    assert not [name for name in names(kit) if name.startswith("reference/")]
    assert "reference" not in read(kit, f"{DIST_INFO}/top_level.txt").split()
    assert set(names(kit)) - {f"{DIST_INFO}/RECORD", f"{DIST_INFO}/top_level.txt"} == {
        name for name in names(full) if not name.startswith("reference/")} - {
        f"{DIST_INFO}/RECORD", f"{DIST_INFO}/top_level.txt"}


def test_two_builds_give_the_same_bytes(wheels, tmp_path):
    again = build_wheel(tmp_path)
    assert again.read_bytes() == wheels[0].read_bytes()


def test_the_wheel_holds_what_setuptools_builds_from_the_checkout(wheels, tmp_path):
    """The file list (pyproject.toml's packages and package data) and the dependencies agree
    with a wheel pip builds from a copy of the checkout."""
    checkout = tmp_path / "checkout"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for part in ("grader", "reference"):
        shutil.copytree(ROOT / part, checkout / part, ignore=ignore)
    for part in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / part, checkout / part)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                           str(tmp_path / "dist"), str(checkout)], env=outside_env(),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    theirs = next((tmp_path / "dist").glob("*.whl"))
    assert theirs.name == wheels[0].name
    assert sorted(names(theirs)) == sorted(names(wheels[0]))
    with zipfile.ZipFile(theirs) as archive:
        metadata = archive.read(f"{DIST_INFO}/METADATA").decode()
    assert headers(metadata, "Requires-Dist") == \
        headers(read(wheels[0], f"{DIST_INFO}/METADATA"), "Requires-Dist")


def test_pip_installs_the_wheel_into_a_fresh_venv_and_it_grades(wheels, tmp_path):
    """Installed with its dependencies (from the package index) into a new venv, run from a
    folder without the checkout: the command, the reference and the kit built from there."""
    python = fresh_venv(tmp_path / "venv")
    pip_install(python, str(wheels[0]), cwd=tmp_path)
    grader_command = tmp_path / "venv" / "bin" / "grader"
    done = subprocess.run([str(grader_command), "--version"], cwd=tmp_path,
                          env=outside_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"grader {grader.__version__}"
    where = subprocess.run([str(python), "-c", "import grader, reference; "
                            "print(grader.__file__); print(reference.__file__)"],
                           cwd=tmp_path, env=outside_env(), capture_output=True, text=True)
    assert where.returncode == 0, where.stderr
    assert all(line.startswith(str(tmp_path / "venv")) for line in where.stdout.split())
    shutil.copytree(ROOT / "tasks", tmp_path / "tasks")
    solved = subprocess.run([str(grader_command), "validate", "tasks", "--no-cache"],
                            cwd=tmp_path, env=outside_env(), capture_output=True, text=True,
                            timeout=300)
    assert solved.returncode == 0, solved.stdout + solved.stderr
    # From this non-editable install, without the checkout: the kit, as the lead builds it.
    kit = subprocess.run([str(python), "-c", "import sys; from pathlib import Path; "
                          "from grader.wheel import build_wheel; "
                          "print(build_wheel(Path(sys.argv[1]), with_reference=False))",
                          str(tmp_path / "kit")], cwd=tmp_path, env=outside_env(),
                         capture_output=True, text=True, timeout=60)
    assert kit.returncode == 0, kit.stderr
    rebuilt = Path(kit.stdout.strip())
    assert sorted(names(rebuilt)) == sorted(names(wheels[1]))
    assert read(rebuilt, f"{DIST_INFO}/METADATA") == read(wheels[1], f"{DIST_INFO}/METADATA")


def test_pip_installs_the_kit_and_the_reference_is_not_there(wheels, tmp_path,
                                                             tmp_path_factory):
    """The kit's wheel as check.py installs it with pip, with its dependencies, into a new
    virtual environment: the run's one such environment (``kit_installed_once``,
    tests/test_kit_install.py runs check.py there), from the kit's wheel, which is this wheel."""
    kit, _ = kit_once(tmp_path_factory, "kit-tasks", ROOT / "tasks")
    (installed,) = kit.glob("*.whl")
    assert installed.read_bytes() == wheels[1].read_bytes()
    venv = kit_installed_once(tmp_path_factory) / "cache" / f"kit-{grader.__version__}"
    python = venv / "bin" / "python"
    done = subprocess.run([str(venv / "bin" / "grader"), "--version"],
                          cwd=tmp_path, env=outside_env(), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"grader {grader.__version__}"
    missing = subprocess.run([str(python), "-c", "import reference"], cwd=tmp_path,
                             env=outside_env(), capture_output=True, text=True)
    assert missing.returncode != 0 and "ModuleNotFoundError" in missing.stderr
    files = subprocess.run([str(python), "-c", "from importlib import metadata; print('\\n'."
                            "join(str(f) for f in metadata.files('gametree-grader')))"],
                           cwd=tmp_path, env=outside_env(), capture_output=True, text=True)
    assert files.returncode == 0 and "grader/cli/__init__.py" in files.stdout.split()
    assert not [line for line in files.stdout.split() if line.startswith("reference/")]
    refused = subprocess.run([str(python), "-c", "import sys; from pathlib import Path; "
                              "from grader.wheel import WheelError, build_wheel\n"
                              "try:\n    build_wheel(Path(sys.argv[1]))\n"
                              "except WheelError as error:\n    print(error)",
                              str(tmp_path / "again")], cwd=tmp_path, env=outside_env(),
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 0 and "reference package is not installed" in refused.stdout
    assert not (tmp_path / "again").exists() or not list((tmp_path / "again").iterdir())
