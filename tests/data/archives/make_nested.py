"""Builds the archives of tests/data/archives/nested/ (see README.md beside this file).

Run from the repository's top folder after the correct submission (submissions/korrekt)
changes:  python tests/data/archives/make_nested.py

The output is the same bytes every time (fixed dates, gzip without a timestamp), so a rebuild
that changes nothing leaves git clean.
"""

from __future__ import annotations

import gzip
import io
import shutil
import tarfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
KORREKT = ROOT / "submissions" / "korrekt"
OUT = HERE / "nested"
DATE = (2026, 11, 23, 9, 12, 0)
MTIME = 1795425120          # the same moment, for tar headers


def code() -> dict[str, bytes]:
    """The correct submission's files, as a student's archive holds them."""
    return {name: (KORREKT / name).read_bytes() for name in ("minimax.py", "evaluation.py")}


def zip_bytes(members: dict[str, bytes], folders: tuple = ()) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for folder in folders:
            bundle.writestr(zipfile.ZipInfo(folder.rstrip("/") + "/", DATE), b"")
        for name, data in members.items():
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o100644 << 16
            bundle.writestr(info, data)
    return buffer.getvalue()


def tar_gz_bytes(members: dict[str, bytes]) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as bundle:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), MTIME, 0o644
            bundle.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), compresslevel=9, mtime=0)


def chain(names: list[str], innermost: dict[str, bytes]) -> bytes:
    """``names[0]`` holding ``names[1]`` holding ... holding ``innermost``'s files (zips)."""
    data = zip_bytes(innermost)
    for name in reversed(names[1:]):
        data = zip_bytes({name: data})
    return data


def zip_bomb(size: int) -> bytes:
    """A zip whose one member, minimax.py, unpacks to ``size`` bytes of zeros."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as bundle:
        info = zipfile.ZipInfo("minimax.py", DATE)
        info.compress_type = zipfile.ZIP_DEFLATED
        with bundle.open(info, "w", force_zip64=True) as member:
            zeros = bytes(1 << 20)
            for _ in range(size >> 20):
                member.write(zeros)
    return buffer.getvalue()


def build() -> dict[str, bytes]:
    files = {}
    # Correct: the uploaded zip holds a .tar.gz that holds the code (in a folder Blatt3/).
    files["Max Mustermann_123456_assignsubmission_file_/abgabe.zip"] = zip_bytes(
        {"abgabe.tar.gz": tar_gz_bytes({f"Blatt3/{n}": d for n, d in code().items()})})
    # Correct, handed in as an archive of its own: anna.zip > code.tar.gz > the files.
    files["anna.zip"] = zip_bytes(
        {"anna/code.tar.gz": tar_gz_bytes(code())}, folders=("anna",))
    # A zip bomb (512 MiB of zeros as minimax.py) inside the uploaded .tar.gz.
    files["Bernd Bombe_200001_assignsubmission_file_/abgabe.tar.gz"] = tar_gz_bytes(
        {"bombe.zip": zip_bomb(512 << 20)})
    # Zips inside zips, six deep, the correct code at the bottom.
    files["Karla Kette_200002_assignsubmission_file_/kette.zip"] = chain(
        [f"ebene{n}.zip" for n in range(1, 7)], code())
    # An archive that holds an archive of its own name, again and again.
    files["Sven Selbst_200003_assignsubmission_file_/selbst.zip"] = chain(
        ["selbst.zip"] * 8, code())
    # Three levels of 900 empty folders each: every archive within 2,000 members, together
    # not.
    level = zip_bytes(code(), folders=tuple(f"c{n:03}" for n in range(900)))
    for name in ("viele3.zip", "viele2.zip"):
        level = zip_bytes({name: level}, folders=tuple(f"{name[:-4]}-{n:03}"
                                                       for n in range(900)))
    files["Viola Viele_200004_assignsubmission_file_/viele.zip"] = level
    # Three levels of 8 MiB each (8 members of 1 MiB of zeros, each too small for the ratio
    # to be judged): every archive within 20 MiB unpacked, together not.
    filler = {f"daten{n}.bin": bytes(1 << 20) for n in range(8)}
    level = zip_bytes({**filler, **code()})
    for name in ("summe3.zip", "summe2.zip"):
        level = zip_bytes({**filler, name: level})
    files["Simon Summe_200005_assignsubmission_file_/summe.zip"] = level
    return files


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    for path, data in build().items():
        target = OUT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        print(f"{len(data):>9,} bytes  {path}")


if __name__ == "__main__":
    main()
