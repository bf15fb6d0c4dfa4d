"""Builds the Moodle 4.1+ downloads of tests/data/lms/ (see README.md beside this file) from
the example students, in the layouts Moodle's mod/assign/classes/downloader.php writes:

* ``moodle41/``: "Download all submissions" unpacked, one folder per participant and
  submission plugin (``Anna Schmidt_100001_assignsubmission_file/``, and her
  ``..._assignsubmission_onlinetext/onlinetext.html``);
* ``moodle41-flat/``: the same with "Download submissions in folders" off (every file at the
  top, its name prefixed with the folder's name and ``_``);
* ``KI-WS26-Blatt 3-1234.zip``: the zip Moodle sends for ``moodle41/`` (named
  ``<course shortname>-<assignment>-<course module id>.zip``);
* ``moodle41-groups/``: a team assignment's download (folders named after groups, with the
  groups' ids; Team Beta's id is 100011, which is also Emil Ernst's participant number).

Run from the repository's top folder after an example student changes:
python tests/data/lms/make_moodle41.py  (the same bytes every time: fixed dates).
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
DATE = (2026, 11, 23, 9, 12, 0)
# The online text plugin's file (assignsubmission_onlinetext's get_files), as Moodle wraps it.
ONLINE = ('<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body>{}</body></html>')


def student(name: str) -> dict[str, bytes]:
    folder = ROOT / "submissions" / name
    return {file: (folder / file).read_bytes() for file in ("minimax.py", "evaluation.py")}


def individual() -> dict[str, bytes]:
    """Path in the download -> content."""
    files = {}
    for file, data in student("strikter-schnitt").items():   # 54 of 60 points
        files[f"Anna Schmidt_100001_assignsubmission_file/{file}"] = data
    files["Anna Schmidt_100001_assignsubmission_onlinetext/onlinetext.html"] = ONLINE.format(
        "<p>Ich habe die Schnittbedingung <b>strikt</b> gewählt, siehe Folie 12.</p>").encode()
    for file, data in student("korrekt").items():            # 60 of 60
        files[f"Ben Braun_100002_assignsubmission_file/{file}"] = data
    files["Cem Celik_100003_assignsubmission_onlinetext/onlinetext.html"] = ONLINE.format(
        "<pre>def minimax(state): ...</pre><p>Datei ging nicht hochzuladen.</p>").encode()
    return files


def teams() -> dict[str, bytes]:
    files = {}
    for file, data in student("korrekt").items():
        files[f"Team Alpha_7_assignsubmission_file/{file}"] = data
    for file, data in student("strikter-schnitt").items():
        files[f"Team Beta_100011_assignsubmission_file/{file}"] = data
    return files


def write_tree(folder: Path, files: dict[str, bytes]) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    for path, data in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)


def flat(files: dict[str, bytes]) -> dict[str, bytes]:
    """The download without folders: ``<folder>_<file name>`` (load_submissionplugin_filelist,
    downloadasfolders off)."""
    return {path.replace("/", "_", 1): data for path, data in files.items()}


def main() -> None:
    write_tree(HERE / "moodle41", individual())
    write_tree(HERE / "moodle41-flat", flat(individual()))
    write_tree(HERE / "moodle41-groups", teams())
    with zipfile.ZipFile(HERE / "KI-WS26-Blatt 3-1234.zip", "w", zipfile.ZIP_DEFLATED) as zipped:
        for path, data in sorted(individual().items()):
            info = zipfile.ZipInfo(path, date_time=DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o100644 << 16
            zipped.writestr(info, data)


if __name__ == "__main__":
    main()
