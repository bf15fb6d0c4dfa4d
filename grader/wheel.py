"""A wheel of the grader as it is installed here, for machines that cannot reach this one's
source: the Gradescope autograder's image and the students' self-check kit.

``build_wheel`` writes a PEP 427 wheel (``py3-none-any``) of the ``grader`` package found
from ``grader.__file__`` and, unless told otherwise, of ``reference/``: their Python files
and the report's templates and message catalogue, never a bytecode cache.  The metadata (the
runtime dependencies, the extras, the entry points) is read from this installation's
distribution with ``importlib.metadata``, so that it works from a non-editable install as
from a checkout installed with ``pip install -e``.  It needs neither a source checkout nor
setuptools or pip at run time, and it never writes into the installed package.

Two builds of the same installation give the same bytes (fixed timestamps, sorted entries).
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import zipfile
from email.message import Message
from email.policy import compat32
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "gametree-grader"
TAG = "py3-none-any"
# What setuptools puts into the wheel besides the Python files (pyproject.toml's
# [tool.setuptools.package-data]); tests/test_wheel.py compares the two builds' file lists.
PACKAGE_DATA = {"grader": ("report/templates/*.j2", "report/messages/*.yaml",
                          "tasks/task-file.schema.json")}
# The metadata fields copied from the installed distribution, in this order.
COPIED_FIELDS = ("Summary", "License", "Requires-Python", "Provides-Extra", "Requires-Dist")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)     # the earliest a zip can say: reproducible builds


class WheelError(Exception):
    """The wheel cannot be built here; the message says why and what to do."""


def wheel_name(version: str) -> str:
    return f"{_dist_info_stem(version)}-{TAG}.whl"


def build_wheel(out_dir: Path, *, with_reference: bool = True) -> Path:
    """Write the wheel of the installed grader into ``out_dir`` (created if need be) and
    return its path.  ``with_reference=False`` leaves the model solutions out (the students'
    self-check kit): no file under ``reference/`` is in it."""
    import grader
    version = grader.__version__
    try:
        installed = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise WheelError(f"the {DISTRIBUTION} distribution is not installed in this Python "
                         f"environment, so its dependencies are unknown; install it (pip "
                         f"install -e . in the checkout, or pip install {DISTRIBUTION})") from None
    packages = {"grader": Path(grader.__file__).resolve().parent}
    if with_reference:
        packages["reference"] = _reference_folder()
    files = {}
    for package, folder in packages.items():
        for path in _package_files(folder, PACKAGE_DATA.get(package, ())):
            files[f"{package}/{path.relative_to(folder).as_posix()}"] = path.read_bytes()
    dist_info = f"{_dist_info_stem(version)}.dist-info"
    files[f"{dist_info}/METADATA"] = _metadata(installed, version).encode("utf-8")
    files[f"{dist_info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: grader.wheel {version}\n"
                                   f"Root-Is-Purelib: true\nTag: {TAG}\n").encode("utf-8")
    files[f"{dist_info}/entry_points.txt"] = _entry_points(installed).encode("utf-8")
    files[f"{dist_info}/top_level.txt"] = "".join(f"{p}\n" for p in packages).encode("utf-8")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / wheel_name(version)
    temporary = target.with_name(f".{target.name}.part")
    try:
        with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as archive:
            # The packages first, the .dist-info folder last, RECORD at its very end (PEP 427).
            for name in sorted(files, key=lambda n: (n.startswith(dist_info), n)):
                _add(archive, name, files[name])
            _add(archive, f"{dist_info}/RECORD", _record(files, f"{dist_info}/RECORD"))
        temporary.replace(target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return target


def _reference_folder() -> Path:
    from importlib.util import find_spec
    spec = find_spec("reference")
    if spec is None or not spec.submodule_search_locations:
        raise WheelError("the reference package is not installed here, so a wheel with the "
                         "model solutions cannot be built; install the grader from its "
                         "checkout (pip install -e .)")
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def _package_files(folder: Path, data_patterns) -> list[Path]:
    """The package's Python files and its data files, no bytecode, no links."""
    chosen = {path for path in folder.rglob("*.py")}
    for pattern in data_patterns:
        chosen.update(folder.glob(pattern))
    return sorted(path for path in chosen
                  if path.is_file() and not path.is_symlink()
                  and "__pycache__" not in path.relative_to(folder).parts)


def _metadata(installed, version: str) -> str:
    """METADATA: this version, the installed distribution's dependencies and extras."""
    message = Message(policy=compat32)
    message["Metadata-Version"] = "2.1"
    message["Name"] = DISTRIBUTION
    message["Version"] = version
    for field in COPIED_FIELDS:
        for value in installed.metadata.get_all(field) or ():
            message[field] = value
    return message.as_string()


def _entry_points(installed) -> str:
    """entry_points.txt: the installed distribution's, the ``grader`` command among them."""
    groups: dict[str, list[str]] = {}
    for entry in installed.entry_points:
        groups.setdefault(entry.group, []).append(f"{entry.name} = {entry.value}")
    groups.setdefault("console_scripts", [])
    if not any(line.startswith("grader =") for line in groups["console_scripts"]):
        groups["console_scripts"].append("grader = grader.cli:program")
    return "".join(f"[{group}]\n" + "".join(f"{line}\n" for line in sorted(lines)) + "\n"
                   for group, lines in sorted(groups.items()))


def _record(files: dict[str, bytes], record_name: str) -> bytes:
    """RECORD: every file's urlsafe-base64 SHA-256 (no padding) and size; itself unhashed."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        writer.writerow([name, f"sha256={digest.decode('ascii')}", len(data)])
    writer.writerow([record_name, "", ""])
    return buffer.getvalue().encode("utf-8")


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data)


def _dist_info_stem(version: str) -> str:
    """``name-version`` as a wheel's file name and .dist-info folder spell it: in the name,
    runs of -, _ and . become one _; in the version, - becomes _ (binary distribution
    format)."""
    import re
    return f"{re.sub(r'[-_.]+', '_', DISTRIBUTION).lower()}-{version.replace('-', '_')}"
